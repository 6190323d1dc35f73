// The CODEOWNERS file of a commit, read as a host reads it: the one part of owners/ that reads git.
// A pull request's owners come from its base branch, so a split reads the job's base commit (a recipe
// that edits CODEOWNERS does not change whose review its change needs), and `scion owners` any ref.
import { UsageError } from '../errors.js';
import { closeRepo, listTree, openRepo, readBlob, remoteUrl, resolveCommit, treeOfCommit, type Repo } from '../git/index.js';
import { hostKindOfUrl, type Env } from '../host/index.js';
import { CODEOWNERS_LOCATIONS, codeownersFor, ownersReport } from './codeowners.js';
import type { Codeowners, Dialect, OwnersReport } from './types.js';

/** The reading of CODEOWNERS a repository gets by default: GitLab's when its origin is a GitLab host, else GitHub's. */
export function defaultDialect(repo: Repo, env: Env): Dialect {
  const url = remoteUrl(repo, 'origin');
  return url === null ? 'github' : hostKindOfUrl(url, env);
}

/** The CODEOWNERS file `dialect`'s host would use in `tree`, read its way; undefined when none exists. */
export async function codeownersInTree(repo: Repo, tree: string, dialect: Dialect): Promise<Codeowners | undefined> {
  const locations = CODEOWNERS_LOCATIONS[dialect];
  // Only the subtrees that can hold one of the locations are read.
  const entries = await listTree(repo, tree, { prefixes: locations });
  // A symlink or a submodule at a location is not a file the host reads.
  const blobs = new Map(entries.filter((e) => e.mode === '100644' || e.mode === '100755').map((e) => [e.path, e.oid] as const));
  return codeownersFor(
    async (path) => {
      const oid = blobs.get(path);
      return oid === undefined ? undefined : readBlob(repo, oid);
    },
    { dialect },
  );
}

/**
 * The CODEOWNERS file of commit `ref` (default HEAD) of the repository holding folder `repo`, read as
 * `dialect`'s host reads it (default: GitLab's when the repository's origin is a GitLab host, as `env`
 * names GitLab hosts, else GitHub's); undefined when that commit has none. A ref that names no commit is
 * a UsageError. Ask it with the result's `ownersOf(paths)` and `ownerOf(path)`.
 *
 * @example
 *   const co = await codeownersAt('.', 'main', 'github');
 *   co?.ownersOf(['src/app.ts']); // [{ path: 'src/app.ts', owners: ['@acme/web'], rules: [{ line: 3, pattern: '/src/', section: null }] }]
 */
export async function codeownersAt(repo: string, ref = 'HEAD', dialect?: Dialect, env: Env = {}): Promise<Codeowners | undefined> {
  const r = await openRepo(repo);
  try {
    const sha = await resolveCommit(r, ref);
    if (sha === null) throw new UsageError(`"${ref}" is not a commit in ${r.workTree ?? r.commonDir}; name a branch, tag or commit it has.`);
    return await codeownersInTree(r, await treeOfCommit(r, sha), dialect ?? defaultDialect(r, env));
  } finally {
    closeRepo(r);
  }
}

export interface OwnersQuery {
  /** Any folder inside the repository. */
  readonly repo: string;
  /** The commit whose CODEOWNERS decides. Default HEAD. */
  readonly base?: string;
  /** Default: GitLab's when the repository's origin is a GitLab host (see `env`), else GitHub's. */
  readonly dialect?: Dialect;
  /** Repository-relative paths (a leading `./` or `/` is dropped). Default: every file of the commit. */
  readonly paths?: readonly string[];
  /** Where GitLab hosts are named (GITLAB_API_URL, CI_SERVER_URL). Default: none. */
  readonly env?: Env;
}

// ownersAt's answer is part of the library's published API: it keeps its own field names (`dialect`,
// `report`, `locations`) rather than Result's `value` and `error`.
export type OwnersAnswer =
  | { readonly ok: true; readonly dialect: Dialect; readonly report: OwnersReport }
  /** The commit has no CODEOWNERS file in any of the places the host looks (`locations`, in its order). */
  | { readonly ok: false; readonly dialect: Dialect; readonly base: string; readonly locations: readonly string[] };

/**
 * What `scion owners` shows: each path's owners and the rules that decided, and every line the host
 * would not read as written; or, when the commit has no CODEOWNERS file where the host looks, where it looked.
 */
export async function ownersAt(q: OwnersQuery): Promise<OwnersAnswer> {
  const base = q.base ?? 'HEAD';
  const r = await openRepo(q.repo);
  try {
    const dialect = q.dialect ?? defaultDialect(r, q.env ?? {});
    const sha = await resolveCommit(r, base);
    if (sha === null)
      throw new UsageError(`"${base}" is not a commit in ${r.workTree ?? r.commonDir}; give the \`base\` option a branch, tag or commit it has.`);
    const tree = await treeOfCommit(r, sha);
    const co = await codeownersInTree(r, tree, dialect);
    if (co === undefined) return { ok: false, dialect, base, locations: CODEOWNERS_LOCATIONS[dialect] };
    const paths = q.paths && q.paths.length > 0 ? q.paths.map((p) => p.replace(/^(\.\/|\/)+/, '')) : (await listTree(r, tree)).map((e) => e.path);
    return { ok: true, dialect, report: ownersReport(co, paths) };
  } finally {
    closeRepo(r);
  }
}
