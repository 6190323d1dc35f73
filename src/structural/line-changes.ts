// The changes between two LF texts, line by line, so that writing them back splices only the lines
// that changed (core/text/splice-bytes.ts): a file with mixed line endings keeps every untouched
// line's own ending. Used for whole-text results (a jscodeshift transform returns the whole file).
import { diffArrays } from 'diff';
import { changedSpan, type Change } from '../core/edit/regions.js';
import { linesWithNewlines } from '../core/patch/lines.js';

const TIMEOUT_MS = 2_000;

export function lineChanges(oldText: string, newText: string): Change[] {
  if (oldText === newText) return [];
  const a = linesWithNewlines(oldText);
  const b = linesWithNewlines(newText);
  const diff = diffArrays(a, b, { timeout: TIMEOUT_MS });
  // Past the time limit: one change from the first difference to the last.
  if (diff === undefined) return changedSpan(oldText, newText);
  const out: Change[] = [];
  let oldAt = 0;
  let newAt = 0;
  let pending: { oldStart: number; oldEnd: number; newStart: number; text: string } | null = null;
  const flush = () => {
    if (pending) out.push({ ...pending, newEnd: pending.newStart + pending.text.length });
    pending = null;
  };
  for (const part of diff) {
    const len = part.value.reduce((n, l) => n + l.length, 0);
    if (!part.added && !part.removed) {
      flush();
      oldAt += len;
      newAt += len;
      continue;
    }
    pending ??= { oldStart: oldAt, oldEnd: oldAt, newStart: newAt, text: '' };
    if (part.removed) {
      pending.oldEnd += len;
      oldAt += len;
    } else {
      pending.text += part.value.join('');
      newAt += len;
    }
  }
  flush();
  return out;
}
