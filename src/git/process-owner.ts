// Who holds a lock, and whether that process is still running: pid, the process's start time
// (Linux: /proc/<pid>/stat field 22, so a recycled pid is not mistaken for the owner) and host.
// Shared by the job lock (runner/job-lock.ts) and the record scion keeps of its own ref locks.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockOwner {
  readonly pid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22); null where it cannot be read. */
  readonly start: string | null;
  readonly host: string;
}

/** The start time of a process (Linux), null elsewhere or when it is gone. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 3 (state) is index 0, so field 22 is index 19
  } catch {
    return null;
  }
}

let self: LockOwner | undefined;
export function currentOwner(): LockOwner {
  self ??= { pid: process.pid, start: processStart(process.pid), host: hostname() };
  return self;
}

/**
 * Whether the owner may still be running. Another host's lock cannot be judged from here: it is
 * taken as live. On this host: the pid exists (EPERM means it does, owned by someone else) and, where
 * start times can be read, started when the lock says.
 */
export function ownerAlive(o: LockOwner): boolean {
  if (o.host !== hostname()) return true;
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (o.start === null) return true;
  const now = processStart(o.pid);
  return now === null || now === o.start;
}

/**
 * The owner as part of a file name, `pid~start~host`: a file named so says who wrote it even when
 * its writer was killed before a byte of it was written (lock files' temporary names).
 */
export function ownerTag(o: LockOwner): string {
  return `${o.pid}~${o.start ?? '-'}~${encodeURIComponent(o.host).replace(/~/g, '%7E')}`;
}

/** `ownerTag`'s text read back; null when it is not one. */
export function parseOwnerTag(tag: string): LockOwner | null {
  const m = /^(\d+)~([^~]+)~([^~]+)$/.exec(tag);
  if (!m) return null;
  try {
    return { pid: Number(m[1]), start: m[2] === '-' ? null : m[2]!, host: decodeURIComponent(m[3]!) };
  } catch {
    return null;
  }
}
