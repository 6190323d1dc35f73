// One pull request per pushed branch, created or updated through the GitHub REST API. Nothing is
// ever closed: a reviewer's decision to close a pull request is theirs.
import { GitHubApiError, type PullRequestResult } from './errors.js';
import { githubRequest, type ApiContext } from './request.js';

export { GitHubApiError, type PullRequestResult } from './errors.js';
export { parseRemoteUrl, type RepoRef, type RemoteUrlOptions } from './remote.js';

export interface PullRequestSpec {
  readonly branch: string;
  readonly title: string;
  readonly body: string;
}

export interface UpsertOptions {
  /** Default https://api.github.com; the CLI passes GITHUB_API_URL for GitHub Enterprise. */
  readonly apiUrl?: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  /** The branch the pull requests merge into. */
  readonly base: string;
  readonly prs: readonly PullRequestSpec[];
  /** Create new pull requests as drafts. Existing ones keep their state. */
  readonly draft?: boolean;
  /** Added to every pull request (GitHub creates labels that do not exist yet). */
  readonly labels?: readonly string[];
  /** Pause between pull requests, to stay clear of GitHub's secondary rate limits. Default 1000. */
  readonly delayMs?: number;
  /** Retries of one call after a rate limit or a 5xx. Default 3. */
  readonly maxRetries?: number;
  /** Upper bound on one wait between retries, whatever Retry-After asks. Default 120,000. */
  readonly maxRetryWaitMs?: number;
  readonly fetch?: typeof fetch;
}

interface PullJson {
  readonly number: number;
  readonly html_url: string;
}

export async function upsertPullRequests(o: UpsertOptions): Promise<PullRequestResult[]> {
  if (o.token === '') {
    throw new GitHubApiError('No GitHub token: set GITHUB_TOKEN to a token with pull-request write permission.', null);
  }
  const ctx: ApiContext = {
    apiUrl: o.apiUrl ?? 'https://api.github.com',
    token: o.token,
    fetch: o.fetch ?? globalThis.fetch,
    maxRetries: o.maxRetries ?? 3,
    maxRetryWaitMs: o.maxRetryWaitMs ?? 120_000,
  };
  const done: PullRequestResult[] = [];
  for (const [i, pr] of o.prs.entries()) {
    if (i > 0 && (o.delayMs ?? 1000) > 0) await sleep(o.delayMs ?? 1000);
    try {
      done.push(await upsertOne(ctx, o, pr));
    } catch (e) {
      if (e instanceof GitHubApiError) throw new GitHubApiError(e.message, e.status, done);
      throw e;
    }
  }
  return done;
}

async function upsertOne(ctx: ApiContext, o: UpsertOptions, pr: PullRequestSpec): Promise<PullRequestResult> {
  const repoPath = `/repos/${encodeURIComponent(o.owner)}/${encodeURIComponent(o.repo)}`;
  const head = encodeURIComponent(`${o.owner}:${pr.branch}`);
  const open = await githubRequest<PullJson[]>(
    ctx,
    'GET',
    `${repoPath}/pulls?head=${head}&state=open&per_page=1`,
    `looking for an open pull request of ${pr.branch} in ${o.owner}/${o.repo}`,
  );
  let result: PullRequestResult;
  const existing = open[0];
  if (existing !== undefined) {
    const updated = await githubRequest<PullJson>(ctx, 'PATCH', `${repoPath}/pulls/${existing.number}`, `updating pull request #${existing.number} (${pr.branch})`, {
      title: pr.title,
      body: pr.body,
    });
    result = { branch: pr.branch, number: updated.number, url: updated.html_url, action: 'updated' };
  } else {
    const created = await githubRequest<PullJson>(ctx, 'POST', `${repoPath}/pulls`, `creating the pull request for ${pr.branch} into ${o.base}`, {
      title: pr.title,
      head: pr.branch,
      base: o.base,
      body: pr.body,
      ...(o.draft ? { draft: true } : {}),
    });
    result = { branch: pr.branch, number: created.number, url: created.html_url, action: 'created' };
  }
  if (o.labels !== undefined && o.labels.length > 0) {
    await githubRequest(ctx, 'POST', `${repoPath}/issues/${result.number}/labels`, `adding labels to pull request #${result.number}`, {
      labels: o.labels,
    });
  }
  return result;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
