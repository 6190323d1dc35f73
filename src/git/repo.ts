// Opening a repository: find the git dir from any folder inside a checkout (main or linked
// worktree), its common dir, and the top of the checkout. Linked worktrees keep HEAD and the index
// in their own git dir and everything else (objects, refs, config) in the common dir.
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { configValue, readConfigFile, type ConfigEntry } from './config.js';
import { GitError } from './errors.js';
import { ObjectStore } from './object-store.js';

export interface Repo {
  /** The common .git dir (objects, refs, config). */
  readonly commonDir: string;
  /** The per-worktree git dir of the checkout the repo was opened from (== commonDir for the main one). */
  readonly gitDir: string;
  /** Top of the checkout the repo was opened from; null for a bare repository. */
  readonly workTree: string | null;
}

const STATE = Symbol('scion.git.state');

/** What an opened Repo carries besides its paths: caches shared by every call on it. */
export interface RepoState {
  readonly store: ObjectStore;
  readonly config: readonly ConfigEntry[];
  packedRefs: { readonly stamp: string; readonly refs: ReadonlyMap<string, string> } | null;
}

interface OpenedRepo extends Repo {
  readonly [STATE]: RepoState;
}

export function repoState(repo: Repo): RepoState {
  const state = (repo as Partial<OpenedRepo>)[STATE];
  if (!state) throw new GitError('invalid-argument', 'This Repo was not made by openRepo(); open the repository with openRepo(dir).');
  return state;
}

/** Any folder inside a repository, also inside a linked worktree or a bare repository. */
export async function openRepo(dir: string): Promise<Repo> {
  let start: string;
  try {
    start = realpathSync(resolve(dir));
  } catch {
    throw new UsageError(`The folder ${dir} does not exist; pass --repo with a folder inside a git repository.`);
  }
  // A file inside the repository is fine too: start from its folder.
  const found = discover(lstatOrNull(start)?.isDirectory() === false ? dirname(start) : start);
  if (!found) throw new UsageError(`${start} is not inside a git repository; pass --repo with a folder inside one.`);
  const commonDir = commonDirOf(found.gitDir);
  const config = readConfigFile(join(commonDir, 'config'));
  checkSupported(commonDir, config);
  const state: RepoState = { store: new ObjectStore(join(commonDir, 'objects')), config, packedRefs: null };
  const repo: OpenedRepo = { commonDir, gitDir: found.gitDir, workTree: found.workTree, [STATE]: state };
  return Object.freeze(repo);
}

/** Releases what the repository's object store holds in memory. The Repo must not be used after. */
export function closeRepo(repo: Repo): void {
  repoState(repo).store.close();
}

function discover(start: string): { gitDir: string; workTree: string | null } | null {
  for (let d = start; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    const st = lstatOrNull(dotGit);
    if (st?.isDirectory() && looksLikeGitDir(dotGit)) return { gitDir: dotGit, workTree: d };
    if (st?.isFile()) {
      const gitDir = gitFileTarget(dotGit);
      if (gitDir && looksLikeGitDir(gitDir)) return { gitDir, workTree: d };
      throw new UsageError(`${dotGit} points to a git dir that no longer exists; run \`git worktree prune\` or pass another --repo.`);
    }
    // Inside a .git dir or a bare repository.
    if (looksLikeGitDir(d)) return { gitDir: d, workTree: basename(d) === '.git' ? dirname(d) : null };
    if (dirname(d) === d) return null;
  }
}

/** The target of a `.git` file ("gitdir: <path>", relative to the file's folder), or null. */
export function gitFileTarget(dotGitFile: string): string | null {
  let text: string;
  try {
    text = readFileSync(dotGitFile, 'utf8');
  } catch {
    return null;
  }
  const m = /^gitdir: (.+)$/m.exec(text);
  return m ? resolve(dirname(dotGitFile), (m[1] as string).trim()) : null;
}

function commonDirOf(gitDir: string): string {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
}

function looksLikeGitDir(d: string): boolean {
  if (!lstatOrNull(join(d, 'HEAD'))?.isFile()) return false;
  // A linked worktree's git dir has HEAD and commondir but no objects of its own.
  if (lstatOrNull(join(d, 'commondir'))?.isFile()) return true;
  try {
    return statSync(join(d, 'objects')).isDirectory();
  } catch {
    return false;
  }
}

/** lstat, or null for any path that cannot be a file here (missing, or under a non-folder). */
function lstatOrNull(p: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(p) ?? null;
  } catch {
    return null;
  }
}

function checkSupported(commonDir: string, config: readonly ConfigEntry[]): void {
  const format = configValue(config, 'extensions', 'objectformat');
  if (typeof format === 'string' && format.toLowerCase() !== 'sha1') {
    throw new UsageError(`${commonDir} uses ${format} object ids; scion supports SHA-1 repositories only.`);
  }
  const refs = configValue(config, 'extensions', 'refstorage');
  if (typeof refs === 'string' && refs.toLowerCase() !== 'files') {
    throw new UsageError(`${commonDir} stores refs as ${refs}; scion supports the "files" ref format only.`);
  }
}
