// What a run does with an interrupt once it has been told (RunOptions.signal): wait for the
// run's own result — the runner ends child processes, removes unfinished worktrees and reports the
// jobs it stopped as `interrupted` — and only if the run does not settle within a grace period (or
// throws instead of reporting), build the report from what the progress events said, so an
// interrupted run always leaves a report (the CLI then exits 130).
import { failure } from '../errors.js';
import { failedJob } from '../model/failed-job.js';
import type { JobReport, RunReport } from '../model/types.js';
import type { PlannedJob, RunEvent } from '../runner/types.js';

/** How long an aborted run may take to wind down before the CLI reports without it. */
export const INTERRUPT_GRACE_MS = 10_000;

/** Follows the run's events: which jobs were planned and which have ended. */
export class RunTracker {
  readonly planned: PlannedJob[] = [];
  readonly ended = new Map<string, readonly JobReport[]>();
  readonly startedAt = Date.now();

  onEvent(e: RunEvent): void {
    if (e.type === 'jobs') this.planned.push(...e.jobs);
    else if (e.type === 'job-end') this.ended.set(e.job, e.pieces ?? [e.report]);
  }

  /** The report as far as the events tell it: ended jobs as reported, the others `interrupted`. */
  report(repo: string | null, dryRun: boolean): RunReport {
    const baseOf = new Map([...this.ended.values()].flat().map((r) => [r.recipe, r.base]));
    const jobs = this.planned.flatMap((p): JobReport[] => {
      const done = this.ended.get(p.id);
      if (done) return [...done];
      const f = failure('interrupted', 'The run was interrupted (SIGINT/SIGTERM) before this job ended; nothing of it was kept.');
      return [
        failedJob({
          recipe: p.recipe,
          name: p.name,
          base: baseOf.get(p.recipe) ?? '',
          branch: p.branch,
          errors: [{ step: 0, file: null, kind: f.kind, message: f.message }],
          durationMs: Date.now() - this.startedAt,
          repo: p.repo,
        }),
      ];
    });
    return { version: 1, repo, dryRun, jobs };
  }
}

/**
 * The run's result; once `signal` has fired, whichever comes first of the run's own result and the
 * grace period (then the tracker's report). Without an abort this is just `await run`.
 */
export async function settle(
  run: Promise<RunReport>,
  signal: AbortSignal | undefined,
  fallback: () => RunReport,
  graceMs = INTERRUPT_GRACE_MS,
): Promise<RunReport> {
  if (!signal) return run;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<RunReport>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(fallback()), graceMs);
      timer.unref();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([
      run.catch((e: unknown) => {
        // A run that throws because it was aborted still owes the user a report.
        if (signal.aborted) return fallback();
        throw e;
      }),
      late,
    ]);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
