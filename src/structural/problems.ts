// What is wrong with a rule, before anything runs. A problem points into the rule object by path
// (['rule', 'inside', 'pattern']) so the caller can turn it into file:line:col; `at: 'key'` points at
// a mapping key (an unknown key), else at the value.
import type { Result } from '../errors.js';

export type PathSegment = string | number;

export interface RuleProblem {
  readonly path: readonly PathSegment[];
  readonly message: string;
  readonly at: 'key' | 'value';
}

/** A rule part as compiled, or every problem found in it. */
export type Checked<T> = Result<T, readonly RuleProblem[]>;

export const problem = (path: readonly PathSegment[], message: string, at: 'key' | 'value' = 'value'): RuleProblem => ({ path, message, at });

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Levenshtein distance, for "did you mean" on unknown keys. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const k of known) {
    const d = distance(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

export function unknownKeys(value: Record<string, unknown>, known: readonly string[], path: readonly PathSegment[], what: string): RuleProblem[] {
  const out: RuleProblem[] = [];
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    out.push(problem([...path, key], `Unknown ${what} key \`${key}\`${near ? ` (did you mean \`${near}\`?)` : ''}; known keys: ${known.join(', ')}.`, 'key'));
  }
  return out;
}
