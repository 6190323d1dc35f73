// ONE lock per job, covering its branch and its worktree: a file under <common>/scion/locks/, named
// after the branch, holding its owner: pid, the process's start time (Linux: /proc/<pid>/stat field
// 22, so a recycled pid is not mistaken for the owner) and host. It is written whole under a
// temporary name that names its writer, then linked into place, so it is never seen half written.
// The job's worktree carries the same owner line in git's `locked` marker, so native git leaves a
// running job's worktree alone and `scion worktrees` can tell a live job from a dead one.
// An owner that is gone (kill -9, a crash, a reboot) leaves a stale lock: the next run of the job and
// `scion worktrees --prune` recognise it and clear it.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fail, failure, ok, type Result } from '../errors.js';
import {
  currentOwner,
  onDisk,
  ownerAlive,
  ownerTag,
  parseOwnerTag,
  sweepKeptPacks,
  sweepRefLocks,
  worktreeAdminRoot,
  type LockOwner,
  type Repo,
} from '../git/index.js';

export type { LockOwner } from '../git/index.js';
export { currentOwner, ownerAlive, processStart } from '../git/index.js';

export interface JobLock {
  readonly path: string;
  readonly owner: LockOwner;
  release(): void;
}

/** The one-line form kept in the lock file and in the worktree's `locked` marker. */
export function formatOwner(o: LockOwner, what: string): string {
  return `scion pid=${o.pid} start=${o.start ?? '-'} host=${o.host} job=${what}\n`;
}

export function parseOwner(text: string): LockOwner | null {
  const m = /^scion pid=(\d+) start=(\S+) host=(\S+)/.exec(text);
  if (!m) return null;
  return { pid: Number(m[1]), start: m[2] === '-' ? null : m[2]!, host: m[3]! };
}

/** A worktree's `locked` marker text: null (no marker), 'stale' (its owner is gone or unknown), or the live owner. */
export function markerOwner(text: string | null): LockOwner | 'stale' | null {
  if (text === null) return null;
  const o = parseOwner(text);
  return o !== null && ownerAlive(o) ? o : 'stale';
}

/**
 * Who holds the linked worktree `id` (its `locked` marker, written by the run that made it): a live
 * owner, 'stale' when the run is gone, null when it is not locked.
 */
export function worktreeOwner(repo: Repo, id: string): LockOwner | 'stale' | null {
  return markerOwner(readText(join(worktreeAdminRoot(repo), id, 'locked')));
}

export function locksDir(repo: Repo): string {
  return join(repo.commonDir, 'scion', 'locks');
}

/** Takes the job's lock, clearing a stale one; kind `locked` (naming the owner's pid) when a live run holds it. */
export function acquireJobLock(repo: Repo, o: { branch: string; job: string }): Result<JobLock> {
  const dir = locksDir(repo);
  onDisk(dir, 'create', () => mkdirSync(dir, { recursive: true }));
  // encodeURIComponent is injective and keeps the name one path component.
  const path = join(dir, `${encodeURIComponent(o.branch)}.lock`);
  const me = currentOwner();
  const line = formatOwner(me, o.job);
  for (let attempt = 0; attempt < 5; attempt++) {
    // Written whole beside the lock, then linked into place (atomic, fails if the lock exists): a
    // lock file is never seen half written.
    const tmp = `${path}~${ownerTag(me)}~${randomBytes(6).toString('hex')}~new`;
    onDisk(tmp, 'write the job lock', () => {
      const fd = openSync(tmp, 'wx', 0o644);
      try {
        writeSync(fd, line);
      } catch (e) {
        closeSync(fd);
        unlinkSync(tmp);
        throw e;
      }
      closeSync(fd);
    });
    try {
      linkSync(tmp, path);
      return ok({ path, owner: me, release: () => releaseIf(path, line) });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(tmp);
    }
    const text = readText(path);
    if (text === null) continue; // released meanwhile
    const owner = parseOwner(text);
    if (owner !== null && ownerAlive(owner)) {
      return fail(
        failure(
          'locked',
          `Another scion run (pid ${owner.pid}${owner.host === me.host ? '' : ` on ${owner.host}`}) is working on ${o.job} ` +
            `(branch ${o.branch}); wait for it to finish and run again.`,
          { pid: owner.pid, host: owner.host, branch: o.branch, lock: path },
        ),
      );
    }
    breakStale(path, text);
  }
  return fail(
    failure('locked', `The lock ${path} of ${o.job} keeps changing hands; another scion run is starting this job. Run again when it is done.`, { lock: path }),
  );
}

/**
 * Removes a stale lock without removing a fresh one another run took meanwhile: the file is moved
 * aside, and moved back (link fails if a newer lock is already there) when it is not the one judged.
 */
function breakStale(path: string, judged: string): void {
  const aside = `${path}~${ownerTag(currentOwner())}~${randomBytes(6).toString('hex')}~stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readText(aside) !== judged) {
    try {
      linkSync(aside, path);
    } catch {
      // A newer lock is in place already.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
}

/**
 * What killed runs left in the repository's lock folders, cleared before a run writes anything:
 * half-taken job locks (the temporary file of a lock being written, a stale lock moved aside) whose
 * owner is gone, ref locks and their owners' files (git/ref-lock.ts), and the kept and temporary
 * pack files of jobs killed before their ref moved (git/kept-packs.ts). Best effort: a folder scion
 * cannot change is reported by the job that needs it, not here.
 */
export function sweepLeftovers(repo: Repo): void {
  const dir = locksDir(repo);
  for (const name of namesIn(dir)) {
    // Named after their writer, so one killed before it wrote a byte is still known.
    const m = /~(.+)~[0-9a-f]{12}~(new|stale)$/.exec(name);
    const owner = m ? parseOwnerTag(m[1]!) : null;
    if (owner !== null && !ownerAlive(owner)) unlinkQuietly(join(dir, name));
  }
  for (const sweep of [sweepRefLocks, sweepKeptPacks]) {
    try {
      sweep(repo);
    } catch {
      // As above: the ref update (or pack write) that meets the problem reports it.
    }
  }
}

/** `scion worktrees --prune`: job locks whose owner is gone, and everything sweepLeftovers clears. */
export function pruneLocks(repo: Repo): void {
  const dir = locksDir(repo);
  for (const name of namesIn(dir).filter((n) => n.endsWith('.lock'))) {
    const text = readText(join(dir, name));
    const owner = text === null ? null : parseOwner(text);
    if (owner !== null && !ownerAlive(owner)) breakStale(join(dir, name), text!);
  }
  sweepLeftovers(repo);
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // No lock was ever taken here.
    return [];
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone
  }
}

function releaseIf(path: string, line: string): void {
  if (readText(path) === line) {
    try {
      unlinkSync(path);
    } catch {
      // gone
    }
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
