// Questions about the syntax tree that the layout merge and the indentation of values ask, answered
// by walking down from a node through the children that overlap a span only: a few napi calls each,
// never a walk over the whole file.
import type { SgNode } from './napi.js';

export interface Span {
  readonly start: number;
  readonly end: number;
}

export function spanOf(node: SgNode): Span {
  const r = node.range();
  return { start: r.start.index, end: r.end.index };
}

/** A node overlaps [a, b) when it shares a character with it, or (a == b) holds the point strictly inside. */
function overlaps(s: Span, a: number, b: number): boolean {
  return a === b ? s.start < a && a < s.end : s.start < b && a < s.end;
}

/** Does [a, b) overlap the inside of a leaf (a string's content, say) under `from`? */
export function insideLeaf(from: SgNode, a: number, b: number): boolean {
  let node = from;
  for (;;) {
    let next: SgNode | undefined;
    for (const kid of node.children()) {
      const s = spanOf(kid);
      if (s.start >= b) break;
      if (overlaps(s, a, b)) {
        next = kid;
        break;
      }
    }
    if (next === undefined) return false;
    if (next.isLeaf()) return true;
    node = next;
  }
}

const isComment = (n: SgNode): boolean => String(n.kind()).toLowerCase().includes('comment');

/** Is every node overlapping [a, b) under `from` a comment? */
export function onlyComments(from: SgNode, a: number, b: number): boolean {
  let saw = false;
  const visit = (node: SgNode): boolean => {
    for (const kid of node.children()) {
      const s = spanOf(kid);
      if (s.start >= b) break;
      if (!overlaps(s, a, b)) continue;
      if (isComment(kid)) {
        saw = true;
        continue;
      }
      if (kid.isLeaf() || (s.start >= a && s.end <= b)) return false;
      if (!visit(kid)) return false;
    }
    return true;
  };
  return visit(from) && saw;
}

/**
 * Offsets of the line breaks inside multi-line leaves other than comments (template literals,
 * multi-line strings) under the nodes given: lines after them are content, never re-indented.
 */
export function frozenBreaks(nodes: readonly SgNode[], text: string): number[] {
  const out: number[] = [];
  const visit = (node: SgNode): void => {
    const r = node.range();
    if (r.start.line === r.end.line) return;
    if (node.isLeaf()) {
      if (isComment(node)) return;
      for (let i = text.indexOf('\n', r.start.index); i !== -1 && i < r.end.index; i = text.indexOf('\n', i + 1)) out.push(i);
      return;
    }
    for (const kid of node.children()) visit(kid);
  };
  for (const n of nodes) visit(n);
  return out;
}

/**
 * Syntax errors where a rewrite could have made them: an ERROR node anywhere, or a "missing" node
 * (tree-sitter repairs `foo(1;` with an invisible `)`, a zero-width leaf, and no ERROR node) in the
 * top-level nodes that overlap `spans` or follow one. That is where a fix can make the parser invent
 * a token; searching every node's text for emptiness would cost a third of a parse per file.
 */
export function hasSyntaxError(root: SgNode, spans: readonly Span[]): boolean {
  if (root.find({ rule: { kind: 'ERROR' } }) !== null) return true;
  const tops = root.children();
  const seen = new Set<number>();
  for (const s of spans) {
    const first = firstEndingAfter(tops, s.start);
    const last = Math.min(tops.length - 1, first + countStartingBefore(tops, first, s.end) + 1);
    for (let k = first; k <= last; k++) seen.add(k);
  }
  for (const k of seen) {
    const top = tops[k] as SgNode;
    const r = spanOf(top);
    if (r.start === r.end) return true;
    for (const n of top.findAll({ rule: { regex: '^$' } })) if (n.isLeaf()) return true;
  }
  return false;
}

/** Index of the first top-level node ending after `at` (the node holding `at`, or the one after it). */
function firstEndingAfter(tops: readonly SgNode[], at: number): number {
  let lo = 0;
  let hi = tops.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spanOf(tops[mid] as SgNode).end <= at) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(0, Math.min(lo, tops.length - 1));
}

/** How many nodes from `from` on start before `end` (besides the first). */
function countStartingBefore(tops: readonly SgNode[], from: number, end: number): number {
  let n = 0;
  for (let k = from + 1; k < tops.length && spanOf(tops[k] as SgNode).start < end; k++) n++;
  return n;
}
