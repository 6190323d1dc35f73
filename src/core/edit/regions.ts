// Where a text changed, tracked while edits run. The changed spans carry their own text, so the
// current text is never rebuilt between edits: rebuilding (flattening) a 5 MB string costs ~30 ms,
// searching a flat one ~1 ms. Writing back and diffing then touch only these spans.

/**
 * A changed span: [start, end) in the current text holds `text`, which replaced [origStart, origEnd)
 * of the original. Regions are ascending and disjoint; outside them the current text is the original.
 */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly origStart: number;
  readonly origEnd: number;
  readonly text: string;
}

/** One replacement in the current text: [start, start + oldLength) becomes `text`. */
export interface Replacement {
  readonly start: number;
  readonly oldLength: number;
  readonly text: string;
}

/** A change from an old text to a new one: old[oldStart, oldEnd) became `text` at new[newStart, ...). */
export interface Change {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
  readonly text: string;
}

/**
 * Folds a batch of replacements (ascending, non-overlapping, in current coordinates) into the regions,
 * returning regions of the text after the batch. One sweep over both lists; spans that overlap or
 * touch become one region.
 */
export function mergeRegions(base: string, regions: readonly Region[], reps: readonly Replacement[]): Region[] {
  if (regions.length === 0) return fromReplacements(reps);
  const out: Region[] = [];
  let i = 0;
  let j = 0;
  let shift = 0; // growth from the replacements of earlier groups
  while (i < regions.length || j < reps.length) {
    const groupRegions: Region[] = [];
    const groupReps: Replacement[] = [];
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    for (;;) {
      const r = regions[i];
      const p = reps[j];
      const takeRegion = r !== undefined && (p === undefined || r.start <= p.start);
      const sStart = takeRegion ? r.start : p?.start;
      if (sStart === undefined || (end !== Number.NEGATIVE_INFINITY && sStart > end)) break;
      if (takeRegion) {
        groupRegions.push(r);
        end = Math.max(end, r.end);
        i++;
      } else {
        const rep = p as Replacement;
        groupReps.push(rep);
        end = Math.max(end, rep.start + rep.oldLength);
        j++;
      }
      start = Math.min(start, sStart);
    }
    // Text of [start, end) before this batch, then the batch's replacements inside it.
    const first = groupRegions[0];
    const growthBefore = first ? first.start - first.origStart : offsetBefore(regions, i - groupRegions.length);
    const before = spanText(base, groupRegions, start, end, growthBefore);
    let text = before;
    if (groupReps.length > 0) {
      const parts: string[] = [];
      let prev = 0;
      for (const rep of groupReps) {
        parts.push(before.slice(prev, rep.start - start), rep.text);
        prev = rep.start - start + rep.oldLength;
      }
      parts.push(before.slice(prev));
      text = parts.join('');
    }
    const origStart = start - growthBefore;
    const regionGrowth = groupRegions.reduce((g, r) => g + r.text.length - (r.origEnd - r.origStart), 0);
    const newStart = start + shift;
    out.push({ start: newStart, end: newStart + text.length, origStart, origEnd: origStart + (end - start) - regionGrowth, text });
    shift += text.length - before.length;
  }
  return out;
}

/** The first batch on an unchanged text: each replacement is a region, touching ones joined. */
function fromReplacements(reps: readonly Replacement[]): Region[] {
  const out: Region[] = [];
  let shift = 0;
  for (const rep of reps) {
    const last = out[out.length - 1];
    if (last && last.origEnd === rep.start) {
      const text = last.text + rep.text;
      out[out.length - 1] = { start: last.start, end: last.start + text.length, origStart: last.origStart, origEnd: rep.start + rep.oldLength, text };
    } else {
      const start = rep.start + shift;
      out.push({ start, end: start + rep.text.length, origStart: rep.start, origEnd: rep.start + rep.oldLength, text: rep.text });
    }
    shift += rep.text.length - rep.oldLength;
  }
  return out;
}

/** How much longer the current text is than the original just before regions[k]. */
function offsetBefore(regions: readonly Region[], k: number): number {
  const prev = regions[k - 1];
  return prev ? prev.end - prev.origEnd : 0;
}

/** The current text of [from, to), made of original gaps and the given regions (all inside it). */
function spanText(base: string, regions: readonly Region[], from: number, to: number, growthBefore: number): string {
  const parts: string[] = [];
  let pos = from;
  let growth = growthBefore;
  for (const r of regions) {
    if (r.start > pos) parts.push(base.slice(pos - growth, r.start - growth));
    parts.push(r.text);
    growth = r.end - r.origEnd;
    pos = r.end;
  }
  if (pos < to) parts.push(base.slice(pos - growth, to - growth));
  return parts.length === 1 ? (parts[0] as string) : parts.join('');
}

/** Regions as changes from the original text to the current one. */
export function toChanges(regions: readonly Region[]): Change[] {
  return regions.map((r) => ({ oldStart: r.origStart, oldEnd: r.origEnd, newStart: r.start, newEnd: r.end, text: r.text }));
}

/** The single change between the common prefix and suffix of two texts (none when equal): no line diff. */
export function changedSpan(oldText: string, newText: string): Change[] {
  if (oldText === newText) return [];
  const max = Math.min(oldText.length, newText.length);
  const p = commonPrefix(oldText, newText, max);
  const room = max - p;
  let s = 0;
  const CHUNK = 1024;
  // Whole chunks first: slice comparison runs in native code, far faster than a charCodeAt loop.
  while (s + CHUNK <= room && oldText.slice(oldText.length - s - CHUNK, oldText.length - s) === newText.slice(newText.length - s - CHUNK, newText.length - s)) {
    s += CHUNK;
  }
  while (s < room && oldText.charCodeAt(oldText.length - 1 - s) === newText.charCodeAt(newText.length - 1 - s)) s++;
  const newEnd = newText.length - s;
  return [{ oldStart: p, oldEnd: oldText.length - s, newStart: p, newEnd, text: newText.slice(p, newEnd) }];
}

function commonPrefix(a: string, b: string, max: number): number {
  const CHUNK = 1024;
  let p = 0;
  while (p + CHUNK <= max && a.slice(p, p + CHUNK) === b.slice(p, p + CHUNK)) p += CHUNK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/** The new text: the old one with the changes applied. */
export function applyChanges(oldText: string, changes: readonly Change[]): string {
  if (changes.length === 0) return oldText;
  const parts: string[] = [];
  let prev = 0;
  for (const c of changes) {
    parts.push(oldText.slice(prev, c.oldStart), c.text);
    prev = c.oldEnd;
  }
  parts.push(oldText.slice(prev));
  return parts.join('');
}
