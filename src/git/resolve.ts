// Revision names → commit oids, the subset of gitrevisions(7) a recipe's `base` needs: HEAD (of the
// checkout the repo was opened from), @, branch, tag (peeled), remote-tracking branch, full ref
// name, full or abbreviated sha, each optionally followed by ~N, ^ or ^N.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommit, tagTarget } from './commit.js';
import { gitError } from './errors.js';
import { readRefSync } from './refs.js';
import { repoState, type Repo } from './repo.js';

/** The commit `ref` names, or null when it names nothing. */
export async function resolveCommit(repo: Repo, ref: string): Promise<string | null> {
  const m = /^(.*?)((?:[~^]\d*)*)$/.exec(ref.trim());
  const base = m?.[1] ?? '';
  const ops = m?.[2] ?? '';
  if (base === '') return null;
  let oid = resolveName(repo, base === '@' ? 'HEAD' : base);
  if (oid === null) return null;
  oid = peelToCommit(repo, oid, ref);
  const shallow = shallowCommits(repo);
  // A shallow clone's boundary commits name parents the clone does not have (git grafts them away):
  // walking past one is a history problem the user can fix, not a damaged repository.
  const parentsOf = (c: string): string[] => {
    if (shallow.has(c)) {
      throw gitError(
        'environment',
        `The base ${ref} is beyond the shallow clone's history (${repo.workTree ?? repo.commonDir} was cloned with --depth): fetch more history ` +
          `with \`git fetch --deepen N\`, or choose a base inside it.`,
        { path: repo.workTree ?? repo.commonDir, revision: ref, shallow: c },
      );
    }
    return parents(repo, c);
  };
  for (const op of ops.match(/[~^]\d*/g) ?? []) {
    if (oid === null) return null;
    const n = op.length > 1 ? Number(op.slice(1)) : 1;
    if (op[0] === '~') {
      for (let i = 0; i < n && oid !== null; i++) oid = parentsOf(oid)[0] ?? null;
    } else if (n > 0) {
      oid = parentsOf(oid)[n - 1] ?? null;
    }
  }
  return oid;
}

/** The boundary commits of a shallow clone (`.git/shallow`), empty for a full one. */
function shallowCommits(repo: Repo): ReadonlySet<string> {
  try {
    return new Set(
      readFileSync(join(repo.commonDir, 'shallow'), 'latin1')
        .split('\n')
        .filter((l) => l.length === 40),
    );
  } catch {
    return new Set();
  }
}

function resolveName(repo: Repo, name: string): string | null {
  const store = repoState(repo).store;
  if (/^[0-9a-fA-F]{40}$/.test(name)) {
    const oid = name.toLowerCase();
    return store.has(oid) ? oid : null;
  }
  // Never let a revision name walk out of the git dir.
  if (name.includes('..') || name.startsWith('/') || /[\x00-\x1f\\]/.test(name)) return null;
  // git's ref lookup order (the "dwim" rules of gitrevisions(7)).
  for (const candidate of [name, `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`]) {
    if (candidate !== name || name === 'HEAD' || /^[A-Z_]+$/.test(name) || name.startsWith('refs/')) {
      const oid = readRefSync(repo, candidate);
      if (oid !== null) return oid;
    }
  }
  if (/^[0-9a-fA-F]{4,39}$/.test(name)) return expandShort(repo, name.toLowerCase());
  return null;
}

function expandShort(repo: Repo, prefix: string): string | null {
  const store = repoState(repo).store;
  const found = store.expand(prefix);
  if (found.length <= 1) return found[0] ?? null;
  // Like git in a commit context: an abbreviation shared with trees or blobs still names its commit.
  const commitish = found.filter((oid) => {
    const t = store.read(oid).type;
    return t === 'commit' || t === 'tag';
  });
  if (commitish.length === 1) return commitish[0] as string;
  throw gitError('bad-revision', `The abbreviated sha ${prefix} is ambiguous; give more of its characters.`, { revision: prefix });
}

function peelToCommit(repo: Repo, oid: string, asked: string): string {
  const store = repoState(repo).store;
  let current = oid;
  for (let depth = 0; depth < 10; depth++) {
    const obj = store.read(current);
    if (obj.type === 'commit') return current;
    const target = obj.type === 'tag' ? tagTarget(obj.data) : null;
    if (target === null) throw gitError('bad-revision', `${asked} names a ${obj.type}, not a commit; give a branch, tag or commit.`, { revision: asked });
    current = target;
  }
  throw gitError('bad-revision', `${asked} is a chain of tags too long to follow.`, { revision: asked });
}

function parents(repo: Repo, oid: string): string[] {
  return parseCommit(repoState(repo).store.read(oid).data, oid).parents;
}
