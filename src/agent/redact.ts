// The API key must never reach a log line, an error, a report or a cache file. Everything the agent
// says to the outside passes through one of these.
export type Redactor = (text: string) => string;

export function redactor(secret: string | undefined): Redactor {
  // A very short "key" would blank out ordinary words; real keys are long.
  if (secret === undefined || secret.length < 8) return (text) => text;
  return (text) => (text.includes(secret) ? text.replaceAll(secret, '[redacted]') : text);
}
