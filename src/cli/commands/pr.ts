// `scion pr --report FILE` and `run --push --pr`: flags → publishing options, results → lines.
// The pull requests' life (create, update, close, declined, auto-merge) is src/publish/pulls.ts.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { closeRepo, openRepo, remoteHeadBranch, type Repo } from '../../git/index.js';
import type { JobReport, RunReport } from '../../model/types.js';
import { parseRunReport } from '../../model/parse.js';
import { settingsFor } from '../../publish/describe.js';
import { hostForUrl, openHost } from '../../host/open.js';
import { publishCampaign } from '../../publish/campaign.js';
import { defaultCacheDir } from '../../campaign/clone-cache.js';
import { isCampaignReport, reposOfReport } from '../../campaign/locate.js';
import { resolvePushTarget, type PushTarget } from '../../publish/push.js';
import { publishPullRequests, type PullRequestsResult } from '../../publish/pulls.js';
import type { Host } from '../../host/types.js';
import { findRecipes, loadRecipe, type Recipe } from '../../recipe/index.js';
import { makeRedactor } from '../../redact.js';
import { EXIT_INTERRUPTED } from '../exit.js';
import type { CliIo } from '../io.js';
import { hostOptionsFor, type BudgetFlags } from '../host-options.js';
import type { BulkFlags } from './pr-bulk.js';


export interface LifecycleFlags extends BudgetFlags {
  prInterval?: number;
  reopen?: boolean;
}

export interface PrFlags extends LifecycleFlags, Omit<BulkFlags, 'repo'> {
  report: string;
  /** The repository folder when publishing; globs over the report's repositories in a bulk operation. */
  repo?: string | string[];
  /** Recipe files whose `pr` blocks apply (default: the recipes under ./recipes, matched by name). */
  recipes?: readonly string[];
  /** Default: the remote the report says the branches were pushed to, else origin. */
  remote?: string;
  base?: string;
  draft: boolean;
  label?: string | string[];
  /** Where a campaign's clones are (a campaign report's repositories). */
  cacheDir?: string;
}

/** Where the pull requests go: the host behind a remote, and the branch they merge into. */
export interface PrTarget {
  readonly host: Host;
  /** --base / --pr-base; undefined: the remote's default branch. */
  readonly base: string | undefined;
}

export async function prCmd(io: CliIo, flags: PrFlags): Promise<number> {
  checkInterval(flags);
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, flags.report), 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read ${flags.report} (${e instanceof Error ? e.message : String(e)}); pass a report written by \`scion run --push --report FILE\`.`);
  }
  const report = parseRunReport(text, flags.report);
  const bulk = await import('./pr-bulk.js');
  const action = bulk.bulkActionOf(flags);
  if (action !== null) return bulk.bulkPrCmd(io, report, flags.report, action, flags);
  if (isCampaignReport(report)) return campaignPr(io, flags, report);
  const repo = await openRepo(resolve(io.cwd, repoDir(flags)));
  try {
    const remote = flags.remote ?? report.jobs.find((j) => j.pushed)?.pushed?.remote ?? 'origin';
    const target = resolvePrTarget(repo, io, remote, flags.base, flags);
    const recipes = await recipesFor(io, flags, report);
    let push: PushTarget | undefined;
    try {
      push = resolvePushTarget(repo, remote, io.env);
    } catch {
      // A remote scion cannot push to: pull requests still work, closed branches are kept.
    }
    const done = await runPullRequests(io, repo, push, target, report, flags, recipes, (l) => io.stdout.write(`${l}\n`), flags.report);
    if (io.signal?.aborted) return EXIT_INTERRUPTED;
    if (done.report.jobs.every((j) => j.pullRequest === undefined) && done.error === null) {
      io.stdout.write(`${flags.report} lists no pushed branch: no pull request to open.\n`);
    }
    if (done.error !== null) {
      io.stderr.write(`scion: ${done.error}\n`);
      return 1;
    }
    return 0;
  } finally {
    closeRepo(repo);
  }
}

