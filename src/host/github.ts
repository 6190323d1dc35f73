// GitHub as a Host: REST through the client of github-client.ts (rate limits, retries, the write
// budget), GraphQL for auto-merge and for marking a draft ready.
import { expectAnswer, isJson, isList, isRecord, type Shape } from './answer.js';
import { githubClient, githubFailure, type GitHubClient, type RetryTracker } from './github-client.js';
import { hostError, HostError, type ScionError } from '../errors.js';
import {
  type ChecksState,
  type Host,
  type HostIssue,
  type HostPull,
  type MergeMethod,
  type NewPull,
  type PullExtras,
  type RequestLimits,
  type ReviewState,
} from './types.js';

export interface GitHubOptions extends RequestLimits {
  /** Default https://api.github.com; GITHUB_API_URL for GitHub Enterprise. */
  readonly apiUrl?: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly fetch?: typeof fetch;
}

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

export class GitHubHost implements Host {
  readonly kind = 'github' as const;
  /** GitHub refuses an issue body past 65,536 characters. */
  readonly issueLimit = 65_536;
  readonly label: string;
  /** Made on the first request (octokit loads then). */
  private octokit: Promise<GitHubClient> | null = null;
  private readonly tracker: RetryTracker = { retries: 0 };
  private readonly apiUrl: string;

  constructor(private readonly o: GitHubOptions) {
    this.label = `${o.owner}/${o.repo}`;
    this.apiUrl = (o.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  }

  private client(): Promise<GitHubClient> {
    return (this.octokit ??= githubClient({ ...this.o, apiUrl: this.apiUrl }, this.tracker));
  }

  /** One REST call; its answer must have `shape` (any JSON by default), else it is a `host` error. */
  private async call<T>(route: string, params: Record<string, unknown>, what: string, shape: Shape<T> = isJson as Shape<T>): Promise<T> {
    const octokit = await this.client();
    this.tracker.retries = 0;
    let data: unknown;
    try {
      data = (await octokit.request(route, { owner: this.o.owner, repo: this.o.repo, ...params })).data;
    } catch (e) {
      throw this.failure(e, what);
    }
    return expectAnswer(data, shape, 'GitHub', what, this.apiUrl);
  }

  private failure(e: unknown, what: string): ScionError {
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
      reviewers: [...(p.requested_reviewers ?? []).map((r) => r.login ?? ''), ...(p.requested_teams ?? []).map((t) => `team:${t.slug ?? ''}`)].filter(
        (r) => r !== '' && r !== 'team:',
      ),
    };
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
    const updated = await this.call(
      'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
      { pull_number: pull.number, title: p.title, body: p.body },
      `updating pull request #${pull.number}`,
      isPull,
    );
    return this.pull(updated);
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
    const octokit = await this.client();
    this.tracker.retries = 0;
    try {
      await octokit.graphql(
        'mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!) { enablePullRequestAutoMerge(input: {pullRequestId: $pullRequestId, ' +
          'mergeMethod: $mergeMethod}) { pullRequest { number } } }',
        { pullRequestId: pull.nodeId, mergeMethod: method.toUpperCase() },
      );
    } catch (e) {
      const gql = (e as { errors?: { message?: string }[] }).errors;
      if (Array.isArray(gql)) {
        throw hostError(
          `GitHub refused ${what} (${gql.map((g) => g.message).join('; ')}); allow auto-merge in the repository settings and protect the base ` +
            `branch with required checks.`,
          200,
        );
      }
      throw this.failure(e, what);
    }
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
      (d): d is { check_runs?: { status?: string; conclusion?: string | null }[] } => isRecord(d) && (d['check_runs'] === undefined || isList(d['check_runs'])),
    );
    const combined = await this.call<{ state?: string; total_count?: number }>(
      'GET /repos/{owner}/{repo}/commits/{ref}/status',
      { ref: pull.headSha },
      what,
      isRecord,
    );
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
    const reviews = await this.call<{ state?: string; user?: { login?: string } | null }[]>(
      'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
      { pull_number: pull.number, per_page: 100 },
      what,
      isList,
    );
    // A reviewer's latest approving or blocking review is their verdict; comments do not change it.
    const verdict = new Map<string, string>();
    for (const r of reviews)
      if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') verdict.set(r.user?.login ?? '', r.state);
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
    const octokit = await this.client();
    this.tracker.retries = 0;
    try {
      await octokit.graphql(
        'mutation($pullRequestId: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $pullRequestId}) { pullRequest { number } } }',
        { pullRequestId: pull.nodeId },
      );
    } catch (e) {
      const gql = (e as { errors?: { message?: string }[] }).errors;
      if (Array.isArray(gql)) throw new HostError(`GitHub refused ${what} (${gql.map((g) => g.message).join('; ')}).`, 200);
      throw this.failure(e, what);
    }
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
