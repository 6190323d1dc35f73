// The machine refusing (kind `environment`) is a failed job, not a bug: the git layer throws
// coded GitErrors, OS calls elsewhere throw errno errors; both become one Failure here, and the
// job that met it ends `failed` with the path and the fix while the run goes on and its report is
// written.
import { failure, type Failure } from '../errors.js';
import { refusalToGitError, GitError, repoRefusal, type Repo } from '../git/index.js';
import type { JobSpec } from '../recipe/index.js';
import { failedJob } from '../model/failed-job.js';
import type { JobReport } from '../model/types.js';
import { jobId } from './job.js';
import type { RunContext } from './types.js';

/** The environment failure `e` stands for, or null when `e` is something else (a real bug). */
export function environmentFailure(e: unknown): Failure | null {
  const err = e instanceof GitError ? e : refusalToGitError(e, pathOf(e), 'write');
  if (err instanceof GitError && err.code === 'environment') return failure('environment', err.message, { ...err.data });
  return null;
}

function pathOf(e: unknown): string {
  const p = typeof e === 'object' && e !== null && 'path' in e ? (e as { path: unknown }).path : undefined;
  return typeof p === 'string' ? p : 'a file';
}

/**
 * Runs the job unless git would refuse the repository (safe.directory), and turns an environment
 * error the job meets into a failed JobReport. Anything else is rethrown. A job split by owner gives
 * one report per piece.
 */
export async function guardJob(repo: Repo, job: JobSpec, base: string, ctx: RunContext, run: () => Promise<JobReport[]>): Promise<JobReport[]> {
  const started = Date.now();
  const refusal = repoRefusal(repo);
  let f: Failure | null = refusal ? environmentFailure(refusal) : null;
  if (f === null) {
    try {
      return await run();
    } catch (e) {
      f = environmentFailure(e);
      if (f === null) throw e;
    }
  } else {
    ctx.onEvent?.({ type: 'job-start', job: jobId(job) });
  }
  const report = failedJob({
    recipe: job.recipe.name,
    name: job.name,
    description: job.recipe.description,
    base,
    branch: job.branch,
    errors: [{ step: job.recipe.steps.length + job.recipe.verify.length, file: null, kind: f.kind, message: f.message }],
    durationMs: Date.now() - started,
  });
  ctx.onEvent?.({ type: 'job-end', job: jobId(job), report });
  return [report];
}
