// A new tree from a base tree and a set of path changes. Only the trees on the way to a changed
// path are read and written again; every other subtree is reused by oid, so a 100-file change in
// a 30k-file repository writes a few dozen objects.
import { gitPathProblem } from '../core/git-path.js';
import { gitError } from './errors.js';
import { EMPTY_TREE, hashObject } from './hash.js';
import { assertValidPath } from './paths.js';
import { repoState, type Repo } from './repo.js';
import { parseTree, serializeTree, TREE_MODE, type RawTreeEntry } from './tree-format.js';
import type { ObjectStore } from './object-store.js';
import type { RawObject } from './pack.js';

type TreeStore = Pick<ObjectStore, 'read' | 'has' | 'write'>;

/** Objects a dry run made but did not write, by oid. */
export type DryRunObjects = Map<string, RawObject>;

export type TreeChange = { readonly oid: string; readonly mode: string } | null;

const FILE_MODES = new Set(['100644', '100755', '120000', '160000']);

interface Node {
  readonly files: Map<string, TreeChange>;
  readonly dirs: Map<string, Node>;
}

/**
 * Base tree with these paths set (or removed, for null). Missing directories are created; a
 * directory left empty disappears. Untouched entries keep their mode and oid.
 */
export async function writeTreeWith(
  repo: Repo,
  baseTree: string,
  changes: ReadonlyMap<string, TreeChange>,
  opts: { readonly dryRun?: DryRunObjects } = {},
): Promise<string> {
  const real = repoState(repo).store;
  const memory = opts.dryRun;
  // A dry run computes the same oids without writing (.git must stay byte-identical); the trees it
  // makes are kept in memory so a later call can build on them.
  const store: TreeStore = memory
    ? {
        read: (oid) => memory.get(oid) ?? real.read(oid),
        has: () => true,
        write: (type, content) => {
          const oid = hashObject(type, content);
          memory.set(oid, { type, data: Buffer.from(content) });
          return oid;
        },
      }
    : real;
  const root = buildTrie(changes);
  return rebuild(store, baseTree, root) ?? store.write('tree', Buffer.alloc(0));
}

function buildTrie(changes: ReadonlyMap<string, TreeChange>): Node {
  const root: Node = { files: new Map(), dirs: new Map() };
  for (const [path, change] of changes) {
    assertValidPath(path);
    // Last line of defence behind core/check-path: nothing git's fsck refuses enters a tree.
    const refused = change === null ? null : gitPathProblem(path, change.mode);
    if (refused !== null) throw gitError('bad-path', `"${path}" is not a path git accepts in a tree: ${refused}.`, { path });
    if (change && !FILE_MODES.has(change.mode)) {
      throw gitError('invalid-argument', `Mode ${change.mode} of ${path} is not a file mode (100644, 100755, 120000, 160000).`, { path });
    }
    const parts = path.split('/');
    const name = parts.pop() as string;
    let node = root;
    for (const part of parts) {
      let next = node.dirs.get(part);
      if (!next) node.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
      node = next;
    }
    node.files.set(name, change);
  }
  return root;
}

/** The new oid of this tree, or null when it ends up empty. */
function rebuild(store: TreeStore, treeOid: string | null, node: Node): string | null {
  const entries = new Map<string, RawTreeEntry>();
  if (treeOid !== null && treeOid !== EMPTY_TREE) {
    const obj = store.read(treeOid);
    if (obj.type !== 'tree') throw gitError('invalid-argument', `${treeOid} is a ${obj.type}, not a tree.`, { oid: treeOid });
    for (const e of parseTree(obj.data, treeOid)) entries.set(e.name, e);
  }
  for (const [name, change] of node.files) {
    const sub = node.dirs.get(name);
    if (sub && change !== null && hasSets(sub)) {
      throw gitError('bad-path', `"${name}" cannot be both a file and a folder in one change set.`, { name });
    }
    if (change === null) {
      entries.delete(name);
      continue;
    }
    // A submodule's commit lives in another repository; anything else must be here already.
    if (change.mode !== '160000' && !store.has(change.oid)) {
      throw gitError('missing-object', `Object ${change.oid} for "${name}" is not in the repository; write the blob first.`, { oid: change.oid });
    }
    entries.set(name, { name, mode: change.mode, oid: change.oid });
  }
  for (const [name, sub] of node.dirs) {
    const existing = entries.get(name);
    const isTree = existing?.mode === TREE_MODE;
    // Only removals below a path that is a file (or nothing): there is nothing to remove.
    if (!isTree && !hasSets(sub)) continue;
    const oid = rebuild(store, isTree ? (existing as RawTreeEntry).oid : null, sub);
    if (oid === null) entries.delete(name);
    else entries.set(name, { name, mode: TREE_MODE, oid });
  }
  if (entries.size === 0) return null;
  return store.write('tree', serializeTree([...entries.values()]));
}

function hasSets(node: Node): boolean {
  for (const c of node.files.values()) if (c !== null) return true;
  for (const d of node.dirs.values()) if (hasSets(d)) return true;
  return false;
}
