// How many jobs a campaign holds, said before its first clone so progress reads `[3/16]` from the start
// instead of a total that grows as each repository is reached. A repository's jobs are exact from the
// recipes alone unless an `each` entry (its directories are known only from the clone's tree) or a
// `--job` glob (known only once matched) makes them an estimate; the total says it is still counting
// until every such repository has reported its real jobs.
import type { LoadedRecipe } from '../runner/run-recipes.js';
import type { RunTotal } from '../runner/types.js';

/** The part of a repository's jobs its shard holds: all, none, or shard I/N of its own units. */
export type RepoShard = 'all' | 'none' | { readonly index: number; readonly count: number };

export interface JobEstimate {
  readonly jobs: number;
  /** False while the number is a guess the repository's own expansion will replace. */
  readonly exact: boolean;
}

/**
 * Jobs per repository before expansion: `each` entries become known only from a repository's tree,
 * so sharding counts each `jobs` entry (and an `each` entry) as one unit. For recipes without
 * `each`, this is exactly the expanded job list of a run in one repository.
 */
export function unitsPerRepo(recipes: readonly LoadedRecipe[]): number {
  return recipes.reduce((n, { recipe }) => n + Math.max(1, recipe.jobs.length), 0);
}

export function hasEach(recipes: readonly LoadedRecipe[]): boolean {
  return recipes.some(({ recipe }) => recipe.jobs.some((j) => 'each' in j));
}

/** The jobs one repository will run: its shard's units, at most its sample share. */
export function estimateJobs(recipes: readonly LoadedRecipe[], shard: RepoShard, share: number | undefined, filtered: boolean): JobEstimate {
  if (shard === 'none' || share === 0) return { jobs: 0, exact: true };
  const units = unitsPerRepo(recipes);
  let jobs = shard === 'all' ? units : Array.from({ length: units }, (_, k) => k).filter((k) => k % shard.count === shard.index - 1).length;
  if (share !== undefined) jobs = Math.min(jobs, share);
  return { jobs, exact: !hasEach(recipes) && !filtered };
}

/** The campaign's running total: each repository's estimate, replaced by its real count once known. */
export class JobCount {
  private readonly jobs: number[];
  private readonly exact: boolean[];

  constructor(estimates: readonly JobEstimate[]) {
    this.jobs = estimates.map((e) => e.jobs);
    this.exact = estimates.map((e) => e.exact);
  }

  /** Repository `r` has said how many jobs it runs. */
  settle(r: number, jobs: number): void {
    this.jobs[r] = jobs;
    this.exact[r] = true;
  }

  total(): RunTotal {
    return { jobs: this.jobs.reduce((a, b) => a + b, 0), counting: this.exact.some((x) => !x), repositories: this.jobs.length };
  }
}
