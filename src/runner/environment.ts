// What one job meets is that job's failure, not the run's end: the machine refusing (disk full,
// permissions: OS calls throw errno errors, the git layer coded ones), a damaged object only this job
// reads, a worktree or pack name another process holds. Each becomes one Failure with a kind the
// report knows, the job ends `failed` with the path and the fix, and the run goes on and writes its
// report. Only scion's own mistakes (a kind no job's work can meet) are thrown on.
import { failure, isJobKind, isScionError, type ErrorKind, type Failure, type ScionErrorKind } from '../errors.js';
import { refusalToGitError, repoRefusal, type Repo } from '../git/index.js';
import type { JobSpec } from '../recipe/index.js';
import { failedJob } from '../model/failed-job.js';
import type { JobReport } from '../model/types.js';
import { jobId } from './job.js';
import type { RunContext } from './types.js';

/**
 * The report's kind for an error of the git layer a job met: another process holding a name or a
 * branch is `locked`; a damaged or vanished object, pack or repository is the machine's (`environment`);
 * a path git refuses in the base tree is `outside`.
 */
const JOB_KIND_OF: Readonly<Partial<Record<ScionErrorKind, ErrorKind>>> = {
  'in-use': 'locked',
  'ref-moved': 'locked',
  corrupt: 'environment',
  'pack-gone': 'environment',
  'missing-object': 'environment',
  'not-a-repository': 'environment',
  'bad-path': 'outside',
};

/**
 * The job failure `e` stands for, or null when `e` is scion's own mistake: an error of no kind, a
 * caller's broken rule (`invalid-argument`), or a kind settled before any job runs (how scion was
 * called, the recipe, the plan, its refs and revisions) or that no job meets (a host, a remote).
 */
export function jobFailure(e: unknown): Failure | null {
  const err = isScionError(e) ? e : refusalToGitError(e, pathOf(e), 'write');
  if (!isScionError(err)) return null;
  const kind = isJobKind(err.kind) ? err.kind : JOB_KIND_OF[err.kind];
  if (kind === undefined) return null;
  // The git layer's own word for it stays in the data.
  const data = { ...err.data, ...(kind === err.kind ? {} : { gitKind: err.kind }) };
  return failure(kind, err.message, data, err.hint);
}

function pathOf(e: unknown): string {
  const p = typeof e === 'object' && e !== null && 'path' in e ? (e as { path: unknown }).path : undefined;
  return typeof p === 'string' ? p : 'a file';
}

/**
 * Runs the job unless git would refuse the repository (safe.directory), and turns an error the job
 * meets (jobFailure) into a failed JobReport. scion's own mistakes are rethrown. A job split by owner
 * gives one report per piece.
 */
export async function guardJob(repo: Repo, job: JobSpec, base: string, ctx: RunContext, run: () => Promise<JobReport[]>): Promise<JobReport[]> {
  const started = Date.now();
  const refusal = repoRefusal(repo);
  let f: Failure | null = refusal ? jobFailure(refusal) : null;
  if (f === null) {
    try {
      return await run();
    } catch (e) {
      f = jobFailure(e);
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
    errors: [
      {
        step: job.recipe.steps.length + job.recipe.verify.length,
        file: null,
        kind: f.kind,
        ...(f.code === undefined ? {} : { code: f.code }),
        message: f.message,
        ...(f.hint === undefined ? {} : { hint: f.hint }),
      },
    ],
    durationMs: Date.now() - started,
  });
  ctx.onEvent?.({ type: 'job-end', job: jobId(job), report });
  return [report];
}
