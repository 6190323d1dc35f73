// Credentials that must not be written by a batch job: a small table of well-known token shapes.
// Matching is by shape only; a token already present in the file before is not "added".

interface SecretRule {
  readonly name: string;
  readonly source: string;
}

const RULES: readonly SecretRule[] = [
  { name: 'private-key', source: String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----` },
  { name: 'github-token', source: String.raw`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b` },
  { name: 'github-fine-grained-token', source: String.raw`\bgithub_pat_[A-Za-z0-9_]{60,255}` },
  { name: 'gitlab-token', source: String.raw`\bglpat-[A-Za-z0-9_-]{20,}` },
  { name: 'slack-token', source: String.raw`\bxox[baprs]-[A-Za-z0-9-]{10,}` },
  { name: 'aws-access-key-id', source: String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b` },
  { name: 'anthropic-api-key', source: String.raw`\bsk-ant-[A-Za-z0-9_-]{32,}` },
  { name: 'openai-api-key', source: String.raw`\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}` },
  { name: 'stripe-secret-key', source: String.raw`\b[rs]k_live_[A-Za-z0-9]{24,}` },
  { name: 'google-api-key', source: String.raw`\bAIza[0-9A-Za-z_-]{35}\b` },
  { name: 'npm-token', source: String.raw`\bnpm_[A-Za-z0-9]{36}\b` },
];

/** The longest text one rule can match is unbounded for some; windows around edits use this margin. */
export const SECRET_MARGIN = 300;

export interface SecretHit {
  readonly name: string;
  readonly index: number;
  readonly text: string;
}

export function scanSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const rule of RULES) {
    // A fresh RegExp per scan: a shared /g regex carries lastIndex state between calls.
    for (const m of text.matchAll(new RegExp(rule.source, 'g'))) hits.push({ name: rule.name, index: m.index, text: m[0] });
  }
  return hits.sort((a, b) => a.index - b.index);
}

/** Names and offsets of credentials in `text`. The matched text itself is kept out of reports. */
export function findSecrets(text: string): { name: string; index: number }[] {
  return scanSecrets(text).map(({ name, index }) => ({ name, index }));
}

/** The first credential in `candidates` that `before` does not already hold, if any. */
export function firstAddedSecret(candidates: readonly string[], before: string): SecretHit | null {
  for (const c of candidates) {
    for (const hit of scanSecrets(c)) if (!before.includes(hit.text)) return hit;
  }
  return null;
}
