// The current text of an edit sequence: the original (flat) string plus changed regions. Searching
// it costs one indexOf pass over the original and a look at small windows around each region,
// instead of rebuilding a multi-megabyte string after every edit.
import { mergeRegions, type Region, type Replacement } from './regions.js';

export interface PieceText {
  readonly base: string;
  readonly regions: readonly Region[];
  readonly length: number;
}

export function pieceText(base: string): PieceText {
  return { base, regions: [], length: base.length };
}

export function replaceIn(t: PieceText, reps: readonly Replacement[]): PieceText {
  const regions = mergeRegions(t.base, t.regions, reps);
  const growth = reps.reduce((g, r) => g + r.text.length - r.oldLength, 0);
  return { base: t.base, regions, length: t.length + growth };
}

/** The current text of [from, to) (all of it by default). */
export function textOf(t: PieceText, from = 0, to = t.length): string {
  if (t.regions.length === 0) return from === 0 && to === t.base.length ? t.base : t.base.slice(from, to);
  const parts: string[] = [];
  let pos = from;
  let k = firstRegionEndingAfter(t.regions, from);
  let growth = k > 0 ? offsetAfter(t.regions[k - 1] as Region) : 0;
  for (; k < t.regions.length && pos < to; k++) {
    const r = t.regions[k] as Region;
    if (r.start > pos) parts.push(t.base.slice(pos - growth, Math.min(r.start, to) - growth));
    if (r.start < to) parts.push(r.text.slice(Math.max(0, pos - r.start), Math.min(r.text.length, to - r.start)));
    pos = Math.max(pos, r.end);
    growth = offsetAfter(r);
  }
  if (pos < to) parts.push(t.base.slice(pos - growth, to - growth));
  return parts.join('');
}

export function charCodeAt(t: PieceText, pos: number): number {
  const k = firstRegionEndingAfter(t.regions, pos);
  const r = t.regions[k];
  if (r && r.start <= pos) return r.text.charCodeAt(pos - r.start);
  const prev = t.regions[k - 1];
  return t.base.charCodeAt(pos - (prev ? offsetAfter(prev) : 0));
}

/**
 * Start offsets of the non-overlapping occurrences of `s`, left to right, exactly as an indexOf
 * loop over the current text would find them.
 */
export function findAllIn(t: PieceText, s: string): number[] {
  if (s === '') return [];
  if (t.regions.length === 0) {
    const out: number[] = [];
    for (let i = t.base.indexOf(s); i !== -1; i = t.base.indexOf(s, i + s.length)) out.push(i);
    return out;
  }
  return greedy(mergeSorted(inGaps(t, s), nearRegions(t, s)), s.length);
}

/** Occurrences in the original that no region touches, at their current offsets. Overlapping ones too. */
function inGaps(t: PieceText, s: string): number[] {
  const out: number[] = [];
  const regions = t.regions;
  let k = 0;
  for (let p = t.base.indexOf(s); p !== -1; p = t.base.indexOf(s, p + 1)) {
    while (k < regions.length && (regions[k] as Region).origEnd <= p) k++;
    const r = regions[k];
    // Overlaps r, or straddles the point where r's original text was (a pure insertion).
    if (r && r.origStart < p + s.length) continue;
    const prev = regions[k - 1];
    out.push(p + (prev ? offsetAfter(prev) : 0));
  }
  return out;
}

/** Occurrences that include region text, or span a point where text was deleted. */
function nearRegions(t: PieceText, s: string): number[] {
  const out: number[] = [];
  const reach = s.length - 1;
  const regions = t.regions;
  for (let k = 0; k < regions.length;) {
    // One window for a run of regions whose windows overlap.
    const first = k;
    let to = Math.min(t.length, (regions[k] as Region).end + reach);
    while (k + 1 < regions.length && (regions[k + 1] as Region).start - reach <= to) {
      k++;
      to = Math.min(t.length, (regions[k] as Region).end + reach);
    }
    const from = Math.max(0, (regions[first] as Region).start - reach);
    const window = textOf(t, from, to);
    for (let q = window.indexOf(s); q !== -1; q = window.indexOf(s, q + 1)) {
      const p = from + q;
      if (touchesRegion(regions, first, k, p, p + s.length)) out.push(p);
    }
    k++;
  }
  return out;
}

function touchesRegion(regions: readonly Region[], first: number, last: number, a: number, b: number): boolean {
  for (let k = first; k <= last; k++) {
    const r = regions[k] as Region;
    // For a deletion (start === end) this reads: the occurrence spans the point where text was removed.
    if (a < r.end && b > r.start) return true;
  }
  return false;
}

function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] as number) <= (b[j] as number))) out.push(a[i++] as number);
    else out.push(b[j++] as number);
  }
  return out;
}

function greedy(starts: readonly number[], length: number): number[] {
  const out: number[] = [];
  let free = 0;
  for (const p of starts) {
    if (p >= free) {
      out.push(p);
      free = p + length;
    }
  }
  return out;
}

/** How much longer the current text is than the original after region r. */
function offsetAfter(r: Region): number {
  return r.end - r.origEnd;
}

/** Index of the first region whose end is after pos (binary search); regions.length if none. */
function firstRegionEndingAfter(regions: readonly Region[], pos: number): number {
  let lo = 0;
  let hi = regions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((regions[mid] as Region).end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
