// Recursive listing of a tree: every blob, symlink and submodule, with subtrees that no prefix can
// reach left unread (a glob's static prefix like `src/` spares the rest of a large repository).
import { gitError } from './errors.js';
import { assertValidPath, comparePaths, isValidComponent } from './paths.js';
import { repoState, type Repo } from './repo.js';
import { canonicalMode, parseTree, TREE_MODE } from './tree-format.js';

export interface TreeEntry {
  /** Repo-relative POSIX path. */
  path: string;
  oid: string;
  /** '100644' | '100755' | '120000' (symlink) | '160000' (submodule). */
  mode: string;
}

export interface ListTreeOptions {
  /**
   * Path prefixes such as 'src/' or 'packages/web/'; only entries whose path starts with one of them
   * are listed, and subtrees that cannot hold such a path are not read. '' or none: everything.
   */
  prefixes?: readonly string[];
}

const sub = (path: string): string => `${path}/`;

/** Sorted by path in git's index order (UTF-8 bytes). */
export async function listTree(repo: Repo, tree: string, opts: ListTreeOptions = {}): Promise<TreeEntry[]> {
  return listTreeSync(repo, tree, opts);
}

export function listTreeSync(repo: Repo, tree: string, opts: ListTreeOptions = {}): TreeEntry[] {
  const store = repoState(repo).store;
  const prefixes = opts.prefixes && opts.prefixes.length > 0 && !opts.prefixes.includes('') ? opts.prefixes : null;
  const out: TreeEntry[] = [];
  const walk = (oid: string, dir: string): void => {
    const obj = store.read(oid);
    if (obj.type !== 'tree') throw gitError('invalid-argument', `${oid} is a ${obj.type}, not a tree.`, { oid });
    for (const e of parseTree(obj.data, oid)) {
      // A name git itself would refuse to check out must not reach the disk or the edit engine.
      if (!isValidComponent(e.name)) assertValidPath(dir + e.name);
      const path = dir + e.name;
      if (e.mode === TREE_MODE) {
        const subdir = sub(path);
        if (!prefixes || prefixes.some((p) => subdir.startsWith(p) || p.startsWith(subdir))) walk(e.oid, subdir);
      } else if (!prefixes || prefixes.some((p) => path.startsWith(p) || p.startsWith(sub(path)))) {
        // A file standing where a prefix needs a folder is listed too: a write under it would replace it.
        out.push({ path, oid: e.oid, mode: canonicalMode(e.mode) });
      }
    }
  };
  walk(tree, '');
  // A well-formed tree already yields index order (a folder sorts as "name/"); sort only if not.
  for (let i = 1; i < out.length; i++) {
    if (comparePaths((out[i - 1] as TreeEntry).path, (out[i] as TreeEntry).path) >= 0) return out.sort((a, b) => comparePaths(a.path, b.path));
  }
  return out;
}
