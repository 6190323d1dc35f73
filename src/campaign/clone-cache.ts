// The clone cache of a campaign: one bare, shallow, single-branch clone per repository,
// made by the git layer over HTTP(S) (no git binary), kept across runs and fetched, never cloned
// twice; its refs move under git's lock protocol, like every other ref scion moves. Safe against
// two runs at once (a lock per repository, whose dead owner is recognised) and
// against a clone cut short (it is made under a temporary name and renamed into place when whole).
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { failure, usageError, type Result } from '../errors.js';
import {
  advertisedBranches,
  CLONE_REMOTE,
  cloneShallow,
  closeRepo,
  fetchBranch,
  isGitError,
  openRepo,
  readRef,
  setSymbolicRef,
  updateRef,
  type RemoteAccess,
  type TransportFailure,
  type TransportResult,
} from '../git/index.js';
import { credentialAdvice, forge } from '../host/credentials.js';
import { remoteAccess } from '../host/remote.js';
import { hideUrlCredentials, makeRedactor, type Redactor } from '../redact.js';
import { cloneDamage, removeStaleTemps } from './clone-health.js';
import { cloneLimit, formatBytes } from './clone-limit.js';
import type { RepoTarget } from './targets.js';
import { sleep } from '../util/sleep.js';

export interface CloneOptions {
  readonly cacheDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Applied to every failure message (secrets of `env`, URL credentials). Default: built from `env`. */
  readonly redact?: Redactor;
  /** How long to wait for another run that holds this repository's lock (ms). Default 10 minutes. */
  readonly lockWaitMs?: number;
  /** The most one clone or fetch may download. Default: SCION_CLONE_MAX_BYTES of `env`, else 512 MiB. */
  readonly maxBytes?: number;
}

export interface CachedClone {
  /** The bare repository's folder. */
  readonly gitDir: string;
  /** The commit the jobs start from: the tip of `branch` on the remote. */
  readonly sha: string;
  /** The branch that was fetched. */
  readonly branch: string;
  /** What was done: a new clone, a fetch that brought objects, or nothing (the clone was current). */
  readonly action: 'cloned' | 'fetched' | 'current';
  /** Said when the cached clone was found damaged and made anew: what was wrong with it. */
  readonly repaired?: string;
}

export type CloneResult = Result<CachedClone>;

