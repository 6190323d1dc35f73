// The one mapping of "the machine refused a file-system operation" (kind `environment`): which errno
// codes mean it, what each means and what the user can do. The git layer, the runner and the CLI's
// output files all turn OS errors into sentences through this, so a read-only mount reads the same
// whether scion met it taking a lock, writing an object or writing the report.
import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname } from 'node:path';

interface Meaning {
  readonly what: string;
  readonly fix: string;
}

const REFUSALS: Readonly<Record<string, Meaning>> = {
  ENOSPC: { what: 'the disk is full', fix: 'free some space and run again' },
  EDQUOT: { what: 'the disk quota is used up', fix: 'free some space or raise the quota, and run again' },
  EACCES: { what: 'permission denied', fix: 'make it readable and writable for the user running scion (check the owner and mode of it and of its folders)' },
  EPERM: { what: 'the operation is not permitted', fix: 'check the owner and mode of the path' },
  EROFS: { what: 'the file system is read-only', fix: 'remount it read-write, or run scion on a checkout (and write its outputs) on a writable file system' },
  EMFILE: { what: 'too many files are open', fix: 'lower --concurrency or raise the limit (ulimit -n)' },
  ENFILE: { what: 'the system has too many files open', fix: 'lower --concurrency, or close other programs, and run again' },
};

/** Refusals about the shape of a path the user named (an output file): a file where a folder must be. */
const PATH_SHAPE: Readonly<Record<string, Meaning>> = {
  ENOTDIR: { what: 'a part of the path is a file, not a folder', fix: 'choose another path' },
  // mkdir -p where a file is.
  EEXIST: { what: 'a part of the path is a file, not a folder', fix: 'choose another path' },
  EISDIR: { what: 'the path is a folder', fix: 'name a file' },
};

export interface Refusal {
  /** The errno that says what refused (for an ENOENT of `mkdir -p`, the refusal found above it). */
  readonly errno: string;
  /** The path the operation was about. */
  readonly path: string;
  /** Where the refusal is, when it is not `path` itself (the read-only folder a new one was to go in). */
  readonly at: string | null;
  /** One sentence: `Cannot <action> <path> (ERRNO): <what>; <fix>.` */
  readonly message: string;
}

export interface RefusalOptions {
  /** The path as the sentence names it (default: the error's own path). */
  readonly path?: string;
  /** What was being done, as in "Cannot <action> <path>". Default "use". */
  readonly action?: string;
  /** The path was named by the user (an output file): a file in the way of a folder is theirs to fix too. */
  readonly userPath?: boolean;
}

/** Node's errno code of `err`, if it has one. */
function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function field(err: unknown, name: 'path' | 'syscall'): string | undefined {
  const v = typeof err === 'object' && err !== null && name in err ? (err as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/**
 * The machine's refusal `err` stands for, or null when it is something else (a bug, or an expected
 * ENOENT the caller handles). `mkdir -p` on a read-only mount fails with ENOENT, not EROFS (Node
 * reports the first missing folder): the nearest folder that exists is then asked whether it can be
 * written, and its refusal is the answer.
 */
export function refusalOf(err: unknown, o: RefusalOptions = {}): Refusal | null {
  const code = codeOf(err);
  if (code === undefined) return null;
  const path = o.path ?? field(err, 'path') ?? 'a file';
  let errno = code;
  let at: string | null = null;
  if (code === 'ENOENT' && field(err, 'syscall') === 'mkdir') {
    const found = refusalAbove(field(err, 'path') ?? path);
    if (found === null) return null;
    ({ errno, at } = found);
  }
  const meaning = REFUSALS[errno] ?? (o.userPath ? PATH_SHAPE[errno] : undefined);
  if (meaning === undefined) return null;
  // Permission denied on the way to the path: the folder that may not be entered is the one to fix.
  if (errno === 'EACCES' && at === null) at = unsearchable(field(err, 'path') ?? path);
  const where = at !== null && at !== path ? ` at ${at}` : '';
  return { errno, path, at, message: `Cannot ${o.action ?? 'use'} ${path} (${errno}${where}): ${meaning.what}; ${meaning.fix}.` };
}

/** The first folder on the way down to `path` that this user may not enter, or null. */
function unsearchable(path: string): string | null {
  const parts: string[] = [];
  for (let d = dirname(path); ; d = dirname(d)) {
    parts.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const dir of parts) {
    try {
      accessSync(dir, constants.X_OK);
    } catch (e) {
      return codeOf(e) === 'EACCES' ? dir : null;
    }
  }
  return null;
}

/** Why the nearest existing folder above `path` cannot be written into, or null when it can. */
function refusalAbove(path: string): { errno: string; at: string } | null {
  const refused = (e: unknown, at: string) => {
    const errno = codeOf(e);
    return errno !== undefined && errno in REFUSALS ? { errno, at } : null;
  };
  let dir = dirname(path);
  for (;;) {
    try {
      if (lstatSync(dir, { throwIfNoEntry: false }) !== undefined || dirname(dir) === dir) break;
    } catch (e) {
      // A folder above that cannot even be looked into.
      return refused(e, dir);
    }
    dir = dirname(dir);
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return null;
  } catch (e) {
    return refused(e, dir);
  }
}
