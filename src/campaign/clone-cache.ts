// The clone cache of a campaign: one bare, shallow, single-branch clone per repository,
// made with isomorphic-git over HTTP(S) (no git binary), kept across runs and fetched, never cloned
// twice. Safe against two runs at once (a lock per repository, whose dead owner is recognised) and
// against a clone cut short (it is made under a temporary name and renamed into place when whole).
import fs from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import git from 'isomorphic-git';
import { failure, type Failure } from '../errors.js';
import { guardedHttp, TransferLimitError, type RemoteAccess } from '../git/transport.js';
import { credentialAdvice, forge } from '../publish/credentials.js';
import { remoteAccess } from '../publish/remote.js';
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

export type CloneResult = { readonly ok: true; readonly value: CachedClone } | { readonly ok: false; readonly error: Failure };

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
  if (target.url === null) throw new Error(`ensureClone: ${target.id} is a local repository`);
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
  try {
    await removeStaleTemps(dir);
    // A clone damaged on disk is made anew rather than failing this run and every next one.
    const damage = (await exists(dir)) ? await cloneDamage(dir) : null;
    if (damage !== null) await rm(dir, { recursive: true, force: true });
    const done = damage === null && (await exists(join(dir, 'HEAD'))) ? await refresh(target, dir, access) : await freshClone(target, dir, access);
    return damage === null || !done.ok ? done : { ok: true, value: { ...done.value, repaired: redact(damage) } };
  } catch (e) {
    const verb = (await exists(join(dir, 'HEAD'))) ? 'fetch' : 'clone';
    const status = (e as { data?: { statusCode?: number } }).data?.statusCode;
    const why =
      status === 401 || status === 403
        ? credentialAdvice(access.url, kind, credential, reason(e), 'clone', forge(kind, o.env).server)
        : e instanceof TransferLimitError
          ? `${reason(e)}.`
          : `${reason(e)}; check the URL, that the repository exists, and the token for it.`;
    // The kind's general fix (URL, existence, token) is wrong for a repository past the limit.
    const hint = e instanceof TransferLimitError ? 'Raise SCION_CLONE_MAX_BYTES if the machine has the memory, or leave the repository out of the list.' : undefined;
    return { ok: false, error: failure('clone-failed', redact(`Cannot ${verb} ${target.id} from ${hideUrlCredentials(url)}: ${why}`), { repo: target.id }, hint) };
  } finally {
    await release();
  }
}

/** isomorphic-git's transport options for `access`: the guarded client, and a fresh header object per call. */
function transport(access: RemoteAccess) {
  return { http: guardedHttp(access), url: access.url, headers: {} };
}

async function freshClone(target: RepoTarget, dir: string, access: RemoteAccess): Promise<CloneResult> {
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    await git.clone({
      fs, ...transport(access), dir: tmp, gitdir: tmp,
      ...(target.ref ? { ref: target.ref } : {}),
      singleBranch: true, depth: 1, noCheckout: true, noTags: true,
    });
    await git.setConfig({ fs, gitdir: tmp, path: 'core.bare', value: true });
    // A clone's own HEAD names the branch it fetched.
    const branch = (await git.currentBranch({ fs, gitdir: tmp, fullname: false })) ?? target.ref ?? 'HEAD';
    const sha = await git.resolveRef({ fs, gitdir: tmp, ref: `refs/heads/${branch}` }).catch(() => git.resolveRef({ fs, gitdir: tmp, ref: 'HEAD' }));
    await rename(tmp, dir);
    return { ok: true, value: { gitDir: dir, sha, branch, action: 'cloned' } };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Brings the clone up to date. The remote's refs are read first (one round trip); when the branch
 * still points where the clone's does, nothing else is asked.
 */
async function refresh(target: RepoTarget, dir: string, access: RemoteAccess): Promise<CloneResult> {
  // One advertisement says both where the branch is and, without @REF, which branch is the
  // default now (it may have changed since the clone, or the clone was made for another @REF).
  const remoteRefs = await git.listServerRefs({ ...transport(access), protocolVersion: 1, symrefs: true });
  const current = await git.currentBranch({ fs, gitdir: dir, fullname: false });
  const head = remoteRefs.find((r) => r.ref === 'HEAD')?.target;
  const branch = target.ref ?? (head?.startsWith('refs/heads/') ? head.slice('refs/heads/'.length) : null) ?? current ?? 'HEAD';
  const local = await git.resolveRef({ fs, gitdir: dir, ref: `refs/heads/${branch}` }).catch(() => null);
  const remote = remoteRefs.find((r) => r.ref === `refs/heads/${branch}`)?.oid ?? null;
  if (remote !== null && remote === local) {
    if (current !== branch) await git.writeRef({ fs, gitdir: dir, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
    return { ok: true, value: { gitDir: dir, sha: local, branch, action: 'current' } };
  }
  const res = await git.fetch({ fs, ...transport(access), gitdir: dir, ref: branch, singleBranch: true, depth: 1, tags: false });
  const sha = res.fetchHead ?? remote;
  if (sha === null) throw new Error(`the remote has no branch ${branch}`);
  await git.writeRef({ fs, gitdir: dir, ref: `refs/heads/${branch}`, value: sha, force: true });
  // HEAD names the branch the jobs start from (pull requests merge into it).
  if (current !== branch) await git.writeRef({ fs, gitdir: dir, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
  return { ok: true, value: { gitDir: dir, sha, branch, action: 'fetched' } };
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
    const owner = await readFile(path, 'utf8').then((t) => JSON.parse(t) as LockOwner).catch(() => null);
    if (owner === null || !alive(owner.pid)) {
      // A dead owner, or a lock file cut short while it was written: it holds nothing.
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) return `${path} is held by another scion run (pid ${owner.pid}); wait for it to finish, or remove the file if that process is gone.`;
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

function reason(e: unknown): string {
  if (e instanceof TransferLimitError) {
    return `the repository sent more than ${formatBytes(e.limit)}, the most a clone may download (SCION_CLONE_MAX_BYTES); raise it (e.g. SCION_CLONE_MAX_BYTES=2G) if the machine has the memory, or leave the repository out`;
  }
  const err = e as { code?: string; data?: { statusCode?: number; statusMessage?: string }; message?: string };
  if (err.data?.statusCode) return `HTTP ${err.data.statusCode} ${err.data.statusMessage ?? ''}`.trim();
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `the host cannot be reached (${err.code})`;
  return hideUrlCredentials((err.message ?? String(e)).split('\n')[0]!);
}
