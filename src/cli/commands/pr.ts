// `scion pr --report FILE` and `run --pr`: one pull request per pushed branch, created or updated
// through the GitHub REST API. Nothing is ever closed.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { closeRepo, openRepo, remoteHeadBranch, remoteUrl, type Repo } from '../../git/index.js';
import { pullRequestsFor } from '../../github/prs-from-report.js';
import { GitHubApiError, parseRemoteUrl, upsertPullRequests, type PullRequestResult, type PullRequestSpec } from '../../github/pulls.js';
import { githubRequest } from '../../github/request.js';
import { parseRunReport } from '../../model/parse.js';
import type { RunReport } from '../../model/types.js';
import type { CliIo } from '../io.js';
import { githubHosts, shownUrl } from '../push.js';

export interface PrFlags {
  report: string;
  repo: string;
  /** Default: the remote the report says the branches were pushed to, else origin. */
  remote?: string;
  base?: string;
  draft: boolean;
  label?: string | string[];
}

/** Where the pull requests go: the GitHub repository behind a remote, and the token to use. */
export interface PrTarget {
  readonly apiUrl: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  /** The branch they merge into: --base, else the remote's default branch (looked up when undefined). */
  readonly base: string | undefined;
}

export interface PrOptions {
  readonly draft: boolean;
  readonly labels: readonly string[];
  readonly say: (line: string) => void;
}

export async function prCmd(io: CliIo, flags: PrFlags): Promise<number> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, flags.report), 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read ${flags.report} (${e instanceof Error ? e.message : String(e)}); pass a report written by \`scion run --push --report FILE\`.`);
  }
  const report = parseRunReport(text, flags.report);
  const repo = await openRepo(resolve(io.cwd, flags.repo));
  try {
    const remote = flags.remote ?? report.jobs.find((j) => j.pushed)?.pushed?.remote ?? 'origin';
    const target = resolvePrTarget(repo, io.env, remote, flags.base);
    const specs = pullRequestSpecs(report, (note) => io.stderr.write(`scion: ${note}\n`), flags.report);
    if (specs.length === 0) {
      io.stdout.write(`${flags.report} lists no pushed branch: no pull request to open.\n`);
      return 0;
    }
    const done = await openPullRequests(repo, remote, target, specs, {
      draft: flags.draft,
      labels: labelsOf(flags.label),
      say: (line) => io.stdout.write(`${line}\n`),
    });
    if (done.error) {
      io.stderr.write(`scion: ${done.error}\n`);
      return 1;
    }
    return 0;
  } finally {
    closeRepo(repo);
  }
}

/** `--label a --label b` (yargs gives a string for one, an array for several). */
export function labelsOf(v: string | readonly string[] | undefined): string[] {
  return (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]).map((l) => l.trim()).filter((l) => l !== '');
}

/**
 * Token, API URL and owner/repo from the environment and the remote's URL. Throws UsageError when
 * any is missing, before anything is run or sent.
 */
export function resolvePrTarget(repo: Repo, env: Readonly<Record<string, string | undefined>>, remote: string, base?: string): PrTarget {
  const token = env['GITHUB_TOKEN'] || env['GIT_TOKEN'];
  if (!token) {
    throw new UsageError(
      'No GitHub token: set GITHUB_TOKEN (or GIT_TOKEN) to a token allowed to create pull requests (in GitHub Actions: `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}`).',
    );
  }
  const url = remoteUrl(repo, remote);
  if (url === null) {
    throw new UsageError(`The repository has no remote "${remote}" (remote.${remote}.url is not set); pass --remote with the remote of the GitHub repository.`);
  }
  const fromUrl = parseRemoteUrl(url, githubHosts(env));
  const fromEnv = /^([^/\s]+)\/([^/\s]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '');
  const gh = fromUrl ?? (fromEnv ? { owner: fromEnv[1]!, repo: fromEnv[2]! } : null);
  if (gh === null) {
    throw new UsageError(
      `Cannot tell the GitHub repository from remote ${remote}'s URL ${shownUrl(url)}; use a github.com remote, or set GITHUB_SERVER_URL to your GitHub Enterprise server.`,
    );
  }
  return { apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''), token, owner: gh.owner, repo: gh.repo, base };
}

/**
 * The pull requests a report calls for: one per branch --push left on the remote holding the job's
 * change, whether this run sent it or found it there (so a pull request whose creation failed on an
 * earlier run is created now; an open one gets its title and body again). Failed jobs get none,
 * even with --push-failed. A report written without --push records no push: its changed branches
 * are then taken as pushed by other means, and `note` says so.
 */
export function pullRequestSpecs(report: RunReport, note: (s: string) => void, source = 'the report'): PullRequestSpec[] {
  const anyPushed = report.jobs.some((j) => j.pushed !== undefined);
  if (!anyPushed) {
    const specs = pullRequestsFor(report);
    if (specs.length > 0) {
      note(`${source} records no push (it was written without --push); opening pull requests for its changed branches, which must already be on the remote.`);
    }
    return specs;
  }
  const jobs = report.jobs
    .filter((j) => j.pushed !== undefined && (j.status === 'changed' || j.status === 'unchanged'))
    // pullRequestsFor describes changed jobs; to its pull request, an unchanged job's branch is a change.
    .map((j) => ({ ...j, status: 'changed' as const }));
  return pullRequestsFor({ ...report, jobs });
}

/**
 * Creates or updates the pull requests and prints one line for each. An API failure is returned
 * as its message (the pull requests done before it stay and are printed).
 */
export async function openPullRequests(
  repo: Repo,
  remote: string,
  target: PrTarget,
  specs: readonly PullRequestSpec[],
  o: PrOptions,
): Promise<{ results: PullRequestResult[]; error: string | null }> {
  const print = (r: PullRequestResult) => o.say(`${r.action} pull request #${r.number} for ${r.branch}: ${r.url}`);
  try {
    const base = target.base ?? (await defaultBranch(repo, remote, target));
    const results = await upsertPullRequests({
      apiUrl: target.apiUrl,
      token: target.token,
      owner: target.owner,
      repo: target.repo,
      base,
      prs: specs,
      draft: o.draft,
      labels: o.labels,
    });
    results.forEach(print);
    return { results, error: null };
  } catch (e) {
    if (!(e instanceof GitHubApiError)) throw e;
    e.completed.forEach(print);
    return { results: [...e.completed], error: e.message };
  }
}

/** The remote's default branch: refs/remotes/<remote>/HEAD as last fetched, else GitHub's answer. */
async function defaultBranch(repo: Repo, remote: string, t: PrTarget): Promise<string> {
  const local = remoteHeadBranch(repo, remote);
  if (local !== null) return local;
  const info = await githubRequest<{ default_branch?: unknown }>(
    { apiUrl: t.apiUrl, token: t.token, fetch: globalThis.fetch, maxRetries: 3, maxRetryWaitMs: 120_000 },
    'GET',
    `/repos/${encodeURIComponent(t.owner)}/${encodeURIComponent(t.repo)}`,
    `reading the default branch of ${t.owner}/${t.repo} (pass --base to skip this)`,
  );
  return typeof info.default_branch === 'string' && info.default_branch !== '' ? info.default_branch : 'main';
}
