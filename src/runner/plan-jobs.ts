// The one expansion of recipes into jobs in a repository: each recipe's base resolved, its base tree
// listed (once per commit and selection, shared by the jobs), and its jobs expanded over that tree's
// directories. A run plans its jobs here, and so does anything that must name the same jobs a run
// would (the status of a recipe's pull requests).
import { listTree, resolveCommit, treeOfCommit, type Repo, type TreeEntry } from '../git/index.js';
import { expandJobs, planError, staticPrefixes, type JobSpec, type Recipe } from '../recipe/index.js';
import { namedFile, needsDisk } from './steps/index.js';
import type { RunOptions } from './types.js';

export interface LoadedRecipe {
  readonly file: string;
  readonly recipe: Recipe;
}

export interface BaseTree {
  readonly sha: string;
  readonly tree: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  readonly dirs: readonly string[];
}

export interface PlannedSpec {
  readonly job: JobSpec;
  /** The recipe file the job comes from. */
  readonly file: string;
  readonly base: BaseTree;
}

/**
 * Every job of `recipes` in `repo`, in recipe order, with its base. A base that names no commit is a
 * `plan` error (bad-base) naming the recipe file.
 */
export async function planJobs(
  repo: Repo,
  recipes: readonly LoadedRecipe[],
  options: Pick<RunOptions, 'base' | 'dryRun' | 'keepWorktrees'>,
): Promise<PlannedSpec[]> {
  return (await expand(repo, recipes, options, 'fail')).map((p) => ({ ...p, base: p.base! }));
}

/**
 * The jobs a run of `recipes` would have, to name them (their branches) rather than run them: a
 * recipe whose base is no commit here still names its jobs, expanded over no tree (an `each` entry
 * then matches nothing, a `plan` error as in a run).
 */
export async function jobsOf(repo: Repo, recipes: readonly LoadedRecipe[]): Promise<JobSpec[]> {
  return (await expand(repo, recipes, {}, 'no-tree')).map((p) => p.job);
}

async function expand(
  repo: Repo,
  recipes: readonly LoadedRecipe[],
  options: Pick<RunOptions, 'base' | 'dryRun' | 'keepWorktrees'>,
  missingBase: 'fail' | 'no-tree',
): Promise<{ job: JobSpec; file: string; base: BaseTree | null }[]> {
  const trees = new Map<string, Promise<BaseTree>>();
  const planned: { job: JobSpec; file: string; base: BaseTree | null }[] = [];
  for (const { file, recipe } of recipes) {
    const ref = options.base ?? recipe.base ?? 'HEAD';
    const sha = await resolveCommit(repo, ref);
    if (sha === null && missingBase === 'fail') {
      throw planError(
        'bad-base',
        `${file}: base "${ref}" is not a commit in ${repo.workTree ?? repo.commonDir}; fix the recipe's base, or give the \`base\` option a commit it has.`,
      );
    }
    let base: BaseTree | null = null;
    if (sha !== null) {
      // A worktree holds the whole base tree (`npx tsc` there needs the root package.json); only
      // object-level jobs may list just the subtrees their selection can reach.
      const onDisk = recipe.steps.some(needsDisk) || recipe.verify.length > 0 || (options.keepWorktrees === true && options.dryRun !== true);
      const prefixes = onDisk ? [] : (namedFiles(recipe) ?? staticPrefixes(recipe.files.include));
      const key = `${sha}\0${prefixes.join('\0')}`;
      if (!trees.has(key)) trees.set(key, loadBase(repo, sha, prefixes));
      base = await trees.get(key)!;
    }
    for (const job of expandJobs(recipe, base?.dirs ?? [])) planned.push({ job, file, base });
  }
  return planned;
}

/**
 * When every step names its one file (edit, write, notebook) and no job is an `each`, the jobs read
 * and write only those paths: listing them (and what stands in their way) is enough, so a 1-file
 * edit in a 30,000-file repository reads a few trees, not all of them. Null: list by the selection.
 */
function namedFiles(recipe: Recipe): string[] | null {
  if (recipe.jobs.some((j) => 'each' in j)) return null;
  const files: string[] = [];
  for (const step of recipe.steps) {
    const file = namedFile(step);
    if (file === null || file === '') return null;
    // Step paths are taken literally (core/check-path.ts): the path listed is the path written.
    files.push(file);
  }
  return files.length > 0 ? files : null;
}

async function loadBase(repo: Repo, sha: string, prefixes: readonly string[]): Promise<BaseTree> {
  const tree = await treeOfCommit(repo, sha);
  const list = await listTree(repo, tree, { prefixes });
  const entries = new Map(list.map((e) => [e.path, e] as const));
  // Sorted paths come folder by folder: each new folder and those above it not seen yet.
  const dirs = new Set<string>();
  let last = '';
  for (const e of list) {
    const cut = e.path.lastIndexOf('/');
    if (cut < 0 || (cut === last.length && e.path.startsWith(last))) continue;
    last = e.path.slice(0, cut);
    for (let d = last; d !== '' && !dirs.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) dirs.add(d);
  }
  return { sha, tree, entries, dirs: [...dirs].sort() };
}
