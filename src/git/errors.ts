// Failures of the git layer that callers may act on. Each carries a stable `kind` (tests and the
// runner switch on it, never on message text) and a message that says what happened and what to do.
import { GIT_KINDS, ScionError, type GitKind } from '../errors.js';
import { refusalOf } from '../refusal.js';

/**
 * The kinds the git layer throws (ScionError kinds): its own (src/errors.ts GIT_KINDS: missing-object,
 * ref-moved, bad-ref, bad-path, corrupt, in-use, invalid-argument, not-a-repository, bad-revision,
 * pack-gone) and four it shares with a job's report: `locked` (a `.lock` file held by another process),
 * `unsupported` (reftable, SHA-256, split index, …), `environment` (the machine refused: disk full,
 * permission denied, read-only, a repository owned by another user, an object a partial clone never
 * fetched, history cut off by a shallow clone; `data.path` names where, the message says the fix) and
 * `interrupted` (the caller's abort signal fired before the write: nothing was changed).
 */
export type GitErrorCode = GitKind | 'locked' | 'unsupported' | 'environment' | 'interrupted';

const GIT_ERROR_KINDS: ReadonlySet<string> = new Set<string>([...GIT_KINDS, 'locked', 'unsupported', 'environment', 'interrupted']);

/** A failure of the git layer: the one ScionError, with the kind a caller acts on (never its message). */
export function gitError(kind: GitErrorCode, message: string, data: Record<string, unknown> = {}, cause?: unknown): ScionError {
  return new ScionError(kind, message, { data, ...(cause === undefined ? {} : { cause }) });
}

/** Whether `e` is an error of the git layer's kinds (of one of `kinds`, when given). */
export function isGitError<K extends GitErrorCode>(e: unknown, ...kinds: K[]): e is ScionError & { readonly kind: K } {
  return e instanceof ScionError && (kinds.length === 0 ? GIT_ERROR_KINDS.has(e.kind) : (kinds as string[]).includes(e.kind));
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
  return gitError('environment', refusal.message, { path, errno: refusal.errno, ...(refusal.at !== null ? { at: refusal.at } : {}) });
}

/** Runs `fn`; OS errors that say the machine refused become `environment` GitErrors about `path`. */
export function onDisk<T>(path: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw refusalToGitError(err, path, action);
  }
}
