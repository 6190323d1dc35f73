// Where a recipe field sits in its YAML/JSON source: the node's start as a 1-based line and column.
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { PathSegment } from './problems.js';

export interface Position {
  readonly line: number;
  readonly col: number;
}

/**
 * Walks `path` through the document as far as it exists. A missing field is reported where its parent
 * mapping starts; an unknown key (`at: 'key'`) at the key itself.
 */
export function sourcePosition(doc: Document, lines: LineCounter, path: readonly PathSegment[], at: 'key' | 'value'): Position {
  let node: unknown = doc.contents;
  let offset = startOf(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    if (isAlias(node)) node = node.resolve(doc);
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) break;
      const keyStart = startOf(pair.key);
      if (at === 'key' && i === path.length - 1 && keyStart !== undefined) return lines.linePos(keyStart);
      node = pair.value;
      // `edit:` with nothing after it: the key is the best place to point at.
      offset = startOf(node) ?? keyStart ?? offset;
      if (!node) break;
    } else if (isSeq(node) && typeof seg === 'number') {
      node = node.items[seg];
      if (!node) break;
      offset = startOf(node) ?? offset;
    } else break;
  }
  return lines.linePos(offset);
}

function startOf(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}
