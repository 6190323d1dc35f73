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

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: Failure): Result<T> => ({ ok: false, error });

/** A Failure as a throwable, serialisable error. */
export class ScionError extends Error {
  readonly kind: ErrorKind;
  readonly code: number | undefined;
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(f: Failure) {
    super(f.message);
    this.name = 'ScionError';
    this.kind = f.kind;
    this.code = f.code;
    this.data = f.data;
  }

  toJSON(): Failure {
    return failure(this.kind, this.message, this.data as Record<string, unknown> | undefined);
  }
}

/**
 * A mistake in how scion was called or in a recipe: nothing was run. The CLI maps it to exit 2 and
 * prints `message` (one sentence naming the file and what to do) and each of `problems`.
 */
export class UsageError extends Error {
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[] = []) {
    super(message);
    this.name = 'UsageError';
    this.problems = problems;
  }
}
