// `pr`: the pull requests of a run that pushed its branches (its report), created, updated or closed
// through the one publishing path, without pushing: one repository's through its remote, a
// campaign's each on its own host. Every host and token is checked before the first request.
import type { HostOptions } from '../host/open.js';
import { resolve } from 'node:path';
import { recipeError } from '../errors.js';
import { closeRepo, openRepo } from '../git/index.js';
import type { Env } from '../host/remote.js';
import type { RunReport } from '../model/types.js';
import { publishCampaign } from '../publish/campaign.js';
import { checkPublishSettings, publishRepository, requireTarget, type PublishSettings } from '../publish/repository.js';
import { findRecipes, loadRecipe, type Recipe } from '../recipe/index.js';
import { readReport } from './reports.js';
import { campaignRepos, isCampaignReport } from './repositories.js';

export interface PullRequestsOptions {
  /** The report of the run (run --push --report FILE, or merge-reports). */
  readonly report: string;
  /** The repository whose remote names the host. Default: `cwd`. */
  readonly repo?: string;
  /** Recipe files whose `pr` blocks apply. Default: the recipes under ./recipes (of the repository and of cwd), by name. */
  readonly recipes?: readonly string[];
  /** The remote the branches were pushed to. Default: the one the report names, else origin. */
  readonly remote?: string;
  /** The branch the pull requests merge into. Default: the remote's default branch. */
  readonly base?: string;
  readonly draft?: boolean;
  readonly labels?: readonly string[];
  readonly reopen?: boolean;
  /** Milliseconds between two pull requests. @default 1000 */
  readonly intervalMs?: number;
  /** What every host opened shares: the write budget and the clock it waits on (hostOptions()). */
  readonly hostOptions?: HostOptions;
  /** A campaign report's clones. Default: the campaign cache. */
  readonly cacheDir?: string;
  readonly cwd?: string;
  readonly env?: Env;
  readonly signal?: AbortSignal;
  /** One line per pull request. */
  readonly say?: (line: string) => void;
  readonly note?: (line: string) => void;
}

export interface PullRequestsResult {
  readonly report: RunReport;
  /** The host's failure (one line per repository of a campaign); null when none. */
  readonly error: string | null;
  /** Repositories of a campaign report that could not be found nor cloned. */
  readonly problems: readonly string[];
  /** The report lists no pushed branch: there was no pull request to open. */
  readonly nothingToPublish: boolean;
}

export async function pullRequests(o: PullRequestsOptions): Promise<PullRequestsResult> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const settings: PublishSettings = {
    env,
    push: false,
    pullRequests: true,
    recipes: [],
    extra: { draft: o.draft === true, labels: o.labels ?? [] },
    ...(o.base !== undefined ? { base: o.base } : {}),
    reopen: o.reopen === true,
    intervalMs: o.intervalMs ?? 1000,
    ...(o.hostOptions ? { hostOptions: o.hostOptions } : {}),
    ...(o.say ? { say: o.say } : {}),
    ...(o.note ? { note: o.note } : {}),
    source: o.report,
    ...(o.signal ? { signal: o.signal } : {}),
  };
  checkPublishSettings(settings);
  const report = await readReport(o.report, cwd);
  const done = isCampaignReport(report) ? await campaignPulls(o, settings, report, cwd) : await repositoryPulls(o, settings, report, cwd);
  return { ...done, nothingToPublish: done.report.jobs.every((j) => j.pullRequest === undefined) && done.error === null };
}

async function repositoryPulls(o: PullRequestsOptions, s: PublishSettings, report: RunReport, cwd: string) {
  const repo = await openRepo(resolve(cwd, o.repo ?? '.'));
  try {
    const remote = o.remote ?? report.jobs.find((j) => j.pushed)?.pushed?.remote ?? 'origin';
    // A remote scion cannot push to still takes pull requests; closed branches are then kept.
    const target = requireTarget({ repo, remote, url: null }, s);
    const recipes = await recipesFor(o, report, cwd);
    const done = await publishRepository(report, target, { ...s, recipes });
    return { report: done.report, error: done.error, problems: [] as string[] };
  } finally {
    closeRepo(repo);
  }
}

/** A campaign report: each repository's pull requests on its own host. */
async function campaignPulls(o: PullRequestsOptions, s: PublishSettings, report: RunReport, cwd: string) {
  // Only the repositories with a job that made a commit: one the run could not clone (its jobs
  // clone-failed, no head) has no branch to open a pull request for, and cloning it here fails again.
  const withHeads = { ...report, jobs: report.jobs.filter((j) => j.head !== null) };
  const { repos, problems } = await campaignRepos(withHeads, { ...(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {}), cwd, env: s.env });
  const remote = o.remote ?? 'origin';
  // Every repository's host and token are checked before any request.
  for (const r of repos) {
    if (r.url !== null) {
      (await import('../host/open.js')).hostForUrl(r.url, 'origin', s.env, s.hostOptions);
      continue;
    }
    const repo = await openRepo(r.dir);
    try {
      requireTarget({ repo, remote, url: null }, s);
    } finally {
      closeRepo(repo);
    }
  }
  const recipes = await recipesFor(o, report, cwd);
  const done = await publishCampaign(report, {
    repos,
    env: s.env,
    remote,
    push: false,
    recipes,
    ...(s.extra ? { extra: s.extra } : {}),
    ...(s.base !== undefined ? { base: s.base } : {}),
    reopen: s.reopen,
    intervalMs: s.intervalMs,
    ...(s.hostOptions ? { hostOptions: s.hostOptions } : {}),
    ...(o.say ? { say: o.say } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return { report: done.report, error: done.error, problems };
}

/** The recipes named, else those under ./recipes (of the repository and of cwd) that the report's jobs name. */
async function recipesFor(o: PullRequestsOptions, report: RunReport, cwd: string): Promise<Recipe[]> {
  const wanted = new Set(report.jobs.map((j) => j.recipe));
  const named = o.recipes !== undefined && o.recipes.length > 0;
  const files = named
    ? o.recipes!.map((f) => resolve(cwd, f))
    : [...new Set([...(await findRecipes(resolve(cwd, o.repo ?? '.'))), ...(await findRecipes(cwd))])];
  const out: Recipe[] = [];
  for (const file of files) {
    const r = await loadRecipe(file);
    if (r.ok && wanted.has(r.recipe.name)) out.push(r.recipe);
    else if (!r.ok && named) throw recipeError(`${file} is not a valid recipe; run \`scion validate ${file}\`.`);
  }
  return out;
}
