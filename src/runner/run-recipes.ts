// runRecipes: load nothing, decide everything up front (bases, trees, jobs, shards), then run the
// jobs in a queue. The base tree of each commit is listed once per run and shared by its jobs.
import { cpus } from 'node:os';
import PQueue from 'p-queue';
import { UsageError } from '../errors.js';
import { commitTree, gitIdentity, listTree, openRepo, resolveCommit, type Identity, type Repo, type TreeEntry } from '../git/index.js';
import { expandJobs, matcher, staticPrefixes, type JobSpec, type Recipe } from '../recipe/index.js';
import type { JobReport, RunReport } from '../model/types.js';
import { jobId, runJob } from './job.js';
import { interruptedReport } from './interrupt.js';
import { hashingStore, writingStore } from './objects.js';
import { needsDisk, stepLabel } from './steps/index.js';
import type { RunContext, RunOptions } from './types.js';

export interface LoadedRecipe {
  readonly file: string;
  readonly recipe: Recipe;
}

interface BaseTree {
  readonly sha: string;
  readonly tree: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  readonly dirs: readonly string[];
}

const FALLBACK_IDENTITY = { name: 'scion', email: 'scion@localhost' };

export async function runRecipes(recipes: readonly LoadedRecipe[], options: RunOptions, ctx: RunContext): Promise<RunReport> {
  const repo = await openRepo(options.repo);
  const trees = new Map<string, Promise<BaseTree>>();
  const planned: { job: JobSpec; file: string; base: BaseTree }[] = [];

  for (const { file, recipe } of recipes) {
    const ref = options.base ?? recipe.base ?? 'HEAD';
    const sha = await resolveCommit(repo, ref);
    if (sha === null) {
      throw new UsageError(`${file}: base "${ref}" is not a commit in ${repo.workTree ?? repo.commonDir}; fix the recipe's base or pass --base.`);
    }
    // A worktree holds the whole base tree (SPEC §3: `npx tsc` needs the root package.json); only
    // object-level jobs may list just the subtrees their selection can reach.
    const onDisk = recipe.steps.some(needsDisk) || recipe.verify.length > 0 || (options.keepWorktrees === true && options.dryRun !== true);
    const prefixes = onDisk ? [] : staticPrefixes(recipe.files.include);
    const key = `${sha}\0${prefixes.join('\0')}`;
    if (!trees.has(key)) trees.set(key, loadBase(repo, sha, prefixes));
    const base = await trees.get(key)!;
    for (const job of expandJobs(recipe, base.dirs)) planned.push({ job, file, base });
  }

  const shard = options.shard;
  const mine = shard ? planned.filter((_, k) => (k % shard.count) + 1 === shard.index) : planned;
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

  const identities = new Map<Recipe, Promise<Identity>>();
  const identityOf = (recipe: Recipe) => {
    if (!identities.has(recipe)) identities.set(recipe, resolveIdentity(repo, recipe));
    return identities.get(recipe)!;
  };
  const store = options.dryRun ? hashingStore(repo) : writingStore(repo);
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? cpus().length) });
  const reports = await Promise.all(
    mine.map(({ job, base }) =>
      queue.add(async (): Promise<JobReport> =>
        // Once the run is interrupted no job starts; those still queued report `interrupted`.
        options.signal?.aborted ? interruptedReport({ job, base: base.sha, step: 0, started: Date.now() }) : runJob({
          repo,
          recipe: job.recipe,
          job,
          base: base.sha,
          baseTree: base.tree,
          entries: base.entries,
          identity: await identityOf(job.recipe),
          schemaFor: schemaLookup(job.recipe),
          options,
          ctx,
          store,
        }),
      ),
    ),
  );
  return { version: 1, repo: repo.workTree ?? repo.commonDir, dryRun: options.dryRun ?? false, jobs: reports };
}

async function loadBase(repo: Repo, sha: string, prefixes: readonly string[]): Promise<BaseTree> {
  const tree = await commitTree(repo, sha);
  const list = await listTree(repo, tree, { prefixes });
  const entries = new Map(list.map((e) => [e.path, e] as const));
  const dirs = new Set<string>();
  for (const e of list) {
    for (let i = e.path.indexOf('/'); i !== -1; i = e.path.indexOf('/', i + 1)) dirs.add(e.path.slice(0, i));
  }
  return { sha, tree, entries, dirs: [...dirs].sort() };
}

async function resolveIdentity(repo: Repo, recipe: Recipe): Promise<Identity> {
  if (recipe.author) return recipe.author;
  return (await gitIdentity(repo)) ?? FALLBACK_IDENTITY;
}

function schemaLookup(recipe: Recipe): (path: string) => object | undefined {
  const rules = (recipe.schemas ?? []).map((s) => ({ match: matcher({ include: s.files, exclude: [] }), schema: s.schema }));
  return (path) => rules.find((r) => r.match(path))?.schema as object | undefined;
}
