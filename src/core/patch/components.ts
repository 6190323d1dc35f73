// A whole-file line diff as jsdiff components, computed only where the text changed: unchanged
// stretches between changed regions stay as ranges of the old text and are never split into lines.
import { diffArrays } from 'diff';
import { DIFF_TIMEOUT_MS } from '../limits.js';
import type { CharRegion } from '../edit/regions.js';
import { countLines, headLines, splitLines, tailLines } from './lines.js';

/** Equal lines: given, or a range of the old text that is only split into lines if context needs it. */
type Part = { readonly lines: readonly string[] } | { readonly start: number; readonly end: number };

export type Component =
  | { readonly kind: 'equal'; readonly parts: Part[]; count: number }
  | { readonly kind: 'removed' | 'added'; readonly lines: readonly string[] };

export function equalHead(text: string, c: Component & { kind: 'equal' }, k: number): string[] {
  const out: string[] = [];
  for (const part of c.parts) {
    if (out.length >= k) break;
    if ('lines' in part) out.push(...part.lines.slice(0, k - out.length));
    else out.push(...headLines(text, part.start, part.end, k - out.length));
  }
  return out;
}

export function equalTail(text: string, c: Component & { kind: 'equal' }, k: number): string[] {
  const out: string[] = [];
  for (let i = c.parts.length - 1; i >= 0 && out.length < k; i--) {
    const part = c.parts[i] as Part;
    const want = k - out.length;
    const got = 'lines' in part ? part.lines.slice(Math.max(0, part.lines.length - want)) : tailLines(text, part.start, part.end, want);
    out.unshift(...got);
  }
  return out;
}

/** When one region's alignment gives up (jsdiff returns undefined), it is shown replaced wholesale. */
export interface DiffLimits {
  readonly timeout: number;
  readonly maxEditLength?: number;
}

/** Components for old → new, given regions outside which the two texts are identical. */
export function diffComponents(
  oldText: string,
  newText: string,
  regions: readonly CharRegion[],
  limits: DiffLimits = { timeout: DIFF_TIMEOUT_MS },
): Component[] {
  const out: Component[] = [];
  const equal = (part: Part, count: number): void => {
    if (count === 0) return;
    const last = out[out.length - 1];
    if (last?.kind === 'equal') {
      last.parts.push(part);
      last.count += count;
    } else out.push({ kind: 'equal', parts: [part], count });
  };
  let prev = 0;
  for (const r of toLineRegions(oldText, newText, regions)) {
    equal({ start: prev, end: r.oldStart }, countLines(oldText, prev, r.oldStart));
    diffRegion(splitLines(oldText.slice(r.oldStart, r.oldEnd)), splitLines(newText.slice(r.newStart, r.newEnd)), out, equal, limits);
    prev = r.oldEnd;
  }
  equal({ start: prev, end: oldText.length }, countLines(oldText, prev, oldText.length));
  return out;
}

function diffRegion(
  oldLines: string[],
  newLines: string[],
  out: Component[],
  equal: (p: Part, n: number) => void,
  limits: DiffLimits,
): void {
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  const lead = oldLines.slice(0, head);
  equal({ lines: lead }, lead.length);
  const oldMid = oldLines.slice(head, oldLines.length - tail);
  const newMid = newLines.slice(head, newLines.length - tail);
  if (oldMid.length <= 1 || newMid.length <= 1) {
    // Nothing to align: one side is empty, or a single line that differs from every line beside it
    // can only be aligned trivially. Skipping Myers here keeps 100,000 one-line changes cheap.
    const at = oldMid.length === 1 ? newMid.indexOf(oldMid[0] as string) : newMid.length === 1 ? oldMid.indexOf(newMid[0] as string) : -1;
    if (at === -1) {
      if (oldMid.length > 0) out.push({ kind: 'removed', lines: oldMid });
      if (newMid.length > 0) out.push({ kind: 'added', lines: newMid });
    } else if (oldMid.length === 1) {
      if (at > 0) out.push({ kind: 'added', lines: newMid.slice(0, at) });
      equal({ lines: oldMid }, 1);
      if (at < newMid.length - 1) out.push({ kind: 'added', lines: newMid.slice(at + 1) });
    } else {
      if (at > 0) out.push({ kind: 'removed', lines: oldMid.slice(0, at) });
      equal({ lines: newMid }, 1);
      if (at < oldMid.length - 1) out.push({ kind: 'removed', lines: oldMid.slice(at + 1) });
    }
  } else {
    const changes = diffArrays(oldMid, newMid, { ...limits });
    if (changes === undefined) {
      // Too slow to align: show the region as replaced wholesale rather than hang.
      out.push({ kind: 'removed', lines: oldMid }, { kind: 'added', lines: newMid });
    } else {
      for (const c of changes) {
        if (c.added) out.push({ kind: 'added', lines: c.value });
        else if (c.removed) out.push({ kind: 'removed', lines: c.value });
        else equal({ lines: c.value }, c.value.length);
      }
    }
  }
  const trail = oldLines.slice(oldLines.length - tail);
  equal({ lines: trail }, trail.length);
}

/** Regions widened to whole lines on both sides, merged where they touch. */
function toLineRegions(oldText: string, newText: string, regions: readonly CharRegion[]): CharRegion[] {
  const out: CharRegion[] = [];
  for (const r of regions) {
    const oldStart = r.oldStart === 0 ? 0 : oldText.lastIndexOf('\n', r.oldStart - 1) + 1;
    const newStart = r.newStart - (r.oldStart - oldStart);
    const oldAtBoundary = r.oldEnd === oldStart || oldText.charCodeAt(r.oldEnd - 1) === 10;
    const newAtBoundary = r.newEnd === newStart || newText.charCodeAt(r.newEnd - 1) === 10;
    let grow = 0;
    if (!(oldAtBoundary && newAtBoundary)) {
      // The texts agree after the region, so the distance to the next line break is the same in both.
      const nl = oldText.indexOf('\n', r.oldEnd);
      grow = nl === -1 ? oldText.length - r.oldEnd : nl + 1 - r.oldEnd;
    }
    const line = { oldStart, oldEnd: r.oldEnd + grow, newStart, newEnd: r.newEnd + grow };
    const last = out[out.length - 1];
    if (last && line.oldStart <= last.oldEnd) out[out.length - 1] = {
        oldStart: last.oldStart,
        oldEnd: Math.max(last.oldEnd, line.oldEnd),
        newStart: last.newStart,
        newEnd: Math.max(last.newEnd, line.newEnd),
      };
    else out.push(line);
  }
  return out;
}
