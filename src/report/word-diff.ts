// What changed inside a changed line: a `-` line and the `+` line that replaces it are compared word
// by word (jsdiff's diffWordsWithSpace, where a run of spaces is a word too, so a re-indented line
// shows its indentation as the change). Used by the terminal; the HTML report has diff2html's own.
import { diffWordsWithSpace } from 'diff';

/** [start, end) in UTF-16 units of the line's text (marker excluded). */
export type Range = readonly [number, number];

export interface LinePair {
  /** Index in the hunk's `lines` of the `-` line and of the `+` line that replaces it. */
  readonly del: number;
  readonly add: number;
}

/** Lines longer than this are not compared word by word (a minified line): the whole line is the change. */
const MAX_LINE = 2_000;

/**
 * The `-`/`+` pairs of a hunk: in each block of removed lines followed by added lines, the k-th
 * removed line goes with the k-th added one (as git's diff-highlight does).
 */
export function linePairs(lines: readonly string[]): LinePair[] {
  const out: LinePair[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]![0] !== '-') {
      i += 1;
      continue;
    }
    const dels: number[] = [];
    while (i < lines.length && (lines[i]![0] === '-' || lines[i]![0] === '\\')) {
      if (lines[i]![0] === '-') dels.push(i);
      i += 1;
    }
    const adds: number[] = [];
    while (i < lines.length && (lines[i]![0] === '+' || lines[i]![0] === '\\')) {
      if (lines[i]![0] === '+') adds.push(i);
      i += 1;
    }
    for (let k = 0; k < Math.min(dels.length, adds.length); k++) out.push({ del: dels[k]!, add: adds[k]! });
  }
  return out;
}

/**
 * The changed ranges of `oldText` and `newText`, or null when emphasis would not help: the lines
 * have too little in common (every word differs) or are too long to compare.
 */
export function changedRanges(oldText: string, newText: string): { old: Range[]; new: Range[] } | null {
  if (oldText === newText || oldText.length > MAX_LINE || newText.length > MAX_LINE) return null;
  const parts = diffWordsWithSpace(oldText, newText);
  const old: Range[] = [];
  const neu: Range[] = [];
  let o = 0;
  let n = 0;
  let common = 0;
  for (const p of parts) {
    const len = p.value.length;
    if (p.added) {
      push(neu, n, n + len);
      n += len;
    } else if (p.removed) {
      push(old, o, o + len);
      o += len;
    } else {
      if (p.value.trim() !== '') common += p.value.replace(/\s+/g, '').length;
      o += len;
      n += len;
    }
  }
  // Emphasis is for a word changed in a line that otherwise stayed: when less than a third of the
  // longer line's visible characters stayed, the line as a whole is the change.
  const longest = Math.max(oldText.replace(/\s+/g, '').length, newText.replace(/\s+/g, '').length);
  if (longest > 0 && common * 3 < longest) return null;
  return { old, new: neu };
}

/** Adjacent ranges merge, so a changed run of words and spaces reads as one mark. */
function push(ranges: Range[], start: number, end: number): void {
  const last = ranges[ranges.length - 1];
  if (last !== undefined && last[1] === start) ranges[ranges.length - 1] = [last[0], end];
  else ranges.push([start, end]);
}
