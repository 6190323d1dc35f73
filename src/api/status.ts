// `status`: one row per job (branch, pull request, state, checks, review, commits behind the base), for
// the jobs of a report (one repository's, or each repository's of a campaign) or of recipes as a run
// would expand them. Reads only: nothing is written, no branch is fetched into a local branch.
import { resolve } from 'node:path';
import { isScionError, usageError } from '../errors.js';
import { closeRepo, openRepo, readRef, type Repo } from '../git/index.js';
import type { Env } from '../host/remote.js';
import { pullRequestStatus, type StatusJob, type StatusRow } from '../publish/status.js';
import { jobsOf } from '../runner/plan-jobs.js';
import { scionChain } from '../branch/chain.js';
import { loadRecipeFiles, type LoadedRecipe } from './recipes.js';
import { remoteContext } from './remote-context.js';
import { readReport } from './reports.js';
import { campaignRepos, isCampaignReport } from './repositories.js';

export type { StatusRow } from '../publish/status.js';

export interface StatusOptions {
  /** A report written by `run --report`: one row per job in it. Either this or `recipes`. */
  readonly report?: string;
  /** Recipe files: one row per job they expand to in `repo`. */
  readonly recipes?: readonly string[];
  /** The repository (for recipes, or a one-repository report). Default: `cwd`. */
  readonly repo?: string;
  /** The remote whose host holds the pull requests. Default: the one the report names, else origin. */
  readonly remote?: string;
  /** A campaign report's clones. Default: the campaign cache. */
  readonly cacheDir?: string;
  readonly cwd?: string;
  readonly env?: Env;
}

export interface StatusResult {
  readonly rows: readonly StatusRow[];
  /** The rows come from a campaign report (each row's `repo` names its repository). */
  readonly campaign: boolean;
  /**
   * Repositories of a campaign report whose jobs have no row, one sentence each: the repository could
   * not be found nor cloned, or its host refused or could not be reached. The other rows stand.
   */
  readonly problems: readonly string[];
}

/**
 * The status rows. Throws a `usage` error for options that do not name the jobs (or a report that
 * cannot be read), a `host` or `remote` error when the one repository's host or remote fails; in a
 * campaign, such a repository is one of the `problems` and the others are read.
 */
export async function status(o: StatusOptions): Promise<StatusResult> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const recipes = o.recipes ?? [];
  if ((o.report === undefined) === (recipes.length === 0)) {
    throw usageError('Name either a report (the `report` option) or recipe files (the `recipes` option), one of the two.');
  }
  const report = o.report === undefined ? null : await readReport(o.report, cwd);
  if (report !== null && isCampaignReport(report)) {
    const { repos, problems } = await campaignRepos(report, { ...(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {}), cwd, env });
    const rows: StatusRow[] = [];
    const unread: string[] = [];
    for (const ref of repos) {
      const repo = await openRepo(ref.dir);
      try {
        const jobs = report.jobs.filter((j) => j.repo === ref.id).map((j) => ({ branch: j.branch, base: j.base }));
        // A clone's `origin` is the URL it was cloned from; a local path's remote is the one asked for.
        const ctx = remoteContext(repo, ref.url !== null ? 'origin' : (o.remote ?? 'origin'), env, false);
        rows.push(...(await pullRequestStatus(jobs, { repo, repoPath: ref.id, host: ctx.host, baseTip: (b) => ctx.baseTip(b ?? ref.branch ?? null) })));
      } catch (e) {
        // One repository's host refusing or out of reach leaves the others' rows to read.
        if (!isScionError(e, 'host', 'remote')) throw e;
        unread.push(`${ref.id}: ${e.message}`);
      } finally {
        closeRepo(repo);
      }
    }
    return { rows, campaign: true, problems: [...problems, ...unread] };
  }
  const repo = await openRepo(resolve(cwd, o.repo ?? '.'));
  try {
    let jobs: StatusJob[];
    let remote = o.remote;
    let repoPath = repo.workTree ?? repo.commonDir;
    if (report !== null) {
      jobs = report.jobs.map((j) => ({ branch: j.branch, base: j.base }));
      remote ??= report.jobs.find((j) => j.pushed)?.pushed?.remote;
      repoPath = report.repo ?? repoPath;
    } else {
      jobs = await recipeJobs(repo, await loadRecipeFiles(recipes, cwd));
    }
    const ctx = remoteContext(repo, remote ?? 'origin', env, false);
    const rows = await pullRequestStatus(jobs, { repo, repoPath, host: ctx.host, baseTip: (b) => ctx.baseTip(b) });
    return { rows, campaign: false, problems: [] };
  } finally {
    closeRepo(repo);
  }
}

/** The jobs of recipes as a run would expand them (the runner's one expansion), each with the base its branch was built on. */
async function recipeJobs(repo: Repo, loaded: readonly LoadedRecipe[]): Promise<StatusJob[]> {
  const jobs: StatusJob[] = [];
  for (const job of await jobsOf(repo, loaded)) {
    const head = await readRef(repo, `refs/heads/${job.branch}`);
    const chain = head === null ? [] : await scionChain(repo, head, job.recipe.name, job.name, true);
    jobs.push({ branch: job.branch, base: chain[0]?.parent ?? null });
  }
  return jobs;
}
