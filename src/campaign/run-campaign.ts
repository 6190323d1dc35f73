// runCampaign: the recipes' jobs in every repository of a list. Each remote repository is
// cloned into (or fetched in) the cache, then its jobs run there exactly as `scion run` runs them in
// one repository; the reports are joined, each job tagged with its repository. `--shard` covers the
// whole list (repositories × jobs) and `--concurrency` bounds the repositories worked on at once.
import PQueue from 'p-queue';
import { cpus } from 'node:os';
import { failedJob } from '../model/failed-job.js';
import { failure, ScionError, type Failure } from '../errors.js';
import { expandJobs, type Recipe } from '../recipe/index.js';
import type { JobReport, RunReport } from '../model/types.js';
import { runRecipes, type LoadedRecipe } from '../runner/run-recipes.js';
import type { RunContext, RunOptions } from '../runner/types.js';
import { redacting } from '../redact.js';
import type { RunEvent, RunTotal } from '../runner/types.js';
import { clonePath, ensureClone } from './clone-cache.js';
import { localRepoProblem } from './locate.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoTarget } from './targets.js';
import { CostBudget } from '../agent/budget.js';
import { clusterFailures } from '../model/clusters.js';
import { sampleOf, sharesOver } from '../runner/sample.js';
import { estimateJobs, hasEach, JobCount, unitsPerRepo, type RepoShard } from './job-count.js';

export interface CampaignOptions extends Omit<RunOptions, 'repo'> {
  readonly targets: readonly RepoTarget[];
  readonly cacheDir: string;
  /** Told when a repository is being cloned or fetched, and how that ended (progress lines). */
  readonly onRepo?: (e: RepoEvent) => void;
}

export type RepoEvent =
  | { readonly type: 'clone-start'; readonly repo: string; readonly cached: boolean }
  | { readonly type: 'clone-end'; readonly repo: string; readonly action: 'cloned' | 'fetched' | 'current'; readonly sha: string; readonly repaired?: string }
  | { readonly type: 'clone-failed'; readonly repo: string; readonly message: string };

/** Where a repository's jobs ran: the clone (or local folder) and the commit they started from. */
export interface CampaignRepo {
  readonly target: RepoTarget;
  /** The repository folder the jobs ran in (the cached clone, or the local path). */
  readonly dir: string;
  /** The base commit (null for a local repository: the recipe's base or --base applies). */
  readonly base: string | null;
  /** The branch the clone fetched (the remote's default, or the list's @REF); null for a local repository. */
  readonly branch: string | null;
}

export interface CampaignReport {
  readonly report: RunReport;
  /** Every repository whose jobs ran, in list order: where publishing pushes them from. */
  readonly repos: readonly CampaignRepo[];
}

