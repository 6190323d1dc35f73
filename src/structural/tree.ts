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
 * Syntax errors: an ERROR node, or a "missing" node tree-sitter invented to repair the input (`foo(1;`
 * gets an invisible `)`): a zero-width leaf. One traversal finds both; only an empty file's root has
 * no text otherwise.
 */
export function hasSyntaxError(root: SgNode): boolean {
  for (const n of root.findAll({ rule: { any: [{ kind: 'ERROR' }, { regex: '^$' }] } })) {
    if (String(n.kind()) === 'ERROR' || (n.isLeaf() && n.parent() !== null)) return true;
  }
  return false;
}
