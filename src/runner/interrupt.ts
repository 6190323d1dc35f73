// What an interrupted job reports (SPEC §1): status failed with kind `interrupted`, no ref, no
// commits and no worktree left on disk. A job the interrupt caught before it started reports the same.
import { failure } from '../errors.js';
import type { JobSpec } from '../recipe/index.js';
import type { ErrorReport, JobReport, SkipReport, Usage } from '../model/types.js';

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
  const { job } = o;
  const errors = [...(o.errors ?? [])];
  // A command ended by the interrupt has already said so; otherwise the interrupt is the job's error.
  if (!errors.some((e) => e.kind === 'interrupted')) {
    const f = failure('interrupted', `The run was interrupted before ${job.recipe.name}/${job.name} finished; no branch was written. Run it again.`);
    errors.push({ step: o.step, file: null, kind: f.kind, message: f.message });
  }
  return {
    recipe: job.recipe.name,
    name: job.name,
    ...(job.recipe.description ? { description: job.recipe.description } : {}),
    base: o.base,
    branch: job.branch,
    status: 'failed',
    head: null,
    worktree: null,
    commits: [],
    files: [],
    errors,
    skipped: [...(o.skipped ?? [])],
    usage: o.usage ?? { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    durationMs: Date.now() - o.started,
  };
}