/** A campaign report: each repository's pull requests on its own host (src/publish/campaign.ts). */
async function campaignPr(io: CliIo, flags: PrFlags, report: RunReport): Promise<number> {
  const cacheDir = flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : defaultCacheDir(io.env);
  // Only the repositories with a job that made a commit: one the run could not clone (its jobs
  // clone-failed, no head) has no branch to open a pull request for, and cloning it here fails again.
  const { repos, problems } = await reposOfReport({ ...report, jobs: report.jobs.filter((j) => j.head !== null) }, { cacheDir, env: io.env });
  for (const p of problems) io.stderr.write(`scion: ${p}\n`);
  const remote = flags.remote ?? 'origin';
  // Every repository's host and token are checked before any request (exit 2).
  for (const r of repos) {
    if (r.url !== null) {
      hostForUrl(r.url, 'origin', io.env, hostOptionsFor(io, flags));
      continue;
    }
    const repo = await openRepo(r.dir);
    try {
      openHost(repo, remote, io.env, hostOptionsFor(io, flags));
    } finally {
      closeRepo(repo);
    }
  }
  const recipes = await recipesFor(io, flags, report);
  const done = await publishCampaign(report, {
    repos,
    env: io.env,
    remote,
    push: false,
    recipes,
    extra: { draft: flags.draft, labels: labelsOf(flags.label) },
    ...(flags.base !== undefined ? { base: flags.base } : {}),
    reopen: flags.reopen === true,
    intervalMs: flags.prInterval ?? 1000,
    hostOptions: hostOptionsFor(io, flags),
    say: (l) => io.stdout.write(`${l}\n`),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (io.signal?.aborted) return EXIT_INTERRUPTED;
  if (done.report.jobs.every((j) => j.pullRequest === undefined) && done.error === null) {
    io.stdout.write(`${flags.report} lists no pushed branch: no pull request to open.\n`);
  }
  if (done.error !== null) {
    for (const line of done.error.split('\n')) io.stderr.write(`scion: ${line}\n`);
    return 1;
  }
  return problems.length > 0 ? 1 : 0;
}

/** Outside a bulk operation --repo names one folder. */
function repoDir(flags: PrFlags): string {
  if (Array.isArray(flags.repo)) throw new UsageError('--repo names the repository folder once (several --repo are globs of a bulk operation: --comment, --close, --ready, --merge).');
  return (flags.repo as string | undefined) ?? '.';
}

function checkInterval(flags: LifecycleFlags): void {
  const v = flags.prInterval;
  if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw new UsageError(`--pr-interval ${v} must be a whole number of milliseconds, 0 or more.`);
}

/** `--label a --label b` (yargs gives a string for one, an array for several). */
export function labelsOf(v: string | readonly string[] | undefined): string[] {
  return (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]).map((l) => l.trim()).filter((l) => l !== '');
}

/** The host and base of the pull requests. Throws UsageError when any is missing, before anything is sent. */
export function resolvePrTarget(repo: Repo, io: CliIo, remote: string, base: string | undefined, flags: BudgetFlags): PrTarget {
  return { host: openHost(repo, remote, io.env, hostOptionsFor(io, flags)), base };
}

/**
 * Publishes the pull requests of `report` (after `run --push`, or from a report file): each job gets
 * its recipe's `pr` block plus the flags; prints one line per pull request.
 */
export async function runPullRequests(
  io: CliIo,
  repo: Repo,
  push: PushTarget | undefined,
  target: PrTarget,
  report: RunReport,
  flags: LifecycleFlags & { draft?: boolean; label?: string | string[] },
  recipes: readonly Recipe[],
  say: (line: string) => void,
  source?: string,
): Promise<PullRequestsResult> {
  checkInterval(flags);
  const labels = labelsOf(flags.label);
  const settings = settingsFor(recipes, { draft: flags.draft === true, labels });
  const remoteName = push?.name ?? report.jobs.find((j) => j.pushed)?.pushed?.remote ?? 'origin';
  return publishPullRequests(report, {
    host: target.host,
    base: target.base ?? (async () => remoteHeadBranch(repo, remoteName) ?? (await target.host.defaultBranch())),
    settings,
    reopen: flags.reopen === true,
    intervalMs: flags.prInterval ?? 1000,
    redact: makeRedactor(io.env),
    ...(push ? { remote: { repo, target: push } } : {}),
    say,
    note: (n) => io.stderr.write(`scion: ${n}\n`),
    ...(source !== undefined ? { source } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
}

/** The recipes named on the command line, else those under ./recipes (of the repository and of cwd). */
async function recipesFor(io: CliIo, flags: PrFlags, report: RunReport): Promise<Recipe[]> {
  const wanted = new Set(report.jobs.map((j) => j.recipe));
  const files = flags.recipes && flags.recipes.length > 0
    ? flags.recipes.map((f) => resolve(io.cwd, f))
    : [...new Set([...(await findRecipes(resolve(io.cwd, repoDir(flags)))), ...(await findRecipes(io.cwd))])];
  const out: Recipe[] = [];
  for (const file of files) {
    const r = await loadRecipe(file);
    if (r.ok && wanted.has(r.recipe.name)) out.push(r.recipe);
    else if (!r.ok && flags.recipes && flags.recipes.length > 0) throw new UsageError(`${file} is not a valid recipe; run \`scion validate ${file}\`.`);
  }
  return out;
}
