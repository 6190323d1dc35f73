// The trailers that make a commit scion's: `Scion-Recipe`, `Scion-Job` and `Scion-Group` under the
// message. The runner writes them; the rerun rule, publishing and pruning read them to tell scion's
// commits of one recipe and job from anyone else's.

/** `text` with scion's trailer block under it. */
export function withTrailers(text: string, recipe: string, job: string, group: string): string {
  return `${text.trimEnd()}\n\nScion-Recipe: ${recipe}\nScion-Job: ${job}\nScion-Group: ${group}\n`;
}

/** The trailer block of a commit message (the last paragraph's `Key: value` lines). */
export function parseTrailers(message: string): Record<string, string> {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? '';
  const out: Record<string, string> = {};
  for (const line of last.split('\n')) {
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** Whether `message` is that of a scion commit of this recipe and job. */
export function isScionCommitOf(message: string, recipe: string, job: string): boolean {
  const t = parseTrailers(message);
  return t['Scion-Recipe'] === recipe && t['Scion-Job'] === job;
}
