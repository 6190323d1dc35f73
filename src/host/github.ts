// GitHub as a Host: REST through the client of github-client.ts (rate limits, retries, the write
// budget), GraphQL for auto-merge and for marking a draft ready; its answers read by github-answers.ts.
import { expectAnswer, isJson, isList, isRecord, type Shape } from './answer.js';
import { checksOf, isIssue, isPull, issueOf, pullOf, verdictOf, type CheckRunJson, type IssueJson, type PullJson, type ReviewJson } from './github-answers.js';
import { githubClient, githubFailure, type GitHubClientOptions, type RetryTracker } from './github-client.js';
import { HostError, type ScionError } from '../errors.js';
import { loadOnce } from '../util/load-once.js';
import type { ChecksState, Host, HostIssue, HostPull, MergeMethod, NewPull, PullExtras, RequestLimits, ReviewState } from './types.js';

/** Pages read when looking through a list (100 each): a pull request's comments, a repository's issues. */
const MAX_PAGES = 20;

export interface GitHubOptions extends RequestLimits {
  /** Default https://api.github.com; GITHUB_API_URL for GitHub Enterprise. */
  readonly apiUrl?: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly fetch?: typeof fetch;
  /** Loads octokit (default: the one shared loader; a test passes one that fails). */
  readonly loadOctokit?: GitHubClientOptions['loadOctokit'];
}

export class GitHubHost implements Host {
  readonly kind = 'github' as const;
  /** GitHub refuses an issue body past 65,536 characters. */
  readonly issueLimit = 65_536;
  readonly label: string;
  private readonly tracker: RetryTracker = { retries: 0 };
  /** Made on the first request (octokit loads then); made again at the next request when that failed. */
  private readonly client = loadOnce(() => githubClient({ ...this.o, apiUrl: this.apiUrl }, this.tracker));
  private readonly apiUrl: string;

  constructor(private readonly o: GitHubOptions) {
    this.label = `${o.owner}/${o.repo}`;
    this.apiUrl = (o.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  }

  /** One REST call; its answer must have `shape` (any JSON by default), else it is a `host` error. */
  private async call<T>(route: string, params: Record<string, unknown>, what: string, shape: Shape<T> = isJson as Shape<T>): Promise<T> {
    this.tracker.retries = 0;
    let data: unknown;
    try {
      const octokit = await this.client();
      data = (await octokit.request(route, { owner: this.o.owner, repo: this.o.repo, ...params })).data;
    } catch (e) {
      throw this.failure(e, what);
    }
    return expectAnswer(data, shape, 'GitHub', what, this.apiUrl);
  }

  /** One GraphQL mutation; errors GitHub lists in its answer are a refusal, worded by `refused` from their messages. */
  private async mutation(query: string, variables: Record<string, unknown>, what: string, refused: (messages: string) => string): Promise<void> {
    this.tracker.retries = 0;
    try {
      const octokit = await this.client();
      await octokit.graphql(query, variables);
    } catch (e) {
      const gql = (e as { errors?: { message?: string }[] }).errors;
      if (Array.isArray(gql)) throw new HostError(refused(gql.map((g) => g.message).join('; ')), 200);
      throw this.failure(e, what);
    }
  }

  private failure(e: unknown, what: string): ScionError {
    return githubFailure(e, what, this.apiUrl, this.tracker);
  }

  async defaultBranch(): Promise<string> {
    const info = await this.call(
      'GET /repos/{owner}/{repo}',
      {},
      `reading the default branch of ${this.label} (naming the pull requests' base branch skips this)`,
      isRecord,
    );
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
    return chosen === undefined ? null : pullOf(chosen);
  }

  async createPull(p: NewPull): Promise<HostPull> {
    const created = await this.call(
      'POST /repos/{owner}/{repo}/pulls',
      { title: p.title, head: p.branch, base: p.base, body: p.body, ...(p.draft ? { draft: true } : {}) },
      `creating the pull request for ${p.branch} into ${p.base}`,
      isPull,
    );
    return pullOf(created);
  }

  async updatePull(pull: HostPull, p: { title: string; body: string }): Promise<HostPull> {
    const updated = await this.call(
      'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
      { pull_number: pull.number, title: p.title, body: p.body },
      `updating pull request #${pull.number}`,
      isPull,
    );
    return pullOf(updated);
  }

  async addExtras(pull: HostPull, x: PullExtras): Promise<void> {
    const n = pull.number;
    if (x.labels.length > 0)
      await this.call(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
        { issue_number: n, labels: [...x.labels] },
        `adding labels to pull request #${n}`,
      );
    const all = [...x.reviewers, ...(x.owners ?? [])];
    const teams = all.filter((r) => r.startsWith('team:')).map((r) => r.slice('team:'.length));
    const users = all.filter((r) => !r.startsWith('team:'));
    if (users.length + teams.length > 0) {
      await this.call(
        'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
        { pull_number: n, reviewers: users, team_reviewers: teams },
        `requesting reviewers on pull request #${n}`,
      );
    }
    if (x.assignees.length > 0)
      await this.call(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/assignees',
        { issue_number: n, assignees: [...x.assignees] },
        `assigning pull request #${n}`,
      );
  }

  async enableAutoMerge(pull: HostPull, method: MergeMethod): Promise<void> {
    const what = `enabling auto-merge on pull request #${pull.number}`;
    await this.mutation(
      'mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!) { enablePullRequestAutoMerge(input: {pullRequestId: $pullRequestId, ' +
        'mergeMethod: $mergeMethod}) { pullRequest { number } } }',
      { pullRequestId: pull.nodeId, mergeMethod: method.toUpperCase() },
      what,
      (messages) => `GitHub refused ${what} (${messages}); allow auto-merge in the repository settings and protect the base branch with required checks.`,
    );
  }

  async comment(pull: HostPull, text: string): Promise<void> {
    await this.call(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: pull.number, body: text },
      `commenting on pull request #${pull.number}`,
    );
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
      (d): d is { check_runs?: CheckRunJson[] } => isRecord(d) && (d['check_runs'] === undefined || isList(d['check_runs'])),
    );
    const combined = await this.call<{ state?: string; total_count?: number }>(
      'GET /repos/{owner}/{repo}/commits/{ref}/status',
      { ref: pull.headSha },
      what,
      isRecord,
    );
    return checksOf(runs.check_runs ?? [], combined);
  }

  async review(pull: HostPull): Promise<ReviewState> {
    const what = `reading the reviews of pull request #${pull.number}`;
    const reviews = await this.call<ReviewJson[]>(
      'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
      { pull_number: pull.number, per_page: 100 },
      what,
      isList,
    );
    const verdict = verdictOf(reviews);
    if (verdict !== null) return verdict;
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
    await this.mutation(
      'mutation($pullRequestId: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $pullRequestId}) { pullRequest { number } } }',
      { pullRequestId: pull.nodeId },
      what,
      (messages) => `GitHub refused ${what} (${messages}).`,
    );
  }

  async merge(pull: HostPull, method: MergeMethod): Promise<void> {
    await this.call(
      'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge',
      { pull_number: pull.number, merge_method: method },
      `merging pull request #${pull.number}`,
    );
  }

  async findIssue(marker: string, number?: number): Promise<HostIssue | null> {
    if (number !== undefined)
      return issueOf(
        await this.call('GET /repos/{owner}/{repo}/issues/{issue_number}', { issue_number: number }, `reading issue #${number} of ${this.label}`, isIssue),
      );
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
    return issueOf(
      await this.call(
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        { issue_number: issue.number, body },
        `editing issue #${issue.number} of ${this.label}`,
        isIssue,
      ),
    );
  }
}
