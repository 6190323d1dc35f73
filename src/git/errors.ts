// Failures of the git layer that callers may act on. Each carries a stable `code` (tests and the
// runner switch on it, never on message text) and a message that says what happened and what to do.

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
  | 'invalid-argument';

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