export async function runCampaign(recipes: readonly LoadedRecipe[], o: CampaignOptions, given: RunContext): Promise<CampaignReport> {
  // --max-cost covers the whole campaign: one meter, shared by every repository's jobs.
  const budget = given.budget ?? (o.maxCostUsd !== undefined ? new CostBudget(o.maxCostUsd) : undefined);
  const ctx = redacting(budget ? { ...given, budget } : given);
  // --sample N spreads its jobs over the repositories first: a repository with no share is not even cloned.
  const shares = o.sample === undefined ? null : sharesOver(o.targets.length, o.sample);
  const units = unitsPerRepo(recipes);
  const each = hasEach(recipes);
  const queue = new PQueue({ concurrency: Math.max(1, o.concurrency ?? cpus().length) });
  const repos: (CampaignRepo | null)[] = [];
  // The total is said before the first clone; each repository's own list of jobs then settles its part.
  const filtered = o.jobs !== undefined && o.jobs.length > 0;
  const count = new JobCount(o.targets.map((_, r) => estimateJobs(recipes, shardFor(o.shard, r, units, each), shares?.[r], filtered)));
  ctx.onEvent?.({ type: 'jobs', jobs: [], total: count.total() });
  // Jobs that could not run in a repository still end, in the progress as in the report.
  const unrun = (r: number, target: RepoTarget, jobs: JobReport[]): JobReport[] => {
    count.settle(r, jobs.length);
    if (ctx.onEvent) told(target.id, jobs, count, ctx.onEvent);
    return jobs;
  };

  const perRepo = await Promise.all(
    o.targets.map((target, r) =>
      queue.add(async (): Promise<JobReport[]> => {
        const shard = shardFor(o.shard, r, units, each);
        if (shard === 'none') return [];
        const share = shares?.[r];
        if (share === 0) return [];
        const limit = (jobs: JobReport[]) => (share === undefined ? jobs : sampleOf(jobs, share));
        // Interrupted before this repository was reached: no clone, no fetch; its jobs say so.
        if (o.signal?.aborted) {
          const why = `The run was interrupted before ${target.id} was cloned or fetched; nothing was done there.`;
          return unrun(r, target, limit(notRun(recipes, target, failure('interrupted', why, { repo: target.id }))));
        }
        let dir: string;
        let base: string | null = null;
        let branch: string | null = null;
        if (target.url === null) {
          // A path that is not there (or holds no repository) fails this repository's jobs alone.
          const missing = await localRepoProblem(target.path!);
          if (missing !== null) {
            o.onRepo?.({ type: 'clone-failed', repo: target.id, message: missing });
            return unrun(r, target, limit(notRun(recipes, target, failure('clone-failed', missing, { repo: target.id }, LOCAL_HINT))));
          }
          dir = target.path!;
        } else {
          o.onRepo?.({ type: 'clone-start', repo: target.id, cached: existsSync(join(clonePath(o.cacheDir, target), 'HEAD')) });
          const clone = await ensureClone(target, { cacheDir: o.cacheDir, env: ctx.env, redact: ctx.redact });
          if (!clone.ok) {
            o.onRepo?.({ type: 'clone-failed', repo: target.id, message: clone.error.message });
            return unrun(r, target, limit(notRun(recipes, target, failure('clone-failed', clone.error.message, { repo: target.id }, clone.error.hint))));
          }
          o.onRepo?.({
            type: 'clone-end',
            repo: target.id,
            action: clone.value.action,
            sha: clone.value.sha,
            ...(clone.value.repaired ? { repaired: clone.value.repaired } : {}),
          });
          dir = clone.value.gitDir;
          base = clone.value.sha;
          branch = clone.value.branch;
        }
        repos[r] = { target, dir, base, branch };
        const baseRef = base ?? target.ref ?? o.base;
        const { targets: _t, cacheDir: _c, onRepo: _o, ...rest } = o;
        let report: RunReport;
        try {
          report = await runRecipes(
            recipes,
            {
              ...rest,
              repo: dir,
              ...(baseRef !== undefined ? { base: baseRef } : {}),
              ...(shard === 'all' ? { shard: undefined } : { shard }),
              ...(share === undefined ? {} : { sample: share }),
              // Repositories run side by side; inside one, its jobs run one at a time.
              concurrency: 1,
            },
            { ...ctx, ...(ctx.onEvent ? { onEvent: inRepo(target.id, ctx.onEvent, (jobs) => (count.settle(r, jobs), count.total())) } : {}) },
          );
        } catch (e) {
          // The repository itself could not be worked in (unreadable, a base it lacks): its jobs
          // fail, the other repositories go on and the report is written.
          if (!(e instanceof ScionError)) throw e;
          const why = ctx.redact(e.message.split('\n')[0]!);
          const message =
            target.url === null
              ? `Cannot run the jobs in ${target.id}: ${why}`
              : `Cannot run the jobs in the clone of ${target.id} (${dir}): ${why}; remove that folder so the next run clones it anew.`;
          // A base one repository lacks is the campaign's to fix, not the machine's.
          const hint =
            e.kind === 'plan' ? 'Give the `base` option a commit every repository of the list has, or give each line its own base with @REF.' : undefined;
          return unrun(
            r,
            target,
            limit(notRun(recipes, target, failure(target.url === null ? 'environment' : 'clone-failed', message, { repo: target.id }, hint))),
          );
        }
        return report.jobs.map((j) => ({ ...j, repo: target.id, ...urlOf(target) }));
      }),
    ),
  );
  const jobs = perRepo.flat();
  return {
    report: {
      version: 1,
      repo: null,
      dryRun: o.dryRun ?? false,
      jobs,
      ...(budget ? { budget: { maxCostUsd: budget.maxCostUsd, spentUsd: budget.spentUsd, notStarted: budget.notStarted } } : {}),
      ...(shares ? { sample: { jobs: jobs.length, of: null, clusters: clusterFailures(jobs) } } : {}),
    },
    repos: repos.filter((r): r is CampaignRepo => r !== null && r !== undefined),
  };
}

