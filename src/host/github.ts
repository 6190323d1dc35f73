// GitHub as a Host: REST through @octokit/core, GraphQL for auto-merge. @octokit/plugin-throttling
// answers secondary rate limits and exhausted quotas (Retry-After, x-ratelimit-reset), and
// @octokit/plugin-retry retries 5xx and network failures; a plain 429 with Retry-After is honoured by
// the small plugin below. scion paces pull requests itself (--pr-interval), so the throttling
// plugin's own one-request-per-second write queue is replaced by one that does not wait.
import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { expectAnswer, isJson, isList, isRecord, type Shape } from './answer.js';
import { explainGitHub } from './github-explain.js';
import { processWriteBudgets, type WriteBudget } from './budget.js';
import { apiFetch } from './http.js';
import { HostError, type ChecksState, type Host, type HostIssue, type HostPull, type MergeMethod, type NewPull, type PullExtras, type RequestLimits, type ReviewState } from './types.js';

export interface GitHubOptions extends RequestLimits {
  /** Default https://api.github.com; GITHUB_API_URL for GitHub Enterprise. */
  readonly apiUrl?: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly fetch?: typeof fetch;
}

/** How many times the current call was retried (set by the client's retry hooks). */
export interface RetryTracker {
  retries: number;
}

interface ScionPluginOptions {
  readonly scion?: {
    readonly maxRetries: number;
    readonly maxWaitMs: number;
    readonly tracker: RetryTracker;
    readonly sleep: (ms: number) => Promise<void>;
    readonly budget: WriteBudget;
  };
}

/** Waits on a 429 the throttling plugin leaves alone (not a secondary limit, quota not at 0). */
function honourRetryAfter(octokit: Octokit, options: ScionPluginOptions): void {
  const o = options.scion;
  if (!o) return;
  octokit.hook.wrap('request', async (request, opts) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(opts);
      } catch (e) {
        const wait = plain429Wait(e);
        if (wait === null || attempt >= o.maxRetries || wait > o.maxWaitMs) throw e;
        o.tracker.retries = attempt + 1;
        o.budget.hostAsked(wait);
        await o.sleep(wait);
      }
    }
  });
}

function plain429Wait(e: unknown): number | null {
  const err = e as { status?: unknown; message?: unknown; response?: { headers?: Record<string, string | undefined> } };
  if (err.status !== 429 || !err.response) return null;
  const h = err.response.headers ?? {};
  if (/\bsecondary rate\b/i.test(String(err.message)) || h['x-ratelimit-remaining'] === '0') return null;
  const after = h['retry-after'];
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const reset = Number(h['x-ratelimit-reset']);
  return reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60_000;
}

const Client = Octokit.plugin(throttling, retry, honourRetryAfter as never);

/** A Bottleneck group that never waits: pacing is scion's own (--pr-interval). */
const unpaced = { key: () => ({ schedule: (...args: unknown[]) => (args.find((a) => typeof a === 'function') as (...a: unknown[]) => unknown)(...args.slice(args.findIndex((a) => typeof a === 'function') + 1)) }) };

interface PullJson {
  number: number;
  html_url: string;
  state: string;
  merged_at?: string | null;
  draft?: boolean;
  head?: { sha?: string };
  base?: { ref?: string };
  body?: string | null;
  node_id?: string;
  requested_reviewers?: { login?: string }[];
  requested_teams?: { slug?: string }[];
  updated_at?: string | null;
}

interface IssueJson {
  number: number;
  html_url: string;
  body?: string | null;
  pull_request?: unknown;
}

const isIssue = (d: unknown): d is IssueJson => isRecord(d) && Number.isInteger(d['number']) && typeof d['html_url'] === 'string';
const issueOf = (i: IssueJson): HostIssue => ({ number: i.number, url: i.html_url, body: i.body ?? '' });
/** Pages read when looking through a list (100 each): a pull request's comments, a repository's issues. */
const MAX_PAGES = 20;

/** The fields of a pull request scion reads: a number, its page, its state. */
function isPull(d: unknown): d is PullJson {
  return isRecord(d) && Number.isInteger(d['number']) && typeof d['html_url'] === 'string' && typeof d['state'] === 'string';
}

export type GitHubClient = InstanceType<typeof Client>;

export interface GitHubClientOptions extends RequestLimits {
  readonly apiUrl: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
}

/**
 * An octokit with scion's rate-limit and retry rules and the token on every request: the one client
 * construction that GitHubHost and repository discovery (campaign/discover.ts) share.
 */
