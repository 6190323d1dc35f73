// Taking a ref's lock (git's lock-file protocol: <ref>.lock, which must not exist yet), and
// recognising a lock scion itself left behind when it was killed (kill -9, a crash, a reboot).
//
// A lock file cannot say who holds it: git writes only the new value into it. Judging by age alone
// could remove the lock of a live process (`git update-ref --stdin` holds its locks between
// `prepare` and `commit` as long as its caller likes), and git itself never removes a lock it did
// not take: it refuses and tells the user to remove the file. So scion never lets a lock of its own
// exist without proof of its owner: the lock's content (the new value) is written and fsynced under
// <common>/scion/ref-locks/ first, in a file whose name holds the owner (pid, process start time,
// host), and that file is then hard-linked to <ref>.lock (atomic, and refused when the lock exists).
// While scion holds the lock the two names share one inode; the owner's file goes only after the
// lock was renamed over the ref or removed. A lock is therefore never seen empty or unattributed,
// wherever scion is killed: a later run clears it when an owner's file of the same inode names a
// process that is gone. Any other lock (native git's, a live scion's) is left alone and reported
// as kind `locked`, with the exact command to remove it, as git does — after waiting for it as git
// does: another process holds a ref's lock for a moment (`git gc` packing refs, a fetch), so git
// tries again with a growing, jittered pause for up to 100 ms (core.filesRefLockTimeout), and for
// packed-refs.lock up to 1 s (core.packedRefsTimeout), both read from the repository's config.
// scion waits the same without blocking the process (other jobs go on, a signal stops the wait);
// a negative setting (git: wait for ever) waits a minute.
import { createHash, randomBytes } from 'node:crypto';
import type { ScionError } from '../errors.js';
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync, type BigIntStats } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { configValue } from './config.js';
import { errnoCode, refusalToGitError, gitError, onDisk } from './errors.js';
import { raceproofCreate } from './raceproof.js';
import { currentOwner, ownerAlive, ownerTag, parseOwnerTag, type LockOwner } from './process-owner.js';
import { repoState, type Repo } from './repo.js';

/** A ref lock scion holds. */
export interface HeldRefLock {
  /** Renames the lock over `path` (the ref now holds the lock's content), then drops the owner's file. */
  commit(path: string): void;
  /** Removes the lock and the owner's file (the ref stays as it was). */
  release(): void;
}

function ownersDir(repo: Repo): string {
  return join(repo.commonDir, 'scion', 'ref-locks');
}

/**
 * The part of an owner's file name that says which lock it is for: the lock's path in the repository,
 * encoded (so a sweep can find the lock again), or a hash where that would make the name too long.
 */
function lockKey(repo: Repo, lock: string): string {
  const rel = relative(repo.commonDir, lock);
  const encoded = encodeURIComponent(rel).replace(/~/g, '%7E');
  return encoded.length <= 160 ? encoded : `%23${createHash('sha1').update(rel).digest('hex')}`;
}

/** An owner's file name `key~pid~start~host~random`, read back; null for any other name. */
function parseName(name: string): { key: string; owner: LockOwner } | null {
  const m = /^([^~]+)~(.+)~[0-9a-f]{12}$/.exec(name);
  const owner = m ? parseOwnerTag(m[2]!) : null;
  return m && owner ? { key: m[1]!, owner } : null;
}

/**
 * Takes `lock` holding `content` (see the header). A lock already there is cleared when an owner's
 * file proves it a dead scion's; otherwise error `locked` naming the file and how to remove it.
 */
export async function takeRefLock(repo: Repo, ref: string, lock: string, content: Uint8Array, opts: LockWaitOptions = {}): Promise<HeldRefLock> {
  const dir = ownersDir(repo);
  onDisk(dir, 'create the folder of ref-lock owners', () => mkdirSync(dir, { recursive: true }));
  const own = join(dir, `${lockKey(repo, lock)}~${ownerTag(currentOwner())}~${randomBytes(6).toString('hex')}`);
  onDisk(own, 'write the ref lock', () => writeWhole(own, content));
  let linked = false;
  // Made at the first lock found held: a free lock costs no config lookup.
  let pause: ((signal?: AbortSignal) => Promise<boolean>) | null = null;
  try {
    for (let cleared = 0; !linked;) {
      try {
        raceproofCreate(dirname(lock), () => linkSync(own, lock));
        linked = true;
        break;
      } catch (err) {
        if (errnoCode(err) !== 'EEXIST') throw refusalToGitError(err, lock, 'create the lock file');
      }
      const judged = judgeLock(repo, lock);
      if (judged === 'cleared' && cleared++ < 3) continue;
      // Another process taking and releasing the lock again and again is waited for like one holding it.
      pause ??= lockPauses(opts.waitMs ?? lockWait(repo, lock));
      if (opts.signal?.aborted !== true && (await pause(opts.signal))) continue;
      throw lockedError(ref, lock, judged);
    }
  } finally {
    if (!linked) unlinkQuietly(own);
  }
  return {
    commit(path) {
      onDisk(path, 'write the ref', () => renameSync(lock, path));
      unlinkQuietly(own);
    },
    release() {
      // Only our own lock: the inode is the owner's file's.
      if (sameInode(lstatSync(lock, { throwIfNoEntry: false, bigint: true }), lstatSync(own, { throwIfNoEntry: false, bigint: true }))) unlinkQuietly(lock);
      unlinkQuietly(own);
    },
  };
}

export interface LockWaitOptions {
  /** How long to wait for a lock another process holds, in ms; the repository's setting, or git's default, when omitted. */
  readonly waitMs?: number;
  /** Stops the wait: the lock is then reported held, as after the last try. */
  readonly signal?: AbortSignal;
}

