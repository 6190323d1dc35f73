// Tree objects: entries of "<mode> <name>\0<20-byte oid>", sorted as git sorts them (a tree's
// name compares as if it ended in '/').
import { gitError } from './errors.js';
import { comparePaths, isValidComponent } from './paths.js';

export interface RawTreeEntry {
  /** As stored, without leading zero: '40000' for trees. */
  readonly mode: string;
  readonly name: string;
  readonly oid: string;
}

export const TREE_MODE = '40000';

export function parseTree(data: Buffer, oid: string): RawTreeEntry[] {
  const out: RawTreeEntry[] = [];
  let p = 0;
  while (p < data.length) {
    const sp = data.indexOf(0x20, p);
    const nul = sp < 0 ? -1 : data.indexOf(0, sp);
    if (nul < 0 || nul + 21 > data.length) throw gitError('corrupt', `Tree ${oid} is damaged; run \`git fsck\`.`, { oid });
    out.push({ mode: data.toString('latin1', p, sp), name: data.toString('utf8', sp + 1, nul), oid: data.toString('hex', nul + 1, nul + 21) });
    p = nul + 21;
  }
  return out;
}

function sortKey(e: RawTreeEntry): string {
  return e.mode === TREE_MODE ? `${e.name}/` : e.name;
}

export function serializeTree(entries: readonly RawTreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => comparePaths(sortKey(a), sortKey(b)));
  const parts: Buffer[] = [];
  let prev: string | null = null;
  for (const e of sorted) {
    if (!isValidComponent(e.name)) throw gitError('bad-path', `"${e.name}" cannot be a tree entry name.`, { name: e.name });
    if (e.name === prev) throw gitError('bad-path', `"${e.name}" appears twice in one tree.`, { name: e.name });
    prev = e.name;
    parts.push(Buffer.from(`${e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/** Git's canonical mode of a non-tree entry ('100664' from an old git becomes '100644'). */
export function canonicalMode(mode: string): string {
  if (mode === '120000' || mode === '160000' || mode === '100755' || mode === '100644') return mode;
  if (mode.startsWith('100')) return parseInt(mode, 8) & 0o111 ? '100755' : '100644';
  return mode;
}
