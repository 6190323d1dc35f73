// Opening a repository: find the git dir from any folder inside a checkout (main or linked
// worktree), its common dir, and the top of the checkout. Linked worktrees keep HEAD and the index
// in their own git dir and everything else (objects, refs, config) in the common dir.
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { ScionError } from '../errors.js';
import { basename, dirname, join, resolve } from 'node:path';
import { configValue, readConfigFile, type ConfigEntry } from './config.js';
import { refusalToGitError, gitError, isGitError } from './errors.js';
import { ObjectStore } from './object-store.js';
import { PACK_READING, type BlobScanSettings, type PackReading } from './read-settings.js';
import { safeDirectoryRefusal, type Env } from './safe-directory.js';

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
  /** Set when git would refuse the repository (safe.directory): nothing may be written to it. */
  readonly refusal: ScionError | null;
  /** How its blob scans work, where the scan's own options say nothing. */
  readonly scan: Partial<BlobScanSettings>;
}

interface OpenedRepo extends Repo {
  readonly [STATE]: RepoState;
}

export function repoState(repo: Repo): RepoState {
  const state = (repo as Partial<OpenedRepo>)[STATE];
  if (!state) throw gitError('invalid-argument', 'This Repo was not made by openRepo(); open the repository with openRepo(dir).');
  return state;
}

export interface OpenRepoOptions {
  /** The environment git would see (HOME, GIT_CONFIG_*, SUDO_UID): default process.env. */
  readonly env?: Env;
  /** How packs and their indexes are read (default PACK_READING). */
  readonly packs?: Partial<PackReading>;
  /** How blob scans of this repository use worker threads (default BLOB_SCAN; a scan's own options come first). */
  readonly scan?: Partial<BlobScanSettings>;
}

/** What a caller that opens repositories for others may set on each (the runner's context, for one). */
export type RepoReadOptions = Pick<OpenRepoOptions, 'packs' | 'scan'>;

/**
 * Any folder inside a repository, also inside a linked worktree or a bare repository. A repository
 * git would refuse for its owner (safe.directory) opens for reading, with `repoRefusal` set.
 */
export async function openRepo(dir: string, opts: OpenRepoOptions = {}): Promise<Repo> {
  let start: string;
  try {
    start = realpathSync(resolve(dir));
  } catch (err) {
    // A folder on the way that this user may not enter is not a missing folder: say which it is.
    const refused = refusalToGitError(err, resolve(dir), 'read');
    if (isGitError(refused)) throw refused;
    throw gitError('not-a-repository', `The folder ${dir} does not exist; give the \`repo\` option a folder inside a git repository.`, { path: dir });
  }
  // A file inside the repository is fine too: start from its folder.
  const found = discover(lstatOrNull(start)?.isDirectory() === false ? dirname(start) : start);
  if (!found) throw gitError('not-a-repository', `${start} is not inside a git repository; give the \`repo\` option a folder inside one.`, { path: start });
  const commonDir = commonDirOf(found.gitDir);
  const config = readConfigFile(join(commonDir, 'config'));
  checkSupported(commonDir, config);
  const refusal = safeDirectoryRefusal({ gitFile: found.gitFile, workTree: found.workTree, gitDir: found.gitDir }, opts.env ?? process.env);
  const store = new ObjectStore(join(commonDir, 'objects'), partialCloneRemote(config), { ...PACK_READING, ...opts.packs });
  const state: RepoState = { store, config, packedRefs: null, refusal, scan: opts.scan ?? {} };
  const repo: OpenedRepo = { commonDir, gitDir: found.gitDir, workTree: found.workTree, [STATE]: state };
  return Object.freeze(repo);
}

/** Why git would refuse this repository (another user's, not in safe.directory), or null. */
export function repoRefusal(repo: Repo): ScionError | null {
  return repoState(repo).refusal;
}

/** Throws the refusal, if any: called before anything is written into the repository. */
export function assertWritable(repo: Repo): void {
  const refusal = repoState(repo).refusal;
  if (refusal) throw refusal;
}

/** The promisor remote of a partial clone (`git clone --filter`), or null. */
function partialCloneRemote(config: readonly ConfigEntry[]): string | null {
  const ext = configValue(config, 'extensions', 'partialclone');
  if (typeof ext === 'string' && ext !== '') return ext;
  for (const e of config) {
    if (e.section.startsWith('remote.') && e.key === 'promisor' && (e.value === true || /^(true|yes|on|1)$/i.test(e.value))) return e.section.slice(7);
  }
  return null;
}

/** Releases what the repository's object store holds in memory. The Repo must not be used after. */
export function closeRepo(repo: Repo): void {
  repoState(repo).store.close();
}

function discover(start: string): { gitDir: string; workTree: string | null; gitFile: string | null } | null {
  for (let d = start; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    const st = lstatOrNull(dotGit);
    if (st?.isDirectory() && looksLikeGitDir(dotGit)) return { gitDir: dotGit, workTree: d, gitFile: null };
    if (st?.isFile()) {
      const gitDir = gitFileTarget(dotGit);
      if (gitDir && looksLikeGitDir(gitDir)) return { gitDir, workTree: d, gitFile: dotGit };
      throw gitError(
        'not-a-repository',
        `${dotGit} points to a git dir that no longer exists; run \`git worktree prune\`, or give the \`repo\` option another folder.`,
        {
          path: dotGit,
        },
      );
    }
    // Inside a .git dir or a bare repository.
    if (looksLikeGitDir(d)) return { gitDir: d, workTree: basename(d) === '.git' ? dirname(d) : null, gitFile: null };
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

/** lstat, or null for a path that cannot be a file here (missing, under a non-folder); a refusal (permission) is kind `environment`. */
function lstatOrNull(p: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(p) ?? null;
  } catch (err) {
    const refused = refusalToGitError(err, p, 'read');
    if (isGitError(refused)) throw refused;
    return null;
  }
}

function checkSupported(commonDir: string, config: readonly ConfigEntry[]): void {
  const format = configValue(config, 'extensions', 'objectformat');
  if (typeof format === 'string' && format.toLowerCase() !== 'sha1') {
    throw gitError('unsupported', `${commonDir} uses ${format} object ids; scion supports SHA-1 repositories only.`, { path: commonDir });
  }
  const refs = configValue(config, 'extensions', 'refstorage');
  if (typeof refs === 'string' && refs.toLowerCase() !== 'files') {
    throw gitError('unsupported', `${commonDir} stores refs as ${refs}; scion supports the "files" ref format only.`, { path: commonDir });
  }
}
