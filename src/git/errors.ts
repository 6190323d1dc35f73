// Failures of the git layer that callers may act on. Each carries a stable `code` (tests and the
// runner switch on it, never on message text) and a message that says what happened and what to do.
import { refusalOf } from '../refusal.js';

export type GitErrorCode =
  /** An object the repository should hold is not there (or an alternate is unreachable). */
  | 'missing-object'
  /** A `.lock` file is held by another process (git's lock-file protocol). */
  | 'locked'
  /** Compare-and-swap failed: the ref no longer holds the value the caller expected. */
  | 'ref-moved'
  /** The ref name clashes with an existing ref (refs/heads/a vs refs/heads/a/b) or is invalid. */
  | 'bad-ref'
  /** A path in a tree or a change set that git would refuse (`..`, `.git`, empty component, …). */
  | 'bad-path'
  /** An object or file git wrote that this layer cannot parse. */
  | 'corrupt'
  /** A repository feature this layer does not handle (reftable, SHA-256, split index, …). */
  | 'unsupported'
  /** A worktree path that is already in use, or a branch checked out elsewhere. */
  | 'in-use'
  /** Misuse of the API by a caller (a bug upstream). */
  | 'invalid-argument'
  /**
   * The machine refused: disk full, permission denied, read-only file system, a repository owned by
   * another user (git's safe.directory rule), an object a partial clone never fetched, history cut
   * off by a shallow clone. `data.path` names where; the message says the fix.
   */
  | 'environment'
  /** The folder is not (inside) a git repository, or its `.git` file points nowhere. */
  | 'not-a-repository'
  /** A revision name that does not name one commit (ambiguous, a tree, a tag chain too long). */
  | 'bad-revision'
  /** The caller's abort signal fired before the write: nothing was changed. */
  | 'interrupted';

export class GitError extends Error {
  readonly code: GitErrorCode;
  readonly data: Readonly<Record<string, unknown>>;

  constructor(code: GitErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'GitError';
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: GitErrorCode; message: string; data: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/** Node's fs errors carry a string `code`; this narrows `unknown` to read it. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** Whether `err` is an OS error that says the machine refused (disk full, permissions, read-only). */
export function isEnvironmentErrno(err: unknown): boolean {
  return refusalOf(err) !== null;
}

/**
 * An OS error of the git layer as a GitError: `environment` when the machine refused (src/refusal.ts:
 * the path and the fix in one sentence), else `err` unchanged (a real bug or an expected ENOENT the
 * caller handles).
 */
export function refusalToGitError(err: unknown, path: string, action: string): unknown {
  const refusal = refusalOf(err, { path, action });
  if (refusal === null) return err;
  return new GitError('environment', refusal.message, { path, errno: refusal.errno, ...(refusal.at !== null ? { at: refusal.at } : {}) });
}

/** Runs `fn`; OS errors that say the machine refused become `environment` GitErrors about `path`. */
export function onDisk<T>(path: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw refusalToGitError(err, path, action);
  }
}
