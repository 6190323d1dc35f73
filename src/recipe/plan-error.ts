// A run that cannot be planned: a base that is no commit, jobs that collide or have bad branch names,
// an `each` or a `--job` pattern that matches nothing. Nothing has run. The library throws the one
// ScionError with kind `plan` (`data.reason` says which); the CLI maps it to exit 2 and prints the
// message and each problem.
import { ScionError } from '../errors.js';

export type PlanErrorCode = 'bad-base' | 'bad-branch' | 'conflicting-jobs' | 'each-matches-nothing' | 'no-such-job';

export function planError(reason: PlanErrorCode, message: string, problems: readonly string[] = []): ScionError {
  return new ScionError('plan', message, { data: { reason }, problems });
}

/** Why a `plan` error was thrown, or undefined for any other error. */
export function planReason(e: unknown): PlanErrorCode | undefined {
  return e instanceof ScionError && e.kind === 'plan' ? (e.data['reason'] as PlanErrorCode) : undefined;
}
