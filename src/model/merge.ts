// One report from the shards of a CI matrix (`scion run --shard I/N` on each runner).
import type { JobReport, RunReport } from './types.js';
import { usageError } from '../errors.js';

/**
 * Jobs in shard order. A job (recipe, name) seen twice keeps its first place and takes the later
 * report's content: a shard that was rerun reports the newer outcome.
 */
export function mergeReports(reports: readonly RunReport[]): RunReport {
  const first = reports[0];
  if (first === undefined) throw usageError('There are no reports to merge: pass at least one report file.');
  const repos = [...new Set(reports.map((r) => r.repo))];
  if (repos.length > 1) {
    throw usageError(
      'The reports come from different repositories; merge only the shards of one run.',
      repos.map((r) => `repo: ${r}`),
    );
  }
  if (reports.some((r) => r.dryRun !== first.dryRun)) {
    throw usageError('Some reports are dry runs and some are not; merge only the shards of one run.');
  }
  const jobs = new Map<string, JobReport>();
  for (const r of reports) {
    // In a campaign the same recipe and job run in every repository: the repository is part of the key.
    for (const j of r.jobs) jobs.set(JSON.stringify([j.repo ?? null, j.recipe, j.name]), j);
  }
  return { version: 1, repo: first.repo, dryRun: first.dryRun, jobs: [...jobs.values()] };
}
