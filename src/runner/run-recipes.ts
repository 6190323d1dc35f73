// runRecipes: load nothing, decide everything up front (bases, trees, jobs, shards), then run the
// jobs in a queue. The base tree of each commit is listed once per run and shared by its jobs.
import { cpus } from 'node:os';
import PQueue from 'p-queue';
import { closeRepo, commitSignatures, openRepo, type Repo, type Signatures } from '../git/index.js';
import { globTest, matcher, planError, type JobSpec, type Recipe } from '../recipe/index.js';
import { StructuralPool } from '../structural/index.js';
import type { JobReport, RunReport } from '../model/types.js';
import { guardJob } from './environment.js';
import { sweepLeftovers } from './job-lock.js';
import { jobId, runJob } from './job.js';
import { interruptedReport, yieldToSignals } from './interrupt.js';
import { hashingSinks, writingSinks } from './objects.js';
import { stepLabel } from './steps/index.js';
import { planJobs, type LoadedRecipe } from './plan-jobs.js';
import { sweepPools, WorktreePool } from './worktree-pool.js';
import type { RunContext, RunOptions } from './types.js';
import { CostBudget } from '../agent/budget.js';
import { clusterFailures } from '../model/clusters.js';
import { sampleOf } from './sample.js';
import { scanWorkersFromEnv } from './scan-workers.js';

export type { LoadedRecipe };

const FALLBACK_IDENTITY = { name: 'scion', email: 'scion@localhost' };

export async function runRecipes(recipes: readonly LoadedRecipe[], options: RunOptions, ctx: RunContext): Promise<RunReport> {
  const workers = scanWorkersFromEnv(ctx.env);
  const scan = workers === undefined ? ctx.git?.scan : { workers, ...ctx.git?.scan };
  const repo = await openRepo(options.repo, { env: ctx.env, ...ctx.git, ...(scan ? { scan } : {}) });
  // The repository's packs and caches go when its jobs are done: a campaign over a long list opens
  // one repository after another, and memory must not grow with the list.
  // The child processes of structural steps, shared by the run's jobs, started at the first one.
  const structural: { pool: StructuralPool | null } = { pool: null };
  try {
    return await runIn(repo, recipes, options, ctx, () => (structural.pool ??= new StructuralPool()));
  } finally {
    structural.pool?.close();
    closeRepo(repo);
  }
}

