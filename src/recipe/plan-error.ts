// A run that cannot be planned: a base that is no commit, jobs that collide or have bad branch names,
// an `each` or a `--job` pattern that matches nothing. Nothing has run. The library throws this
// coded error (not the CLI's UsageError); the CLI maps it to exit 2 and prints message and problems.

export type PlanErrorCode = 'bad-base' | 'bad-branch' | 'conflicting-jobs' | 'each-matches-nothing' | 'no-such-job';

export class PlanError extends Error {
  readonly code: PlanErrorCode;
  readonly problems: readonly string[];

  constructor(code: PlanErrorCode, message: string, problems: readonly string[] = []) {
    super(message);
    this.name = 'PlanError';
    this.code = code;
    this.problems = problems;
  }
}
