// Every failure scion reports has a `kind` and, where the seed numbers it, a `code` (0–10).
// Expected failures travel as `Failure` values; `ScionError` wraps one when it must be thrown
// (across a process boundary, or out of the library to a caller).

export const ERROR_KINDS = [
  'secret',
  'no-op',
  'denied',
  'unc-path',
  'outside',
  'too-large',
  'binary',
  'encoding',
  'file-missing',
  'file-exists',
  'notebook',
  'not-read',
  'stale',
  'not-found',
  'not-unique',
  'cascade',
  'invalid-result',
  'unsupported',
  'command-failed',
  'agent',
  'branch-diverged',
  'expectation',
  'timeout',
  'interrupted',
  'locked',
  'environment',
  'push-failed',
  'pr-failed',
  'clone-failed',
  // A jscodeshift transform threw on a file (its message and the file are in the failure).
  'transform',
  // The model kept making edits the guards refuse (deleting or skipping tests, suppressing checks,
  // turning checks off in their configuration): the job is failed for a person to look at.
  'guard',
  // The run's --max-cost was spent: the model conversations it had not started were not started.
  'budget',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The seed's FileEditTool error numbers. Kinds without a number there carry no `code`. */
export const SEED_CODES: Readonly<Partial<Record<ErrorKind, number>>> = {
  secret: 0,
  'no-op': 1,
  denied: 2,
  'file-exists': 3,
  'file-missing': 4,
  notebook: 5,
  'not-read': 6,
  stale: 7,
  'not-found': 8,
  'not-unique': 9,
  'too-large': 10,
  // The seed's step 14 (a JSON or schema check of the result) carries 10 too.
  'invalid-result': 10,
};

/** An expected failure, as a value. `data` holds the facts a caller may act on (count, path, …). */
export interface Failure {
  readonly kind: ErrorKind;
  readonly code?: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
  /** What to do, when the kind's general fix hint (report/hints.ts) would be wrong for this case. */
  readonly hint?: string;
}

export function failure(kind: ErrorKind, message: string, data?: Record<string, unknown>, hint?: string): Failure {
  const code = SEED_CODES[kind];
  return {
    kind,
    ...(code === undefined ? {} : { code }),
    message,
    ...(data === undefined ? {} : { data }),
    ...(hint === undefined ? {} : { hint }),
  };
}

/**
 * An expected outcome as a value: what came out (`value`), or why nothing did (`error`). The error is
 * a Failure (a kind, a message, facts) unless said otherwise: a parser's carries its problems, a
 * transport's what the remote answered.
 */
export type Result<T, E = Failure> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
/** A Failure as a Result: `err` for the usual error type. */
export const fail = <T = never>(error: Failure): Result<T> => ({ ok: false, error });

/**
 * Kinds of a thrown error beyond a job's failures: how scion was called, and what it talked to.
 * `usage`: a flag or argument mistake (data.flag names the flag); `recipe`: a recipe that is not
 * valid; `plan`: a run that cannot be planned (data.reason: bad-base, bad-branch, conflicting-jobs,
 * each-matches-nothing, no-such-job). Nothing has run after any of the three. `host`: a forge (GitHub,
 * GitLab) refused or could not be reached (data.status: the HTTP status, or null without an answer);
 * `remote`: a git remote refused or could not be reached (data.reason, data.status, data.code);
 * `bad-glob`: a glob that cannot be matched in bounded time.
 */
export const CALL_KINDS = ['usage', 'recipe', 'plan', 'host', 'remote', 'bad-glob'] as const;

/**
 * The git layer's kinds (beside `locked`, `unsupported`, `environment` and `interrupted`, which mean
 * there what they mean in a job's report).
 */
export const GIT_KINDS = [
  'missing-object',
  'ref-moved',
  'bad-ref',
  'bad-path',
  'corrupt',
  'in-use',
  'invalid-argument',
  'not-a-repository',
  'bad-revision',
  // A pack file removed under a reader (git gc, git repack): the reader looks again.
  'pack-gone',
] as const;

export type CallKind = (typeof CALL_KINDS)[number];
export type GitKind = (typeof GIT_KINDS)[number];
/** Every kind a ScionError can carry: a job's failure kinds, the call kinds and the git layer's. */
export type ScionErrorKind = ErrorKind | CallKind | GitKind;

export interface ScionErrorOptions {
  readonly data?: Readonly<Record<string, unknown>>;
  /** Each problem found, one line each (a recipe's every problem with file:line:col). */
  readonly problems?: readonly string[];
  readonly hint?: string;
  readonly cause?: unknown;
}

/** What a ScionError serialises to (the JSON report prints it; a Failure where the kind is a job's). */
export interface ScionErrorJson {
  readonly kind: ScionErrorKind;
  readonly code?: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly problems?: readonly string[];
}

/**
 * scion's one throwable: a kind from one vocabulary, the seed's number where it has one, the facts a
 * caller acts on (`data`), and every problem when there are several. Expected outcomes travel as
 * `Result`/`Failure` values; this is thrown only across a boundary (out of the library, out of a
 * layer that cannot go on). The CLI maps kinds to exit codes in one place (src/cli/exit.ts).
 */
export class ScionError extends Error {
  readonly kind: ScionErrorKind;
  readonly code: number | undefined;
  readonly data: Readonly<Record<string, unknown>>;
  readonly problems: readonly string[];
  readonly hint: string | undefined;

  constructor(f: Failure);
  constructor(kind: ScionErrorKind, message: string, o?: ScionErrorOptions);
  constructor(a: Failure | ScionErrorKind, message?: string, o: ScionErrorOptions = {}) {
    const f: Failure | null = typeof a === 'string' ? null : a;
    super(f?.message ?? message ?? '', o.cause === undefined ? undefined : { cause: o.cause });
    this.name = 'ScionError';
    this.kind = f?.kind ?? (a as ScionErrorKind);
    this.code = f?.code ?? SEED_CODES[this.kind as ErrorKind];
    this.data = f?.data ?? o.data ?? {};
    this.problems = o.problems ?? [];
    this.hint = f?.hint ?? o.hint;
  }

  toJSON(): ScionErrorJson {
    return {
      kind: this.kind,
      ...(this.code === undefined ? {} : { code: this.code }),
      message: this.message,
      ...(Object.keys(this.data).length === 0 ? {} : { data: this.data }),
      ...(this.problems.length === 0 ? {} : { problems: this.problems }),
    };
  }
}

/** Whether `e` is a ScionError (of one of `kinds`, when given). */
export function isScionError<K extends ScionErrorKind>(e: unknown, ...kinds: K[]): e is ScionError & { readonly kind: K } {
  return e instanceof ScionError && (kinds.length === 0 || (kinds as ScionErrorKind[]).includes(e.kind));
}

/** Whether `kind` is one a job's report may carry. */
export function isJobKind(kind: ScionErrorKind): kind is ErrorKind {
  return (ERROR_KINDS as readonly string[]).includes(kind);
}

/** A mistake in how scion was called: nothing was run. `flag` names the flag it is about. */
export function usageError(message: string, problems: readonly string[] = [], flag?: string): ScionError {
  return new ScionError('usage', message, { problems, ...(flag === undefined ? {} : { data: { flag } }) });
}

/** A recipe that is not valid (every problem in `problems`): nothing was run. */
export function recipeError(message: string, problems: readonly string[] = []): ScionError {
  return new ScionError('recipe', message, { problems });
}

/** A forge that refused (`status`: the HTTP status) or could not be reached (null). */
export function hostError(message: string, status: number | null): ScionError {
  return new HostError(message, status);
}

/** The HTTP status of a `host` error, or null when the host gave no answer. */
export function hostStatus(e: ScionError): number | null {
  const s = e.data['status'];
  return typeof s === 'number' ? s : null;
}

/**
 * `UsageError` and `HostError` are names the library has exported: each constructs the ScionError of
 * its kind, and `instanceof` answers for any ScionError of that kind, however it was made.
 */
export class UsageError extends ScionError {
  constructor(message: string, problems: readonly string[] = []) {
    super('usage', message, { problems });
  }

  static override [Symbol.hasInstance](x: unknown): boolean {
    return isScionError(x, 'usage', 'recipe', 'plan');
  }
}

export class HostError extends ScionError {
  constructor(message: string, status: number | null) {
    super('host', message, { data: { status } });
  }

  /** HTTP status, or null when the host could not be reached. */
  get status(): number | null {
    return hostStatus(this);
  }

  static override [Symbol.hasInstance](x: unknown): boolean {
    return isScionError(x, 'host');
  }
}