async function runIn(
  repo: Repo,
  recipes: readonly LoadedRecipe[],
  options: RunOptions,
  given: RunContext,
  structural: () => StructuralPool,
): Promise<RunReport> {
  // One meter for the run's --max-cost (a campaign passes its own, shared by every repository).
  const ownBudget = given.budget === undefined && options.maxCostUsd !== undefined ? new CostBudget(options.maxCostUsd) : null;
  const ctx: RunContext = ownBudget ? { ...given, budget: ownBudget } : given;
  const planned = await planJobs(repo, recipes, options);

  const shard = options.shard;
  // --shard splits the full expanded list (job k belongs to shard k mod N + 1), then --job
  // picks from this shard: the same --shard over several machines covers every selected job once.
  const sharded = shard ? planned.filter((_, k) => (k % shard.count) + 1 === shard.index) : planned;
  const chosen = options.jobs && options.jobs.length > 0 ? pickJobs(planned, sharded, options.jobs) : sharded;
  const mine = options.sample === undefined ? chosen : sampleOf(chosen, options.sample);
  ctx.onEvent?.({
    type: 'jobs',
    jobs: mine.map(({ job }) => ({
      id: jobId(job),
      recipe: job.recipe.name,
      name: job.name,
      branch: job.branch,
      steps: [...job.recipe.steps.map(stepLabel), ...job.recipe.verify.map((v) => `verify ${v.run}`)],
    })),
  });

  const identities = new Map<Recipe, Signatures>();
  let saidUnsigned = false;
  const identityOf = async (recipe: Recipe, job: string): Promise<Signatures> => {
    if (!identities.has(recipe))
      identities.set(recipe, commitSignatures(repo, { env: ctx.env, ...(recipe.author ? { author: recipe.author } : {}), fallback: FALLBACK_IDENTITY }));
    const sig = identities.get(recipe)!;
    if (sig.gpgSignIgnored && !saidUnsigned && !options.dryRun) {
      saidUnsigned = true;
      ctx.onEvent?.({ type: 'log', job, message: 'commit.gpgsign is true, but scion does not sign commits (nor run hooks): its commits are unsigned.' });
    }
    return sig;
  };
  // What killed runs left half done (a lock being taken, an owner's file, their worktrees) goes before this run writes.
  if (!options.dryRun) {
    sweepLeftovers(repo);
    await sweepPools(repo);
  }
  const sinks = options.dryRun ? hashingSinks(repo) : writingSinks(repo);
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? cpus().length) });
  // Worktrees for the jobs whose commands must run, reused from job to job; removed when the run ends
  // (and, should a job throw, once the jobs still running give theirs back).
  const pool = options.dryRun ? null : new WorktreePool(repo, options.signal);
  const reports = await Promise.all(
    mine.map(({ job, base }) =>
      queue.add(async (): Promise<JobReport[]> => {
        // Once the run is interrupted no job starts; those still queued report `interrupted`. The
        // turn of the event loop first lets a signal sent during the previous (synchronous) job in.
        await yieldToSignals();
        if (options.signal?.aborted) return [interruptedReport({ job, base: base.sha, step: 0, started: Date.now() })];
        return guardJob(repo, job, base.sha, ctx, async () =>
          runJob({
            repo,
            recipe: job.recipe,
            job,
            base: base.sha,
            baseTree: base.tree,
            entries: base.entries,
            identity: await identityOf(job.recipe, jobId(job)),
            schemaFor: schemaLookup(job.recipe),
            options,
            ctx,
            sinks,
            structural,
            ...(pool ? { pool } : {}),
          }),
        );
      }),
    ),
  ).finally(() => pool?.close());
  const jobs = reports.flat();
  return {
    version: 1,
    repo: repo.workTree ?? repo.commonDir,
    dryRun: options.dryRun ?? false,
    jobs,
    ...(ownBudget ? { budget: { maxCostUsd: ownBudget.maxCostUsd, spentUsd: ownBudget.spentUsd, notStarted: ownBudget.notStarted } } : {}),
    ...(options.sample === undefined ? {} : { sample: { jobs: mine.length, of: chosen.length, clusters: clusterFailures(jobs) } }),
  };
}

/**
 * The jobs whose name (or recipe/name) matches one of the --job globs. A pattern that matches no job
 * of the whole run is a mistake (a typo must not end in a silent "0 jobs"): a `plan` error listing the names.
 */
function pickJobs<T extends { job: JobSpec }>(all: readonly T[], mine: readonly T[], patterns: readonly string[]): T[] {
  const tests = patterns.map((p) => ({ p, test: globTest([p], { dot: true }) }));
  const hits = (j: JobSpec, t: (s: string) => boolean) => t(j.name) || t(jobId(j));
  const unmatched = tests.filter((t) => !all.some(({ job }) => hits(job, t.test))).map((t) => t.p);
  if (unmatched.length > 0) {
    const names = all.map(({ job }) => jobId(job));
    const shown = names.slice(0, 50).join(', ') + (names.length > 50 ? `, … (${names.length - 50} more)` : '');
    throw planError(
      'no-such-job',
      `In the \`jobs\` option, ${unmatched.map((p) => JSON.stringify(p)).join(', ')} matches no job; the jobs are: ${shown}.`,
      unmatched.map((p) => `In the \`jobs\` option, ${p} matches no job name`),
    );
  }
  return mine.filter(({ job }) => tests.some((t) => hits(job, t.test)));
}

function schemaLookup(recipe: Recipe): (path: string) => object | undefined {
  const rules = (recipe.schemas ?? []).map((s) => ({ match: matcher({ include: s.files, exclude: [] }), schema: s.schema }));
  return (path) => rules.find((r) => r.match(path))?.schema as object | undefined;
}