const LOCAL_HINT = 'A local entry of the repository list must be a folder inside a git repository on this machine.';

/**
 * The run's events with each job's id prefixed by its repository (`<repo> <recipe>/<job>`): the same
 * job runs in every repository, and progress lines and the interrupt tracker tell them apart by id.
 */
function inRepo(repo: string, sink: (e: RunEvent) => void, settle: (jobs: number) => RunTotal): (e: RunEvent) => void {
  const id = (job: string) => `${repo} ${job}`;
  return (e) => {
    if (e.type === 'jobs') sink({ ...e, jobs: e.jobs.map((j) => ({ ...j, id: id(j.id), repo })), total: settle(e.jobs.length) });
    else if (e.type === 'job-end')
      sink({ ...e, job: id(e.job), report: { ...e.report, repo }, ...(e.pieces ? { pieces: e.pieces.map((p) => ({ ...p, repo })) } : {}) });
    else sink({ ...e, job: id(e.job) });
  };
}

/** Jobs of `repo` that ended without running (its clone failed, the run was interrupted first): planned and ended at once. */
function told(repo: string, jobs: readonly JobReport[], count: JobCount, sink: (e: RunEvent) => void): void {
  const id = (j: JobReport) => `${repo} ${j.recipe}/${j.name}`;
  sink({ type: 'jobs', jobs: jobs.map((j) => ({ id: id(j), recipe: j.recipe, name: j.name, branch: j.branch, steps: [], repo })), total: count.total() });
  for (const j of jobs) sink({ type: 'job-end', job: id(j), report: j });
}

/**
 * The part of repository `r`'s jobs that shard I/N holds: global unit k = r·units + j is in shard
 * k mod N + 1, so within the repository job j is in shard ((I − 1 − r·units) mod N) + 1. With `each`
 * recipes a repository is one unit.
 */
function shardFor(shard: RunOptions['shard'], r: number, units: number, each: boolean): RepoShard {
  if (!shard) return 'all';
  if (each) return r % shard.count === shard.index - 1 ? 'all' : 'none';
  const offset = r * units;
  const first = (((shard.index - 1 - offset) % shard.count) + shard.count) % shard.count;
  if (first >= units) return 'none';
  return { index: first + 1, count: shard.count };
}

/** One failed job per job the recipes would have run there (an `each` entry: one job), failed with `f`. */
function notRun(recipes: readonly LoadedRecipe[], target: RepoTarget, f: Failure): JobReport[] {
  return recipes.flatMap(({ recipe }) =>
    staticJobs(recipe).map((job) =>
      failedJob({
        recipe: recipe.name,
        name: job.name,
        description: recipe.description,
        base: '',
        branch: job.branch,
        errors: [{ step: 0, file: null, kind: f.kind, message: f.message, ...(f.hint ? { hint: f.hint } : {}) }],
        durationMs: 0,
        repo: target.id,
        ...urlOf(target),
      }),
    ),
  );
}

/** The report's `repoUrl`: the target's URL without any credentials written in it. */
function urlOf(target: RepoTarget): { repoUrl?: string } {
  if (target.url === null) return {};
  try {
    const u = new URL(target.url);
    u.username = '';
    u.password = '';
    return { repoUrl: u.toString() };
  } catch {
    return {};
  }
}

function staticJobs(recipe: Recipe): { name: string; branch: string }[] {
  const plain = recipe.jobs.filter((j) => !('each' in j));
  const eachEntries = recipe.jobs.flatMap((j) => ('each' in j ? [{ name: j.each, branch: '' }] : []));
  // No `jobs` at all: the recipe's one default job.
  const specs = plain.length > 0 || recipe.jobs.length === 0 ? expandJobs({ ...recipe, jobs: plain }, []) : [];
  return [...specs.map((j) => ({ name: j.name, branch: j.branch })), ...eachEntries];
}
