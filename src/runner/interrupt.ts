// What an interrupted job reports: status failed with kind `interrupted`, no ref, no
// commits and no worktree left on disk. A job the interrupt caught before it started reports the same.
import { failure, type Failure } from '../errors.js';
import type { JobSpec } from '../recipe/index.js';
import { failedJob } from '../model/failed-job.js';
import type { ErrorReport, JobReport, SkipReport, Usage } from '../model/types.js';

/**
 * One turn of the event loop. A signal handler (the CLI's SIGINT) runs only when the loop turns, and
 * an object-level job can be synchronous from start to end: the queue and the ref update call this
 * before they look at the abort signal, so an interrupt already sent is seen there.
 */
export function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface InterruptedJob {
  readonly job: JobSpec;
  readonly base: string;
  /** The step that did not run to its end (0-based; verify commands count on). */
  readonly step: number;
  readonly started: number;
  readonly errors?: readonly ErrorReport[];
  readonly skipped?: readonly SkipReport[];
  readonly usage?: Usage;
}

export function interruptedReport(o: InterruptedJob): JobReport {
  const f = failure('interrupted', `The run was interrupted before ${o.job.recipe.name}/${o.job.name} finished; no branch was written. Run it again.`);
  return unfinishedReport(o, f);
}

/** A job that ended without writing anything, because of `why` (an interrupt, another run's lock). */
export function unfinishedReport(o: InterruptedJob, why: Failure): JobReport {
  const { job } = o;
  const errors = [...(o.errors ?? [])];
  // A command ended by the interrupt has already said so; otherwise `why` is the job's error.
  if (!errors.some((e) => e.kind === why.kind)) {
    errors.push({ step: o.step, file: null, kind: why.kind, ...(why.code === undefined ? {} : { code: why.code }), message: why.message });
  }
  return failedJob({
    recipe: job.recipe.name,
    name: job.name,
    description: job.recipe.description,
    base: o.base,
    branch: job.branch,
    errors,
    ...(o.skipped ? { skipped: o.skipped } : {}),
    ...(o.usage ? { usage: o.usage } : {}),
    durationMs: Date.now() - o.started,
  });
}