/** The default cache: `$XDG_CACHE_HOME/scion/repos`, else `~/.cache/scion/repos`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg) return join(xdg, 'scion', 'repos');
  return join(env['HOME'] ?? '.', '.cache', 'scion', 'repos');
}

/** The clone's folder: the repository id with anything that is no plain path character made safe. */
export function clonePath(cacheDir: string, target: RepoTarget): string {
  const safe = target.id.split('/').map((part) => part.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_'));
  return join(cacheDir, ...safe) + '.git';
}

/** Clones `target` into the cache, or fetches it when it is there; returns the base commit. */
export async function ensureClone(target: RepoTarget, o: CloneOptions): Promise<CloneResult> {
  // A library caller can hand a local repository here (a campaign never does): nothing to clone.
  if (target.url === null) throw usageError(`ensureClone clones a repository from its URL; ${target.id} is a local repository: use its folder as it is.`);
  const url = target.url;
  const dir = clonePath(o.cacheDir, target);
  await mkdir(dirname(dir), { recursive: true });
  const redact = o.redact ?? makeRedactor(o.env);
  const maxBytes = o.maxBytes ?? cloneLimit(o.env);
  const release = await lockRepository(`${dir}.lock`, o.lockWaitMs ?? 600_000);
  if (typeof release === 'string') return { ok: false, error: failure('clone-failed', redact(release), { repo: target.id }) };
  // The same credential rule as every push: remoteAccess chooses, guardedHttp enforces per request.
  const { access: open, kind, credential } = remoteAccess(url, o.env);
  const access = { ...open, maxBytes };
  // A fetch when the clone is there by the time it failed, else a clone.
  const cannot = async () => `Cannot ${(await exists(join(dir, 'HEAD'))) ? 'fetch' : 'clone'} ${target.id} from ${hideUrlCredentials(url)}`;
  try {
    await removeStaleTemps(dir);
    // A clone damaged on disk is made anew rather than failing this run and every next one.
    const damage = (await exists(dir)) ? await cloneDamage(dir) : null;
    if (damage !== null) await rm(dir, { recursive: true, force: true });
    const done = damage === null && (await exists(join(dir, 'HEAD'))) ? await refresh(target, dir, access) : await freshClone(target, dir, access);
    if (!done.ok) {
      const f = done.error;
      const why =
        f.reason === 'auth'
          ? credentialAdvice(access.url, kind, credential, f.detail, 'clone', forge(kind, o.env).server)
          : f.reason === 'too-large'
            ? `${reason(f)}.`
            : `${reason(f)}; check the URL, that the repository exists, and the token for it.`;
      // The kind's general fix (URL, existence, token) is wrong for a repository past the limit.
      const hint = f.reason === 'too-large' ? 'Raise SCION_CLONE_MAX_BYTES if the machine has the memory, or leave the repository out of the list.' : undefined;
      return { ok: false, error: failure('clone-failed', redact(`${await cannot()}: ${why}`), { repo: target.id }, hint) };
    }
    return damage === null ? done : { ok: true, value: { ...done.value, repaired: redact(damage) } };
  } catch (e) {
    // Anything else (the disk, the cache folder, a ref lock another process holds): said as it is; the
    // git layer's sentences say what to do themselves.
    const said = hideUrlCredentials((e instanceof Error ? e.message : String(e)).split('\n')[0]!);
    const why = isGitError(e) ? said : `${said}; check the URL, that the repository exists, and the token for it.`;
    return { ok: false, error: failure('clone-failed', redact(`${await cannot()}: ${why}`), { repo: target.id }) };
  } finally {
    await release();
  }
}

type Step = TransportResult<CachedClone>;

async function freshClone(target: RepoTarget, dir: string, access: RemoteAccess): Promise<Step> {
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    const made = await cloneShallow(tmp, access, target.ref);
    if (!made.ok) return made;
    await rename(tmp, dir);
    return { ok: true, value: { gitDir: dir, sha: made.value.sha, branch: made.value.branch, action: 'cloned' } };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Brings the clone up to date. The remote's refs are read first (one round trip); when the branch
 * still points where the clone's does, nothing else is asked.
 */
async function refresh(target: RepoTarget, dir: string, access: RemoteAccess): Promise<Step> {
  // One advertisement says both where the branch is and, without @REF, which branch is the
  // default now (it may have changed since the clone, or the clone was made for another @REF).
  const advertised = await advertisedBranches(access);
  if (!advertised.ok) return advertised;
  const repo = await openRepo(dir);
  try {
    const current = headBranch(await readFile(join(dir, 'HEAD'), 'utf8'));
    const branch = target.ref ?? advertised.value.head ?? current ?? 'HEAD';
    const ref = `refs/heads/${branch}`;
    const local = await readRef(repo, ref);
    const remote = advertised.value.branches.get(branch) ?? null;
    // HEAD names the branch the jobs start from (pull requests merge into it).
    const pointHead = async () => (current !== branch ? setSymbolicRef(repo, 'HEAD', ref) : undefined);
    if (remote !== null && remote === local) {
      await pointHead();
      return { ok: true, value: { gitDir: dir, sha: local, branch, action: 'current' } };
    }
    const fetched = await fetchBranch(repo, access, CLONE_REMOTE, branch, { depth: 1 });
    if (!fetched.ok) return fetched;
    await updateRef(repo, ref, fetched.value, local);
    await pointHead();
    return { ok: true, value: { gitDir: dir, sha: fetched.value, branch, action: 'fetched' } };
  } finally {
    closeRepo(repo);
  }
}

/** The branch a HEAD file names (`ref: refs/heads/x`); null for a detached HEAD. */
function headBranch(text: string): string | null {
  return /^ref: refs\/heads\/(\S+)\s*$/.exec(text)?.[1] ?? null;
}

interface LockOwner {
  readonly pid: number;
  readonly started: number;
}

/**
 * Takes `<clone>.lock` (O_EXCL), holding this process's pid. A lock whose process is gone is stale
 * and taken over; a live one is waited for up to `waitMs`. Returns the release function, or why not.
 */
async function lockRepository(path: string, waitMs: number): Promise<(() => Promise<void>) | string> {
  const deadline = Date.now() + waitMs;
  const me: LockOwner = { pid: process.pid, started: Date.now() };
  for (;;) {
    try {
      await writeFile(path, JSON.stringify(me), { flag: 'wx' });
      return async () => {
        await rm(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = await readFile(path, 'utf8')
      .then((t) => JSON.parse(t) as LockOwner)
      .catch(() => null);
    if (owner === null || !alive(owner.pid)) {
      // A dead owner, or a lock file cut short while it was written: it holds nothing.
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      return `${path} is held by another scion run (pid ${owner.pid}); wait for it to finish, or remove the file if that process is gone.`;
    await sleep(100);
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** What the remote or the network said, in words for the failure's sentence. */
function reason(f: TransportFailure): string {
  if (f.reason === 'too-large') {
    return (
      `the repository sent more than ${formatBytes(f.limit ?? 0)}, the most a clone may download (SCION_CLONE_MAX_BYTES); ` +
      'raise it (e.g. SCION_CLONE_MAX_BYTES=2G) if the machine has the memory, or leave the repository out'
    );
  }
  if (f.code === 'ECONNREFUSED' || f.code === 'ENOTFOUND' || f.code === 'EAI_AGAIN') return `the host cannot be reached (${f.code})`;
  return hideUrlCredentials(f.detail.split('\n')[0]!);
}
