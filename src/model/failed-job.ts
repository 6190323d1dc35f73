// The report of a job that ended `failed` having written nothing: no commits, no files, no
// head and no worktree. Interrupts, another run's lock, an environment refusal and a repository that
// could not be cloned all end a job this way; this is the one place its shape is built.
import type { ErrorReport, JobReport, SkipReport, Usage } from './types.js';
import { ZERO_USAGE } from './usage.js';

export interface FailedJob {
  readonly recipe: string;
  readonly name: string;
  readonly description?: string | undefined;
  readonly base: string;
  readonly branch: string;
  readonly errors: readonly ErrorReport[];
  readonly skipped?: readonly SkipReport[];
  readonly usage?: Usage;
  readonly durationMs: number;
  readonly repo?: string | undefined;
  readonly repoUrl?: string | undefined;
}

export function failedJob(j: FailedJob): JobReport {
  return {
    recipe: j.recipe,
    name: j.name,
    ...(j.description ? { description: j.description } : {}),
    base: j.base,
    branch: j.branch,
    status: 'failed',
    head: null,
    worktree: null,
    commits: [],
    files: [],
    errors: [...j.errors],
    skipped: [...(j.skipped ?? [])],
    usage: j.usage ?? ZERO_USAGE,
    durationMs: j.durationMs,
    ...(j.repo !== undefined ? { repo: j.repo } : {}),
    ...(j.repoUrl !== undefined ? { repoUrl: j.repoUrl } : {}),
  };
}