export function githubClient(o: GitHubClientOptions, tracker: RetryTracker): GitHubClient {
  const apiUrl = o.apiUrl.replace(/\/+$/, '');
  const maxRetries = o.maxRetries ?? 3;
  const maxWaitMs = o.maxRetryWaitMs ?? 120_000;
  const writes = o.writes ?? processWriteBudgets();
  const budget = writes.of(apiUrl, o.token);
  // A retry's wait: the host's time, held on the token's budget so no other write goes out meanwhile.
  const wait = o.sleep ?? ((ms: number) => writes.clock.sleep(ms));
  // The throttling plugin awaits this answer; the wait is made here, so the plugin retries at once
  // (retryAfterBaseValue 0) and every wait scion makes goes through `wait`.
  const wantRetry = async (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): Promise<boolean> => {
    if (retryCount >= maxRetries || retryAfter * 1000 > maxWaitMs) return false;
    tracker.retries = retryCount + 1;
    budget.hostAsked(retryAfter * 1000);
    await wait(retryAfter * 1000);
    return true;
  };
  const octokit = new Client({
    baseUrl: apiUrl,
    userAgent: 'scion',
    request: { fetch: apiFetch(apiUrl, o.timeoutMs ?? 60_000, o.fetch, { budget, token: o.token, ...(o.reads ? { reads: o.reads } : {}) }) },
    throttle: {
      onRateLimit: wantRetry as never,
      onSecondaryRateLimit: wantRetry as never,
      retryAfterBaseValue: 0,
      write: unpaced as never,
      notifications: unpaced as never,
    },
    retry: { retries: maxRetries, retryAfterBaseValue: o.backoffMs ?? 1000, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    scion: { maxRetries, maxWaitMs, tracker, sleep: wait, budget },
  } as ConstructorParameters<typeof Client>[0]);
  // @octokit/core takes no default headers; every request (REST and GraphQL) gets them here.
  octokit.hook.before('request', (opts) => {
    Object.assign(opts.headers, { authorization: `Bearer ${o.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' });
  });
  return octokit;
}

/** Turns `explainGitHub`'s arguments into a sentence; discovery words 401/403/404 its own way. */
export type ExplainGitHub = (status: number, what: string, body: unknown, retries: number | null) => string;

/** An octokit failure as one HostError sentence: unreachable, rate-limited after retries, or what GitHub said. */
export function githubFailure(e: unknown, what: string, apiUrl: string, tracker: RetryTracker, explain: ExplainGitHub = explainGitHub): HostError {
  const err = e as { status?: unknown; message?: unknown; response?: { data?: unknown; headers?: Record<string, string | undefined> } };
  if (typeof err.status !== 'number' || err.response === undefined) {
    const why = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    return new HostError(`Could not reach GitHub at ${apiUrl} while ${what} (${why}); check the network and GITHUB_API_URL.`, null);
  }
  const h = err.response.headers ?? {};
  const limited = err.status === 429 || (err.status === 403 && (h['retry-after'] !== undefined || h['x-ratelimit-remaining'] === '0' || /\bsecondary rate\b/i.test(String(err.message))));
  const retried = limited || (err.status >= 500 && tracker.retries > 0) ? tracker.retries : null;
  return new HostError(explain(err.status, what, err.response.data ?? err.message, retried), err.status);
}

export class GitHubHost implements Host {
  readonly kind = 'github' as const;
  /** GitHub refuses an issue body past 65,536 characters. */
  readonly issueLimit = 65_536;
  readonly label: string;
  private readonly octokit: GitHubClient;
  private readonly tracker: RetryTracker = { retries: 0 };
  private readonly apiUrl: string;

  constructor(private readonly o: GitHubOptions) {
    this.label = `${o.owner}/${o.repo}`;
    this.apiUrl = (o.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
    this.octokit = githubClient({ ...o, apiUrl: this.apiUrl }, this.tracker);
  }

  /** One REST call; its answer must have `shape` (any JSON by default), else it is a HostError. */
  private async call<T>(route: string, params: Record<string, unknown>, what: string, shape: Shape<T> = isJson as Shape<T>): Promise<T> {
    this.tracker.retries = 0;
    let data: unknown;
    try {
      data = (await this.octokit.request(route, { owner: this.o.owner, repo: this.o.repo, ...params })).data;
    } catch (e) {
      throw this.failure(e, what);
    }
    return expectAnswer(data, shape, 'GitHub', what, this.apiUrl);
  }

  private failure(e: unknown, what: string): HostError {
    return githubFailure(e, what, this.apiUrl, this.tracker);
  }

  private pull(p: PullJson): HostPull {
    return {
      number: p.number,
      url: p.html_url,
      state: p.merged_at ? 'merged' : p.state === 'open' ? 'open' : 'closed',
      draft: p.draft === true,
      headSha: p.head?.sha ?? null,
      base: p.base?.ref ?? '',
      body: p.body ?? '',
      nodeId: p.node_id ?? '',
      updatedAt: p.updated_at ?? null,
      reviewers: [...(p.requested_reviewers ?? []).map((r) => r.login ?? ''), ...(p.requested_teams ?? []).map((t) => `team:${t.slug ?? ''}`)].filter((r) => r !== '' && r !== 'team:'),
    };
  }

  async defaultBranch(): Promise<string> {
    const info = await this.call('GET /repos/{owner}/{repo}', {}, `reading the default branch of ${this.label} (pass --base to skip this)`, isRecord);
    return typeof info.default_branch === 'string' && info.default_branch !== '' ? info.default_branch : 'main';
  }

  async findPull(branch: string): Promise<HostPull | null> {
    const list = await this.call(
      'GET /repos/{owner}/{repo}/pulls',
      { head: `${this.o.owner}:${branch}`, state: 'all', sort: 'created', direction: 'desc', per_page: 20 },
      `looking for the pull request of ${branch} in ${this.label}`,
      (d): d is PullJson[] => Array.isArray(d) && d.every(isPull),
    );
    const chosen = list.find((p) => p.state === 'open') ?? list[0];
    return chosen === undefined ? null : this.pull(chosen);
  }

  async createPull(p: NewPull): Promise<HostPull> {
    const created = await this.call(
      'POST /repos/{owner}/{repo}/pulls',
      { title: p.title, head: p.branch, base: p.base, body: p.body, ...(p.draft ? { draft: true } : {}) },
      `creating the pull request for ${p.branch} into ${p.base}`,
      isPull,
    );
    return this.pull(created);
  }

  async updatePull(pull: HostPull, p: { title: string; body: string }): Promise<HostPull> {
    const updated = await this.call('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: pull.number, title: p.title, body: p.body }, `updating pull request #${pull.number}`, isPull);
    return this.pull(updated);
  }

  async addExtras(pull: HostPull, x: PullExtras): Promise<void> {
    const n = pull.number;
    if (x.labels.length > 0) await this.call('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { issue_number: n, labels: [...x.labels] }, `adding labels to pull request #${n}`);
    const teams = x.reviewers.filter((r) => r.startsWith('team:')).map((r) => r.slice('team:'.length));
    const users = x.reviewers.filter((r) => !r.startsWith('team:'));
    if (users.length + teams.length > 0) {
      await this.call('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', { pull_number: n, reviewers: users, team_reviewers: teams }, `requesting reviewers on pull request #${n}`);
    }
    if (x.assignees.length > 0) await this.call('POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', { issue_number: n, assignees: [...x.assignees] }, `assigning pull request #${n}`);
  }

  async enableAutoMerge(pull: HostPull, method: MergeMethod): Promise<void> {
    const what = `enabling auto-merge on pull request #${pull.number}`;
    this.tracker.retries = 0;
    try {
      await this.octokit.graphql(
        'mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!) { enablePullRequestAutoMerge(input: {pullRequestId: $pullRequestId, mergeMethod: $mergeMethod}) { pullRequest { number } } }',
        { pullRequestId: pull.nodeId, mergeMethod: method.toUpperCase() },
      );
    } catch (e) {
      const gql = (e as { errors?: { message?: string }[] }).errors;
      if (Array.isArray(gql)) {
        throw new HostError(`GitHub refused ${what} (${gql.map((g) => g.message).join('; ')}); allow auto-merge in the repository settings and protect the base branch with required checks.`, 200);
      }
      throw this.failure(e, what);
    }
  }

  async comment(pull: HostPull, text: string): Promise<void> {
    await this.call('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: pull.number, body: text }, `commenting on pull request #${pull.number}`);
  }

  async closePull(pull: HostPull): Promise<void> {
    await this.call('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: pull.number, state: 'closed' }, `closing pull request #${pull.number}`);
  }

  async checks(pull: HostPull): Promise<ChecksState> {
    if (pull.headSha === null) return 'none';
    const what = `reading the checks of pull request #${pull.number}`;
    const runs = await this.call(
      'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
      { ref: pull.headSha, per_page: 100 },
      what,
      (d): d is { check_runs?: { status?: string; conclusion?: string | null }[] } => isRecord(d) && (d['check_runs'] === undefined || isList(d['check_runs'])),
    );
    const combined = await this.call<{ state?: string; total_count?: number }>('GET /repos/{owner}/{repo}/commits/{ref}/status', { ref: pull.headSha }, what, isRecord);
    const states: ChecksState[] = [];
    for (const r of runs.check_runs ?? []) {
      if (r.status !== 'completed') states.push('pending');
      else states.push(['success', 'neutral', 'skipped'].includes(r.conclusion ?? '') ? 'success' : 'failure');
    }
    if ((combined.total_count ?? 0) > 0) states.push(combined.state === 'success' ? 'success' : combined.state === 'pending' ? 'pending' : 'failure');
    if (states.length === 0) return 'none';
    return states.includes('failure') ? 'failure' : states.includes('pending') ? 'pending' : 'success';
  }

  async review(pull: HostPull): Promise<ReviewState> {
    const what = `reading the reviews of pull request #${pull.number}`;
    const reviews = await this.call<{ state?: string; user?: { login?: string } | null }[]>('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { pull_number: pull.number, per_page: 100 }, what, isList);
    // A reviewer's latest approving or blocking review is their verdict; comments do not change it.
    const verdict = new Map<string, string>();
    for (const r of reviews) if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') verdict.set(r.user?.login ?? '', r.state);
    const states = [...verdict.values()];
    if (states.includes('CHANGES_REQUESTED')) return 'changes-requested';
    if (states.includes('APPROVED')) return 'approved';
    const p = await this.call('GET /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: pull.number }, what, isPull);
    return (p.requested_reviewers?.length ?? 0) + (p.requested_teams?.length ?? 0) > 0 ? 'required' : 'none';
  }

  async comments(pull: HostPull): Promise<string[]> {
    const out: string[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const list = await this.call<{ body?: string }[]>(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: pull.number, per_page: 100, page },
        `reading the comments of pull request #${pull.number}`,
        isList,
      );
      out.push(...list.map((c) => c.body ?? ''));
      if (list.length < 100) break;
    }
    return out;
  }

  async markReady(pull: HostPull): Promise<void> {
    const what = `marking pull request #${pull.number} ready for review`;
    this.tracker.retries = 0;
    try {
      await this.octokit.graphql('mutation($pullRequestId: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $pullRequestId}) { pullRequest { number } } }', { pullRequestId: pull.nodeId });
    } catch (e) {
      const gql = (e as { errors?: { message?: string }[] }).errors;
      if (Array.isArray(gql)) throw new HostError(`GitHub refused ${what} (${gql.map((g) => g.message).join('; ')}).`, 200);
      throw this.failure(e, what);
    }
  }

  async merge(pull: HostPull, method: MergeMethod): Promise<void> {
    await this.call('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { pull_number: pull.number, merge_method: method }, `merging pull request #${pull.number}`);
  }

  async findIssue(marker: string, number?: number): Promise<HostIssue | null> {
    if (number !== undefined) return issueOf(await this.call('GET /repos/{owner}/{repo}/issues/{issue_number}', { issue_number: number }, `reading issue #${number} of ${this.label}`, isIssue));
    for (let page = 1; page <= MAX_PAGES; page++) {
      const list = await this.call(
        'GET /repos/{owner}/{repo}/issues',
        { state: 'all', sort: 'created', direction: 'desc', per_page: 100, page },
        `looking for scion's tracking issue in ${this.label}`,
        (d): d is IssueJson[] => Array.isArray(d) && d.every(isIssue),
      );
      const found = list.find((i) => i.pull_request === undefined && (i.body ?? '').includes(marker));
      if (found !== undefined) return issueOf(found);
      if (list.length < 100) break;
    }
    return null;
  }

  async createIssue(title: string, body: string): Promise<HostIssue> {
    return issueOf(await this.call('POST /repos/{owner}/{repo}/issues', { title, body }, `creating the tracking issue in ${this.label}`, isIssue));
  }

  async editIssue(issue: HostIssue, body: string): Promise<HostIssue> {
    return issueOf(await this.call('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { issue_number: issue.number, body }, `editing issue #${issue.number} of ${this.label}`, isIssue));
  }
}
