// A whole-file line diff as jsdiff components, computed only where the text changed: unchanged
// stretches between changed regions stay as ranges of the old text and are never split into lines.
import { DIFF_TIMEOUT_MS } from '../limits.js';
import type { Change } from '../edit/regions.js';
import { alignLines, type Limits } from './align.js';
import { countLines, headLines, linesWithNewlines, tailLines } from './lines.js';

/** Equal lines: given, or a range of the old text that is only split into lines if context needs it. */
type Part = { readonly lines: readonly string[] } | { readonly start: number; readonly end: number };

export type Component = { readonly kind: 'equal'; readonly parts: Part[]; count: number } | { readonly kind: 'removed' | 'added'; readonly lines: string[] };

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
export type DiffLimits = Limits;

/** Components for the changes to oldText; the new text is never built, only its changed lines. */
export function diffComponents(oldText: string, changes: readonly Change[], limits: DiffLimits = { timeout: DIFF_TIMEOUT_MS }): Component[] {
  const out: Component[] = [];
  const equal = (part: Part, count: number): void => {
    if (count === 0) return;
    const last = out[out.length - 1];
    if (last?.kind === 'equal') {
      last.parts.push(part);
      last.count += count;
    } else out.push({ kind: 'equal', parts: [part], count });
  };
  const change = (kind: 'removed' | 'added', lines: readonly string[]): void => pushChange(out, kind, lines);
  let prev = 0;
  for (const r of toLineRegions(oldText, changes)) {
    equal({ start: prev, end: r.oldStart }, countLines(oldText, prev, r.oldStart));
    alignRegion(linesWithNewlines(oldText.slice(r.oldStart, r.oldEnd)), linesWithNewlines(newSegment(oldText, r)), equal, change, limits);
    prev = r.oldEnd;
  }
  equal({ start: prev, end: oldText.length }, countLines(oldText, prev, oldText.length));
  return out;
}

/**
 * Adjacent regions (changes on consecutive lines) are aligned separately, which keeps 100,000
 * one-line changes linear; their blocks are then joined as jsdiff shows one: removals, then additions.
 */
function pushChange(out: Component[], kind: 'removed' | 'added', lines: readonly string[]): void {
  if (lines.length === 0) return;
  const last = out[out.length - 1];
  const beforeLast = out[out.length - 2];
  // Appends in place: copying the growing block on every line would be quadratic.
  if (last?.kind === kind) append(last.lines, lines);
  else if (kind === 'removed' && last?.kind === 'added') {
    if (beforeLast?.kind === 'removed') append(beforeLast.lines, lines);
    else out.splice(out.length - 1, 0, { kind, lines: [...lines] });
  } else out.push({ kind, lines: [...lines] });
}

function append(to: string[], lines: readonly string[]): void {
  for (const line of lines) to.push(line);
}

/** One region's lines as equal, removed and added components: common head and tail, the middle aligned. */
function alignRegion(
  oldLines: string[],
  newLines: string[],
  equal: (p: Part, n: number) => void,
  change: (kind: 'removed' | 'added', lines: readonly string[]) => void,
  limits: DiffLimits,
): void {
  if (oldLines.length === 1 && newLines.length === 1) {
    // The common case of a one-line change: nothing to align.
    if (oldLines[0] === newLines[0]) equal({ lines: oldLines }, 1);
    else {
      change('removed', oldLines);
      change('added', newLines);
    }
    return;
  }
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (tail < oldLines.length - head && tail < newLines.length - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) {
    tail++;
  }
  const lead = oldLines.slice(0, head);
  equal({ lines: lead }, lead.length);
  const oldMid = oldLines.slice(head, oldLines.length - tail);
  const newMid = newLines.slice(head, newLines.length - tail);
  if (oldMid.length <= 1 || newMid.length <= 1) {
    // Nothing to align: one side is empty, or a single line sits somewhere in the other side or
    // nowhere. Skipping Myers here keeps many one-line changes cheap.
    const at = oldMid.length === 1 ? newMid.indexOf(oldMid[0] as string) : newMid.length === 1 ? oldMid.indexOf(newMid[0] as string) : -1;
    if (at === -1) {
      change('removed', oldMid);
      change('added', newMid);
    } else if (oldMid.length === 1) {
      change('added', newMid.slice(0, at));
      equal({ lines: oldMid }, 1);
      change('added', newMid.slice(at + 1));
    } else {
      change('removed', oldMid.slice(0, at));
      equal({ lines: newMid }, 1);
      change('removed', oldMid.slice(at + 1));
    }
  } else {
    const ops = alignLines(oldMid, newMid, limits);
    if (ops === undefined) {
      // Too slow to align: show the region as replaced wholesale rather than hang.
      change('removed', oldMid);
      change('added', newMid);
    } else {
      for (const op of ops) {
        if (op.kind === 'equal') equal({ lines: op.lines }, op.lines.length);
        else change(op.kind, op.lines);
      }
    }
  }
  const trail = oldLines.slice(oldLines.length - tail);
  equal({ lines: trail }, trail.length);
}

/** Changes widened to whole lines; changes whose lines overlap share one region. */
interface LineRegion {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly changes: readonly Change[];
}

function toLineRegions(oldText: string, changes: readonly Change[]): LineRegion[] {
  const out: LineRegion[] = [];
  for (const c of changes) {
    const oldStart = c.oldStart === 0 ? 0 : oldText.lastIndexOf('\n', c.oldStart - 1) + 1;
    const oldAtBoundary = c.oldEnd > c.oldStart ? oldText.charCodeAt(c.oldEnd - 1) === 10 : c.oldStart === oldStart;
    const newAtBoundary = c.text.length > 0 ? c.text.endsWith('\n') : c.oldStart === oldStart;
    let oldEnd = c.oldEnd;
    if (!(oldAtBoundary && newAtBoundary)) {
      // The texts agree after the change, so the rest of its last line is the same on both sides.
      const nl = oldText.indexOf('\n', c.oldEnd);
      oldEnd = nl === -1 ? oldText.length : nl + 1;
    }
    const last = out[out.length - 1];
    if (last && oldStart < last.oldEnd) out[out.length - 1] = { oldStart: last.oldStart, oldEnd: Math.max(last.oldEnd, oldEnd), changes: [...last.changes, c] };
    else out.push({ oldStart, oldEnd, changes: [c] });
  }
  return out;
}

/** The new text of a line region: its old lines with its changes applied. */
function newSegment(oldText: string, r: LineRegion): string {
  const only = r.changes.length === 1 ? r.changes[0] : undefined;
  if (only) return oldText.slice(r.oldStart, only.oldStart) + only.text + oldText.slice(only.oldEnd, r.oldEnd);
  const parts: string[] = [];
  let pos = r.oldStart;
  for (const c of r.changes) {
    parts.push(oldText.slice(pos, c.oldStart), c.text);
    pos = c.oldEnd;
  }
  parts.push(oldText.slice(pos, r.oldEnd));
  return parts.join('');
}
