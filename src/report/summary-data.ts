// Figures every renderer shows the same way: a job's label, its line counts, the run's totals.
import type { JobReport, JobStatus, RunReport, Usage } from '../model/types.js';
import { num, plural } from '../util/plural.js';

/** `recipe` when the job is the recipe's only job, else `recipe/job`. */
export function jobLabel(job: JobReport): string {
  return job.name === job.recipe ? job.recipe : `${job.recipe}/${job.name}`;
}

/** A repository as lines name it: `acme/app` for `github.com/acme/app` (the host is the same on every line); a local path as it is. */
export function repoShown(repo: string): string {
  if (repo.startsWith('/') || repo.startsWith('.')) return repo;
  return repo.split('/').slice(1).join('/') || repo;
}

export interface LineCounts {
  readonly files: number;
  readonly added: number;
  readonly removed: number;
}

export function jobCounts(job: JobReport): LineCounts {
  let added = 0;
  let removed = 0;
  for (const f of job.files) {
    added += f.added;
    removed += f.removed;
  }
  return { files: job.files.length, added, removed };
}

/** "12,345 input / 678 output tokens (cache: 9 read, 10 written), $0.0123" */
export function formatUsage(u: Usage): string {
  const parts = [`${num(u.inputTokens)} input / ${num(u.outputTokens)} output tokens`];
  const read = u.cacheReadTokens ?? 0;
  const written = u.cacheWriteTokens ?? 0;
  if (read > 0 || written > 0) parts.push(` (cache: ${num(read)} read, ${num(written)} written)`);
  parts.push(`, ${formatCost(u.costUsd)}`);
  const cached = u.cachedFiles?.length ?? 0;
  if (cached > 0) parts.push(`; ${plural(cached, 'file')} answered from the response cache`);
  return parts.join('');
}

export function formatCost(usd: number): string {
  // Cents hide small agent runs; four decimals show them without pretending to more precision.
  return `$${usd >= 1 ? usd.toFixed(2) : usd.toFixed(4)}`;
}

/** What a file list says after a file's counts: new, and the matches of the structural steps that changed it. */
export function fileNotes(f: { readonly created?: boolean; readonly matches?: number }): string {
  return `${f.created ? ' (new file)' : ''}${f.matches === undefined ? '' : ` (${plural(f.matches, 'match', 'matches')})`}`;
}

export function statusCounts(report: RunReport): Record<JobStatus, number> {
  const counts: Record<JobStatus, number> = { changed: 0, unchanged: 0, empty: 0, failed: 0 };
  for (const j of report.jobs) counts[j.status] += 1;
  return counts;
}

/** "3 jobs: 2 changed, 1 failed" (zero counts left out). */
export function statusLine(report: RunReport): string {
  const counts = statusCounts(report);
  const parts = (Object.keys(counts) as JobStatus[]).filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  return `${plural(report.jobs.length, 'job')}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

/** The distinct recipes of a run, in order of first appearance, with the first description seen. */
export function recipesOf(report: RunReport): { name: string; description: string | undefined }[] {
  const seen = new Map<string, string | undefined>();
  for (const j of report.jobs) {
    if (!seen.has(j.recipe)) seen.set(j.recipe, j.description);
    else if (seen.get(j.recipe) === undefined && j.description !== undefined) seen.set(j.recipe, j.description);
  }
  return [...seen].map(([name, description]) => ({ name, description }));
}

/** A pull-request style title: the description of a single recipe, else the recipe names. */
export function reportTitle(report: RunReport): string {
  const recipes = recipesOf(report);
  if (recipes.length === 0) return 'scion: no jobs';
  if (recipes.length === 1) {
    const r = recipes[0]!;
    return r.description ? `${oneLine(r.description)} (scion: ${r.name})` : `scion: ${r.name}`;
  }
  return `scion: ${recipes.map((r) => r.name).join(', ')}`;
}

export function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/** Files of a job by group, groups in the order their first file appears (the commit order). */
export function filesByGroup<F extends { readonly group: string }>(files: readonly F[]): [string, F[]][] {
  const groups = new Map<string, F[]>();
  for (const f of files) {
    const list = groups.get(f.group);
    if (list) list.push(f);
    else groups.set(f.group, [f]);
  }
  return [...groups];
}

/**
 * The steps of a job that ran and found nothing to do: no file changed and none already applied (a
 * `replace` whose old_string matches nothing, a glob with a typo), and did not fail. Empty when the report has no `steps`.
 */
export function idleSteps(job: JobReport): { step: number; kind: string }[] {
  // A step that failed did not "change nothing": its error says what happened. A step that only counts
  // (an astgrep rule without a fix) changes nothing by design: never idle either.
  const failed = new Set(job.errors.map((e) => e.step));
  return (job.steps ?? [])
    .filter((s) => s.changed === 0 && s.alreadyApplied === 0 && s.found === undefined && !failed.has(s.step))
    .map((s) => ({ step: s.step, kind: s.kind }));
}

const SKIP_REASONS: Readonly<Record<string, string>> = {
  'already-applied': 'already applied',
  'outside-selection': 'changed outside the selection (put back, not committed)',
  binary: 'binary file',
  'lfs-pointer': 'Git LFS pointer',
  submodule: 'submodule',
  gitlink: 'submodule',
  symlink: 'symbolic link',
  'syntax-error': 'had syntax errors already (not rewritten)',
};

/** Why a file was skipped, in words; a reason this list does not know is shown as the report has it. */
export function skipReason(reason: string): string {
  return SKIP_REASONS[reason] ?? reason;
}
