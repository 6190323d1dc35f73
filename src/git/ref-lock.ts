// Taking a ref's lock (git's lock-file protocol: <ref>.lock, created with O_EXCL), and recognising a
// lock scion itself left behind when it was killed (kill -9, a crash, a reboot) mid-update.
//
// A lock file cannot say who holds it: git writes only the new value into it. Judging by age alone
// could remove the lock of a live process (`git update-ref --stdin` holds its locks between
// `prepare` and `commit` as long as its caller likes), and git itself never removes a lock it did
// not take: it refuses and tells the user to remove the file. So scion keeps a record of each of
// its own ref locks while it holds one, under <common>/scion/ref-locks/: the owner (pid, process
// start time, host) and the identity of the lock file (device, inode, size, mtime in ns, taken
// after its content was written). A later run clears a lock only when that record proves it is
// scion's own and its owner is gone: the same file, untouched since, and no live process behind it.
// Any other lock (native git's, a live scion's, or scion's in the few milliseconds before its record
// is written) is left alone and reported as kind `locked` with the exact command to remove it, as
// git does.
import { randomBytes } from 'node:crypto';
import { fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join, relative } from 'node:path';
import { errnoCode, environmentError, GitError, onDisk } from './errors.js';
import { currentOwner, ownerAlive, type LockOwner } from './process-owner.js';
import type { Repo } from './repo.js';

interface LockRecord {
  readonly owner: LockOwner;
  readonly lock: string;
  readonly dev: string;
  readonly ino: string;
  readonly size: string;
  readonly mtimeNs: string;
}

function recordsDir(repo: Repo): string {
  return join(repo.commonDir, 'scion', 'ref-locks');
}

function recordPath(repo: Repo, lock: string): string {
  return join(recordsDir(repo), encodeURIComponent(relative(repo.commonDir, lock)));
}

/**
 * Creates `lock` (O_EXCL) and returns its descriptor. A lock already there is cleared when scion's
 * record proves it a dead scion's; otherwise GitError `locked` naming the file and how to remove it.
 */
export function openRefLock(repo: Repo, ref: string, lock: string): number {
  for (let attempt = 0; ; attempt++) {
    try {
      return openSync(lock, 'wx', 0o666);
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw environmentError(err, lock, 'create the lock file');
    }
    const judged = judgeLock(repo, lock);
    if (judged === 'cleared' && attempt < 3) continue;
    if (judged !== 'cleared' && judged !== 'unknown') {
      throw new GitError(
        'locked',
        `Cannot update ${ref}: scion (pid ${judged.pid}${judged.host === currentOwner().host ? '' : ` on ${judged.host}`}) is updating it right now (${lock}); wait for it to finish and run again.`,
        { ref, lock, pid: judged.pid },
      );
    }
    throw new GitError(
      'locked',
      `Cannot update ${ref}: ${lock} exists. Another git process may be changing it right now, or one was killed while it did; if no git process is running in this repository, remove the lock with \`rm -f '${lock.replace(/'/g, `'\\''`)}'\` and run again.`,
      { ref, lock, command: `rm -f '${lock.replace(/'/g, `'\\''`)}'` },
    );
  }
}

/** After the lock's content is written: records that scion holds it (see the header). */
export function recordRefLock(repo: Repo, lock: string, fd: number): void {
  const st = fstatSync(fd, { bigint: true });
  const record: LockRecord = { owner: currentOwner(), lock, ...identity(st) };
  const path = recordPath(repo, lock);
  onDisk(recordsDir(repo), 'record the ref lock in', () => {
    mkdirSync(recordsDir(repo), { recursive: true });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.new`;
    writeFileSync(tmp, `${JSON.stringify(record)}\n`);
    renameSync(tmp, path);
  });
}

/** The lock is gone (renamed into place, or removed): its record goes too. */
export function forgetRefLock(repo: Repo, lock: string): void {
  try {
    unlinkSync(recordPath(repo, lock));
  } catch {
    // Never written, or gone already.
  }
}

function identity(st: BigIntStats): Omit<LockRecord, 'owner' | 'lock'> {
  return { dev: String(st.dev), ino: String(st.ino), size: String(st.size), mtimeNs: String(st.mtimeNs) };
}

function sameFile(st: BigIntStats | undefined, r: LockRecord): boolean {
  if (st === undefined) return false;
  const id = identity(st);
  return id.dev === r.dev && id.ino === r.ino && id.size === r.size && id.mtimeNs === r.mtimeNs;
}

function readRecord(repo: Repo, lock: string): LockRecord | null {
  try {
    const r = JSON.parse(readFileSync(recordPath(repo, lock), 'utf8')) as LockRecord;
    return r.lock === lock && typeof r.owner?.pid === 'number' ? r : null;
  } catch {
    return null;
  }
}

/**
 * 'cleared': the lock was a dead scion's (or vanished meanwhile): try again. The owner: a live scion
 * holds it. 'unknown': nothing proves whose it is: leave it alone.
 */
function judgeLock(repo: Repo, lock: string): 'cleared' | 'unknown' | LockOwner {
  const record = readRecord(repo, lock);
  const st = lstatSync(lock, { throwIfNoEntry: false, bigint: true });
  if (st === undefined) return 'cleared';
  if (record === null || !sameFile(st, record)) return 'unknown';
  if (ownerAlive(record.owner)) return record.owner;
  // Moved aside first, then checked again: a lock another process took after the judgement above
  // is put back, never removed.
  const aside = join(recordsDir(repo), `stale-${randomBytes(6).toString('hex')}`);
  try {
    renameSync(lock, aside);
  } catch {
    return 'cleared';
  }
  if (!sameFile(lstatSync(aside, { throwIfNoEntry: false, bigint: true }), record)) {
    try {
      linkSync(aside, lock);
    } catch {
      // A newer lock is in place already.
    }
    unlinkSync(aside);
    return 'unknown';
  }
  unlinkSync(aside);
  forgetRefLock(repo, lock);
  return 'cleared';
}
