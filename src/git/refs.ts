// Reading refs in git's "files" format: loose files under the git dirs, then packed-refs.
// Per-worktree refs (HEAD, pseudo-refs like ORIG_HEAD, refs/bisect/…, refs/worktree/…,
// refs/rewritten/…) live in the worktree's own git dir; all others in the common dir.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gitError } from './errors.js';
import { isOid } from './hash.js';
import { repoState, type Repo } from './repo.js';

const PER_WORKTREE = /^(?:[A-Z][A-Z0-9_]*|refs\/(?:bisect|worktree|rewritten)\/.+)$/;

/** The file a loose ref lives in, for the checkout `gitDir` belongs to. */
export function refPath(repo: Repo, ref: string, gitDir = repo.gitDir): string {
  return join(PER_WORKTREE.test(ref) ? gitDir : repo.commonDir, ref);
}

/** What a loose ref file holds: an oid, a symbolic target, or nothing (no file). */
export type LooseRef = { readonly oid: string } | { readonly symbolic: string } | null;

export function readLooseRef(path: string): LooseRef {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const t = text.trim();
  if (t.startsWith('ref:')) return { symbolic: t.slice(4).trim() };
  const oid = t.slice(0, 40);
  if (!isOid(oid)) throw gitError('corrupt', `${path} does not hold an object id; check it with \`git show-ref\`.`, { path });
  return { oid };
}

/** refs/… → oid from packed-refs, re-read only when the file changed. */
export function packedRefs(repo: Repo): ReadonlyMap<string, string> {
  const state = repoState(repo);
  const path = join(repo.commonDir, 'packed-refs');
  const st = statSync(path, { throwIfNoEntry: false, bigint: true });
  const stamp = st ? `${st.mtimeNs}:${st.size}:${st.ino}` : 'none';
  if (state.packedRefs?.stamp === stamp) return state.packedRefs.refs;
  const refs = new Map<string, string>();
  if (st) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      // '#' is the header, '^' the peeled value of the tag on the line before.
      if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
      const oid = line.slice(0, 40);
      if (isOid(oid) && line[40] === ' ') refs.set(line.slice(41).trim(), oid);
    }
  }
  state.packedRefs = { stamp, refs };
  return refs;
}

/**
 * A full ref name (refs/heads/x, HEAD, ORIG_HEAD) → the oid it points at, following symbolic refs;
 * null when it does not exist (or is an unborn branch). `gitDir` picks the checkout for HEAD.
 */
export async function readRef(repo: Repo, ref: string): Promise<string | null> {
  return readRefSync(repo, ref);
}

export function readRefSync(repo: Repo, ref: string, gitDir = repo.gitDir): string | null {
  let name = ref;
  for (let depth = 0; depth < 6; depth++) {
    const loose = readLooseRef(refPath(repo, name, gitDir));
    if (loose && 'oid' in loose) return loose.oid;
    if (loose) {
      name = loose.symbolic;
      continue;
    }
    return name.startsWith('refs/') ? (packedRefs(repo).get(name) ?? null) : null;
  }
  throw gitError('corrupt', `${ref} is a chain of symbolic refs too deep to follow.`, { ref });
}

/** The value of a ref as stored (loose first, then packed), without following a symbolic ref. */
export function currentValue(repo: Repo, ref: string): LooseRef {
  const loose = readLooseRef(refPath(repo, ref));
  if (loose) return loose;
  const packed = packedRefs(repo).get(ref);
  return packed ? { oid: packed } : null;
}

/** The repository's branches (short names, loose and packed), sorted; locks and names git would refuse are left out. */
export function listBranches(repo: Repo): string[] {
  return listRefs(repo, 'refs/heads/');
}

/**
 * The refs under `namespace` (`refs/heads/`, `refs/remotes/origin/`), by their names after it, loose and
 * packed, sorted; locks and names git would refuse are left out.
 */
export function listRefs(repo: Repo, namespace: string): string[] {
  const names = new Set<string>();
  const walk = (dir: string, prefix: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const name = `${prefix}${e.name}`;
      if (e.isDirectory()) walk(join(dir, e.name), `${name}/`);
      else if (e.isFile() && isValidRefName(`${namespace}${name}`)) names.add(name);
    }
  };
  walk(join(repo.commonDir, ...namespace.split('/').filter((p) => p !== '')), '');
  for (const ref of packedRefs(repo).keys()) if (ref.startsWith(namespace)) names.add(ref.slice(namespace.length));
  return [...names].sort();
}

/**
 * git check-ref-format's rules for a full ref name: components not starting with '.', no '..',
 * no control characters or any of ` ~^:?*[\`, no '@{', not ending in '/', '.' or '.lock', no '//'.
 */
export function isValidRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.endsWith('/') || ref.endsWith('.') || ref.includes('//')) return false;
  if (ref.includes('..') || ref.includes('@{') || ref === '@') return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(ref)) return false;
  return ref.split('/').every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}
