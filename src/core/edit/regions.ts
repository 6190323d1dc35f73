// Where a text changed, tracked while edits run, so that writing back and diffing touch only those
// spans instead of comparing whole multi-megabyte files after every edit.

/** A changed span of the current text: [start, end) now, `origLength` code units in the original. */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly origLength: number;
}

/** One replacement in the current text: [start, start + oldLength) becomes newLength code units. */
export interface Replacement {
  readonly start: number;
  readonly oldLength: number;
  readonly newLength: number;
}

/** The same spans in both texts: outside them, old and new are identical and in the same order. */
export interface CharRegion {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

/**
 * Folds a batch of replacements (ascending, non-overlapping, in the current text's coordinates) into
 * the regions (ascending, disjoint), returning regions in the coordinates of the text after the batch.
 * One sweep: O(regions + replacements).
 */
export function mergeRegions(regions: readonly Region[], reps: readonly Replacement[]): Region[] {
  const out: Region[] = [];
  let i = 0;
  let j = 0;
  let shift = 0;
  const regionFirst = (): boolean => {
    const r = regions[i];
    const p = reps[j];
    return r !== undefined && (p === undefined || r.start <= p.start);
  };
  while (i < regions.length || j < reps.length) {
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    let regionGrowth = 0;
    let repGrowth = 0;
    // Absorb every span that overlaps or touches the group; touching spans merge too.
    for (;;) {
      const takeRegion = regionFirst();
      const s = takeRegion ? regions[i] : reps[j];
      if (s === undefined) break;
      const sStart = s.start;
      if (end !== Number.NEGATIVE_INFINITY && sStart > end) break;
      if (takeRegion) {
        const r = s as Region;
        regionGrowth += r.end - r.start - r.origLength;
        end = Math.max(end, r.end);
        i++;
      } else {
        const p = s as Replacement;
        repGrowth += p.newLength - p.oldLength;
        end = Math.max(end, p.start + p.oldLength);
        j++;
      }
      start = Math.min(start, sStart);
    }
    out.push({ start: start + shift, end: end + shift + repGrowth, origLength: end - start - regionGrowth });
    shift += repGrowth;
  }
  return out;
}

/** Regions of the final text, expressed in both the original and the final text. */
export function toCharRegions(regions: readonly Region[]): CharRegion[] {
  let growth = 0;
  return regions.map((r) => {
    const oldStart = r.start - growth;
    growth += r.end - r.start - r.origLength;
    return { oldStart, oldEnd: oldStart + r.origLength, newStart: r.start, newEnd: r.end };
  });
}

/** The single region between the common prefix and suffix of two texts (none when equal). */
export function diffRegion(oldText: string, newText: string): CharRegion[] {
  if (oldText === newText) return [];
  const max = Math.min(oldText.length, newText.length);
  let p = commonPrefix(oldText, newText, max);
  let s = 0;
  // Compare from the end in chunks too; never let prefix and suffix overlap.
  const room = max - p;
  const CHUNK = 1024;
  while (s + CHUNK <= room && oldText.slice(oldText.length - s - CHUNK, oldText.length - s) === newText.slice(newText.length - s - CHUNK, newText.length - s)) {
    s += CHUNK;
  }
  while (s < room && oldText.charCodeAt(oldText.length - 1 - s) === newText.charCodeAt(newText.length - 1 - s)) s++;
  if (p > max) p = max;
  return [{ oldStart: p, oldEnd: oldText.length - s, newStart: p, newEnd: newText.length - s }];
}

function commonPrefix(a: string, b: string, max: number): number {
  const CHUNK = 1024;
  let p = 0;
  // Whole chunks first: slice comparison runs in native code, far faster than a charCodeAt loop.
  while (p + CHUNK <= max && a.slice(p, p + CHUNK) === b.slice(p, p + CHUNK)) p += CHUNK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}
