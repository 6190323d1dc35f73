// Does the rewritten file still parse? Parsing the whole result again costs as much as the first
// parse; most rewrites touch a few top-level constructs of a file. So the changed top-level nodes,
// with one unchanged neighbour on each side (a removed `;` can glue two statements), are parsed on
// their own, before and after: when the original piece parses cleanly on its own, the new piece
// must too. When the original piece does not (it needs its context: an IIFE-wrapped module is one
// top-level node, a method is not a program), the whole result is parsed instead.
import type { Change } from '../core/edit/regions.js';
import type { Napi, SgNode } from './napi.js';
import { hasSyntaxError, spanOf, type Span } from './tree.js';

export type Verdict = 'parses' | 'broken';

export function resultVerdict(napi: Napi, language: string, originalRoot: SgNode, original: string, result: string, changes: readonly Change[]): Verdict {
  const pieces = piecesFor(originalRoot, changes);
  if (pieces !== null && pieces.every((p) => clean(napi, language, original.slice(p.start, p.end)))) {
    const broken = pieces.some((p) => !clean(napi, language, result.slice(newOffset(changes, p.start), newOffset(changes, p.end))));
    return broken ? 'broken' : 'parses';
  }
  const spans = changes.map((c) => ({ start: c.newStart, end: c.newEnd }));
  return hasSyntaxError(napi.parse(language as never, result).root(), spans) ? 'broken' : 'parses';
}

function clean(napi: Napi, language: string, text: string): boolean {
  return !hasSyntaxError(napi.parse(language as never, text).root(), [{ start: 0, end: text.length }]);
}

/** Runs of top-level nodes (original offsets) that hold or touch a change, widened by a neighbour each way. */
function piecesFor(root: SgNode, changes: readonly Change[]): Span[] | null {
  const tops = root.children().map(spanOf);
  if (tops.length < 2) return null;
  // Both lists are in file order: one sweep marks the top-level nodes each change overlaps or touches.
  const hit = new Set<number>();
  let k = 0;
  for (const c of changes) {
    while (k < tops.length && (tops[k] as Span).end < c.oldStart) k++;
    let any = false;
    for (let j = k; j < tops.length && (tops[j] as Span).start <= c.oldEnd; j++) {
      hit.add(j);
      any = true;
    }
    // A change between top-level nodes (not touching any): only the whole file tells.
    if (!any) return null;
  }
  const marked = new Set<number>();
  for (const k of hit) for (const n of [k - 1, k, k + 1]) if (n >= 0 && n < tops.length) marked.add(n);
  // A piece that is most of the file saves nothing: parse the whole result instead.
  if (marked.size * 2 > tops.length + 1) return null;
  const order = [...marked].sort((a, b) => a - b);
  const pieces: Span[] = [];
  for (const k of order) {
    const t = tops[k] as Span;
    const last = pieces[pieces.length - 1];
    if (last && marked.has(k - 1)) pieces[pieces.length - 1] = { start: last.start, end: t.end };
    else pieces.push({ start: t.start, end: t.end });
  }
  // Pieces are parsed twice (before and after): past half the file's length that costs more than
  // parsing the whole result once (a bundle wrapped in one function is one top-level node of nearly
  // all of it: 3 MB parsed twice more took ~1.2 s).
  const length = pieces.reduce((n, p) => n + p.end - p.start, 0);
  const whole = spanOf(root);
  if (length * 2 > whole.end - whole.start) return null;
  return pieces;
}

/** Where an original offset outside every change lands in the result. */
function newOffset(changes: readonly Change[], at: number): number {
  let shift = 0;
  for (const c of changes) {
    if (c.oldStart >= at) break;
    shift = c.newEnd - c.oldEnd;
  }
  return at + shift;
}