/** How long git waits for `lock` when another process holds it, in ms (see the header). */
function lockWait(repo: Repo, lock: string): number {
  const packed = lock.endsWith('/packed-refs.lock');
  const set = configValue(repoState(repo).config, 'core', packed ? 'packedrefstimeout' : 'filesreflocktimeout');
  const ms = typeof set === 'string' && /^-?\d+$/.test(set.trim()) ? Number(set.trim()) : packed ? 1000 : 100;
  return ms < 0 ? 60_000 : Math.min(ms, 60_000);
}

/**
 * git's pauses between tries of a held lock (lock.c): the n-th is about n² ms, jittered by ±25% so
 * two waiting processes do not retry in step. Each call waits the next pause and resolves true, or
 * resolves false once `waitMs` has passed (or at once when `signal` fires during the pause).
 */
function lockPauses(waitMs: number): (signal?: AbortSignal) => Promise<boolean> {
  const deadline = performance.now() + waitMs;
  let n = 1;
  let multiplier = 1;
  return (signal) => {
    const left = deadline - performance.now();
    if (left <= 0) return Promise.resolve(false);
    const pauseMs = Math.min(left, ((750 + Math.random() * 500) * multiplier) / 1000);
    multiplier += 2 * n + 1;
    n++;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        resolve(ok);
      };
      const stop = () => done(false);
      const timer = setTimeout(() => done(true), pauseMs);
      signal?.addEventListener('abort', stop, { once: true });
    });
  };
}

function writeWhole(path: string, content: Uint8Array): void {
  const fd = openSync(path, 'wx', 0o666);
  try {
    writeSync(fd, content, 0, content.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function lockedError(ref: string, lock: string, judged: 'cleared' | 'unknown' | LockOwner): ScionError {
  const command = `rm -f '${lock.replace(/'/g, `'\\''`)}'`;
  if (judged !== 'cleared' && judged !== 'unknown') {
    const where = judged.host === currentOwner().host ? '' : ` on ${judged.host}`;
    const message = `Cannot update ${ref}: scion (pid ${judged.pid}${where}) is updating it right now (${lock}); wait for it to finish and run again.`;
    return gitError('locked', message, { ref, lock, pid: judged.pid });
  }
  const message =
    `Cannot update ${ref}: ${lock} exists. Another git process may be changing it right now, or one was killed while it did; ` +
    `if no git process is running in this repository, remove the lock with \`${command}\` and run again.`;
  return gitError('locked', message, { ref, lock, command });
}

/** The owners' files written for `lock`, with their inodes. */
function ownersOf(repo: Repo, lock: string): { path: string; owner: LockOwner; st: BigIntStats }[] {
  const key = lockKey(repo, lock);
  const dir = ownersDir(repo);
  const out: { path: string; owner: LockOwner; st: BigIntStats }[] = [];
  for (const name of listDir(dir)) {
    const parsed = parseName(name);
    if (parsed === null || parsed.key !== key) continue;
    const st = lstatSync(join(dir, name), { throwIfNoEntry: false, bigint: true });
    if (st !== undefined) out.push({ path: join(dir, name), owner: parsed.owner, st });
  }
  return out;
}

/**
 * 'cleared': the lock was a dead scion's (or vanished meanwhile): try again. The owner: a live scion
 * holds it. 'unknown': nothing proves whose it is: leave it alone.
 */
function judgeLock(repo: Repo, lock: string): 'cleared' | 'unknown' | LockOwner {
  const st = lstatSync(lock, { throwIfNoEntry: false, bigint: true });
  if (st === undefined) return 'cleared';
  const holder = ownersOf(repo, lock).find((o) => sameInode(o.st, st));
  if (holder === undefined) return 'unknown';
  if (ownerAlive(holder.owner)) return holder.owner;
  // Moved aside first, then checked again: a lock another process took after the judgement above
  // is put back, never removed.
  const aside = join(ownersDir(repo), `aside~${ownerTag(currentOwner())}~${randomBytes(6).toString('hex')}`);
  try {
    renameSync(lock, aside);
  } catch {
    return 'cleared';
  }
  if (!sameInode(lstatSync(aside, { throwIfNoEntry: false, bigint: true }), st)) {
    try {
      linkSync(aside, lock);
    } catch {
      // A newer lock is in place already.
    }
    unlinkQuietly(aside);
    return 'unknown';
  }
  unlinkQuietly(aside);
  unlinkQuietly(holder.path);
  return 'cleared';
}

/**
 * Clears what killed scion processes left among the lock owners' files: a lock whose owner is gone
 * (as a later update of that ref would), and the files of owners that are gone and hold no lock (one
 * killed before its link, or after its rename). A run calls this once before it writes anything.
 */
export function sweepRefLocks(repo: Repo): void {
  const dir = ownersDir(repo);
  for (const name of listDir(dir)) {
    const path = join(dir, name);
    const aside = /^aside~(.*)$/.exec(name);
    const parsed = parseName(aside ? `x~${aside[1]}` : name);
    if (parsed === null || ownerAlive(parsed.owner)) continue;
    const st = lstatSync(path, { throwIfNoEntry: false, bigint: true });
    if (st === undefined) continue;
    if (aside || st.nlink === 1n || parsed.key.startsWith('%23')) {
      // Not linked to anything but itself (or a lock that cannot be named): nothing depends on it.
      if (aside || st.nlink === 1n) unlinkQuietly(path);
      continue;
    }
    const lock = join(repo.commonDir, decodeURIComponent(parsed.key));
    if (sameInode(lstatSync(lock, { throwIfNoEntry: false, bigint: true }), st)) judgeLock(repo, lock);
    // The lock went (renamed over its ref before the owner's file went): the file is left over.
    else unlinkQuietly(path);
  }
}

function sameInode(a: BigIntStats | undefined, b: BigIntStats | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}
