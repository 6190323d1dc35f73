// GitLab as a Host: merge requests through the REST API v4 with plain fetch. @gitbeaker/rest runs on
// Node 20, but scion needs nine endpoints, its own retry and timeout rules and its own one-sentence
// errors; gitbeaker would add a second retry layer and error shape to map for no gain.
import { htmlTitle, isJson, isList, isRecord, readAnswer, type Shape } from './answer.js';
import { hostError } from '../errors.js';
import { processWriteBudgets } from './budget.js';
import { slowDownRetries } from './github-client.js';
import { apiFetch } from './http.js';
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
import { sleep } from '../util/sleep.js';

export interface GitLabOptions extends RequestLimits {
  /** Default https://gitlab.com/api/v4; GITLAB_API_URL (or CI_SERVER_URL + /api/v4) for self-managed GitLab. */
  readonly apiUrl?: string;
  readonly token: string;
  /** The project's path: group/subgroup/project. */
  readonly project: string;
  readonly fetch?: typeof fetch;
}

interface MrJson {
  id: number;
  iid: number;
  web_url: string;
  state: string;
  draft?: boolean;
  work_in_progress?: boolean;
  sha?: string | null;
  target_branch?: string;
  description?: string | null;
  head_pipeline?: { status?: string } | null;
  reviewers?: { username?: string }[];
  updated_at?: string | null;
  title?: string;
}

interface IssueJson {
  iid: number;
  web_url: string;
  description?: string | null;
}

const isIssue = (d: unknown): d is IssueJson => isRecord(d) && Number.isInteger(d['iid']) && typeof d['web_url'] === 'string';
const issueOf = (i: IssueJson): HostIssue => ({ number: i.iid, url: i.web_url, body: i.description ?? '' });
const DRAFT = /^(draft:|\[draft\]|\(draft\))\s*/i;

/** The fields of a merge request scion reads: its number in the project, its page, its state. */
function isMr(d: unknown): d is MrJson {
  return isRecord(d) && Number.isInteger(d['iid']) && typeof d['web_url'] === 'string' && typeof d['state'] === 'string';
}

export class GitLabHost implements Host {
  readonly kind = 'gitlab' as const;
  /** GitLab refuses a description past 1,048,576 characters. */
  readonly issueLimit = 1_048_576;
  readonly label: string;
  private readonly apiUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly o: GitLabOptions) {
    this.label = o.project;
    this.apiUrl = (o.apiUrl ?? 'https://gitlab.com/api/v4').replace(/\/+$/, '');
    const writes = o.writes ?? processWriteBudgets();
    this.fetch = apiFetch(this.apiUrl, o.timeoutMs ?? 60_000, o.fetch, {
      budget: writes.of(this.apiUrl, o.token),
      token: o.token,
      ...(o.reads ? { reads: o.reads } : {}),
    });
  }

  /** One REST call; its answer must have `shape` (any JSON by default; a 204 has none), else it is a HostError. */
  private async call<T>(method: string, path: string, what: string, body?: unknown, shape: Shape<T> = isJson as Shape<T>): Promise<T> {
    const url = `${this.apiUrl}/projects/${encodeURIComponent(this.o.project)}${path}`;
    const res = await gitlabRequest({ ...this.o, apiUrl: this.apiUrl, fetch: this.fetch }, method, url, what, body);
    return (await readAnswer(res, shape, 'GitLab', what, this.apiUrl)) as T;
  }

  private pull(m: MrJson): HostPull {
    return {
      number: m.iid,
      url: m.web_url,
      state: m.state === 'merged' ? 'merged' : m.state === 'opened' || m.state === 'locked' ? 'open' : 'closed',
      draft: m.draft === true || m.work_in_progress === true,
      headSha: m.sha ?? null,
      base: m.target_branch ?? '',
      body: m.description ?? '',
      nodeId: String(m.id),
      updatedAt: m.updated_at ?? null,
      reviewers: (m.reviewers ?? []).map((r) => r.username ?? '').filter((r) => r !== ''),
    };
  }

  async defaultBranch(): Promise<string> {
    const p = await this.call(
      'GET',
      '',
      `reading the default branch of ${this.label} (naming the merge requests' base branch skips this)`,
      undefined,
      isRecord,
    );
    return typeof p.default_branch === 'string' && p.default_branch !== '' ? p.default_branch : 'main';
  }

  async findPull(branch: string): Promise<HostPull | null> {
    const list = await this.call(
      'GET',
      `/merge_requests?source_branch=${encodeURIComponent(branch)}&state=all&order_by=created_at&sort=desc&per_page=20`,
      `looking for the merge request of ${branch} in ${this.label}`,
      undefined,
      (d): d is MrJson[] => Array.isArray(d) && d.every(isMr),
    );
    const chosen = list.find((m) => m.state === 'opened') ?? list[0];
    return chosen === undefined ? null : this.pull(chosen);
  }

  async createPull(p: NewPull): Promise<HostPull> {
    // GitLab marks a draft by its title.
    const title = p.draft && !/^(draft:|\[draft\])/i.test(p.title) ? `Draft: ${p.title}` : p.title;
    const m = await this.call(
      'POST',
      '/merge_requests',
      `creating the merge request for ${p.branch} into ${p.base}`,
      { source_branch: p.branch, target_branch: p.base, title, description: p.body, remove_source_branch: true },
      isMr,
    );
    return this.pull(m);
  }

  async updatePull(pull: HostPull, p: { title: string; body: string }): Promise<HostPull> {
    const title = pull.draft && !/^(draft:|\[draft\])/i.test(p.title) ? `Draft: ${p.title}` : p.title;
    const m = await this.call('PUT', `/merge_requests/${pull.number}`, `updating merge request !${pull.number}`, { title, description: p.body }, isMr);
    return this.pull(m);
  }

  async addExtras(pull: HostPull, x: PullExtras): Promise<void> {
    const what = `updating merge request !${pull.number}`;
    const update: Record<string, unknown> = {};
    if (x.labels.length > 0) update['add_labels'] = x.labels.join(',');
    // GitLab has no team reviewers: a `team:` entry is a group, which merge requests cannot be assigned to.
    const users = x.reviewers.filter((r) => !r.startsWith('team:'));
    const owners = (x.owners ?? []).filter((r) => !r.startsWith('team:'));
    const ids = [...(users.length > 0 ? await this.userIds(users, what) : []), ...(owners.length > 0 ? await this.userIds(owners, what, { known: true }) : [])];
    if (ids.length > 0) update['reviewer_ids'] = [...new Set(ids)];
    if (x.assignees.length > 0) update['assignee_ids'] = await this.userIds(x.assignees, what);
    if (Object.keys(update).length > 0) await this.call('PUT', `/merge_requests/${pull.number}`, what, update);
  }

  /** Users' ids by name; `known`: a name GitLab answers with no user is left out instead of failing. */
  private async userIds(names: readonly string[], what: string, o: { known?: boolean } = {}): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      const url = `${this.apiUrl}/users?username=${encodeURIComponent(name)}`;
      const res = await this.fetch(url, { headers: { 'private-token': this.o.token, accept: 'application/json' } }).catch(() => null);
      const found = res?.ok ? ((await readAnswer(res, isList, 'GitLab', what, this.apiUrl)) as { id?: number }[]) : [];
      if (found[0]?.id === undefined && o.known === true && res?.ok) continue;
      if (found[0]?.id === undefined)
        throw hostError(`GitLab knows no user "${name}" (while ${what}); check the recipe's pr.reviewers and pr.assignees.`, res?.status ?? null);
      ids.push(found[0].id);
    }
    return ids;
  }

  async enableAutoMerge(pull: HostPull, method: MergeMethod): Promise<void> {
    await this.call('PUT', `/merge_requests/${pull.number}/merge`, `enabling auto-merge on merge request !${pull.number}`, {
      merge_when_pipeline_succeeds: true,
      ...(method === 'squash' ? { squash: true } : {}),
    });
  }

  async comment(pull: HostPull, text: string): Promise<void> {
    await this.call('POST', `/merge_requests/${pull.number}/notes`, `commenting on merge request !${pull.number}`, { body: text });
  }

  async closePull(pull: HostPull): Promise<void> {
    await this.call('PUT', `/merge_requests/${pull.number}`, `closing merge request !${pull.number}`, { state_event: 'close' });
  }

  async checks(pull: HostPull): Promise<ChecksState> {
    const m = await this.call('GET', `/merge_requests/${pull.number}`, `reading the pipeline of merge request !${pull.number}`, undefined, isMr);
    const s = m.head_pipeline?.status;
    if (s === undefined || s === null) return 'none';
    if (s === 'success') return 'success';
    if (s === 'failed' || s === 'canceled') return 'failure';
    return s === 'skipped' ? 'none' : 'pending';
  }

  async review(pull: HostPull): Promise<ReviewState> {
    const a = await this.call<{ approved?: boolean; approvals_left?: number; approved_by?: unknown[] }>(
      'GET',
      `/merge_requests/${pull.number}/approvals`,
      `reading the approvals of merge request !${pull.number}`,
    );
    if ((a.approvals_left ?? 0) > 0) return 'required';
    return (a.approved_by?.length ?? 0) > 0 ? 'approved' : 'none';
  }

  async comments(pull: HostPull): Promise<string[]> {
    const out: string[] = [];
    for (let page = 1; page <= 20; page++) {
      const list = await this.call<{ body?: string; system?: boolean }[]>(
        'GET',
        `/merge_requests/${pull.number}/notes?sort=asc&per_page=100&page=${page}`,
        `reading the notes of merge request !${pull.number}`,
        undefined,
        isList,
      );
      out.push(...list.filter((n) => n.system !== true).map((n) => n.body ?? ''));
      if (list.length < 100) break;
    }
    return out;
  }

  async markReady(pull: HostPull): Promise<void> {
    const what = `marking merge request !${pull.number} ready`;
    const m = await this.call('GET', `/merge_requests/${pull.number}`, what, undefined, isMr);
    await this.call('PUT', `/merge_requests/${pull.number}`, what, { title: (m.title ?? '').replace(DRAFT, '') });
  }

  async merge(pull: HostPull, method: MergeMethod): Promise<void> {
    await this.call('PUT', `/merge_requests/${pull.number}/merge`, `merging merge request !${pull.number}`, method === 'squash' ? { squash: true } : {});
  }

  async findIssue(marker: string, number?: number): Promise<HostIssue | null> {
    if (number !== undefined) return issueOf(await this.call('GET', `/issues/${number}`, `reading issue #${number} of ${this.label}`, undefined, isIssue));
    const list = await this.call(
      'GET',
      `/issues?search=${encodeURIComponent(marker)}&in=description&state=all&per_page=100`,
      `looking for scion's tracking issue in ${this.label}`,
      undefined,
      (d): d is IssueJson[] => Array.isArray(d) && d.every(isIssue),
    );
    const found = list.find((i) => (i.description ?? '').includes(marker));
    return found === undefined ? null : issueOf(found);
  }

  async createIssue(title: string, body: string): Promise<HostIssue> {
    return issueOf(await this.call('POST', '/issues', `creating the tracking issue in ${this.label}`, { title, description: body }, isIssue));
  }

  async editIssue(issue: HostIssue, body: string): Promise<HostIssue> {
    return issueOf(await this.call('PUT', `/issues/${issue.number}`, `editing issue #${issue.number} of ${this.label}`, { description: body }, isIssue));
  }
}

export interface GitLabRequestOptions extends RequestLimits {
  readonly apiUrl: string;
  readonly token: string;
  /** Already wrapped by apiFetch (deadline, token only to the API's origin). */
  readonly fetch: typeof fetch;
}

/** GitLab's explainGitLab, or discovery's own wording of 401/403/404. */
export type ExplainGitLab = (status: number, what: string, body: string, retries: number | null) => string;

/**
 * One GitLab API request with scion's retry rules (network failures and 5xx backed off, 429 waited
 * out): the successful Response, or a HostError sentence. Shared by GitLabHost and discovery.
 */
export async function gitlabRequest(
  o: GitLabRequestOptions,
  method: string,
  url: string,
  what: string,
  body?: unknown,
  explain: ExplainGitLab = explainGitLab,
): Promise<Response> {
  const maxRetries = o.maxRetries ?? 3;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await o.fetch(url, {
        method,
        headers: {
          'private-token': o.token,
          accept: 'application/json',
          'user-agent': 'scion',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (e) {
      if (attempt < maxRetries) {
        await (o.sleep ?? sleep)((attempt + 1) ** 2 * (o.backoffMs ?? 1000));
        continue;
      }
      const why = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
      throw hostError(`Could not reach GitLab at ${o.apiUrl} while ${what} (${why}); check the network and GITLAB_API_URL.`, null);
    }
    if (res.ok) return res;
    const text = await res.text();
    const wait = retryWait(res, attempt, o.backoffMs ?? 1000);
    // A 429 is GitLab pacing scion: waited out as often as GitHub's slow-down answers are.
    const attempts = res.status === 429 ? slowDownRetries(maxRetries) : maxRetries;
    if (wait !== null && attempt < attempts && wait <= (o.maxRetryWaitMs ?? 120_000)) {
      // The host's own wait (429) holds the token's budget: no other write goes out meanwhile.
      if (res.status === 429) (o.writes ?? processWriteBudgets()).of(o.apiUrl, o.token).hostAsked(wait);
      await (o.sleep ?? (o.writes ?? processWriteBudgets()).clock.sleep)(wait);
      continue;
    }
    throw hostError(explain(res.status, what, text, wait !== null && attempt > 0 ? attempt : null), res.status);
  }
}

function retryWait(res: Response, attempt: number, backoffMs: number): number | null {
  if (res.status === 429) {
    const after = Number(res.headers.get('retry-after'));
    if (Number.isFinite(after) && res.headers.get('retry-after') !== null) return after * 1000;
    const reset = Number(res.headers.get('ratelimit-reset'));
    return reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60_000;
  }
  return res.status >= 500 ? (attempt + 1) ** 2 * backoffMs : null;
}

/** GitLab's error JSON ({message} or {error}) or the text as it came, for a sentence. */
export function gitlabMessage(body: string): string {
  let detail = body.trim().slice(0, 200);
  try {
    const data = JSON.parse(body) as { message?: unknown; error?: unknown };
    const m = data.message ?? data.error;
    detail = typeof m === 'string' ? m : Array.isArray(m) ? m.join('; ') : m && typeof m === 'object' ? JSON.stringify(m) : detail;
  } catch {
    // not JSON: the text as it came, or what page it is
    detail = htmlTitle(body) ?? detail;
  }
  return detail;
}

function explainGitLab(status: number, what: string, body: string, retries: number | null): string {
  const sentence = explainStatus(status, what, body, retries);
  // An HTML page is a proxy's or another server's, not the API's: say where to look too.
  return htmlTitle(body) !== null ? sentence.replace(/\.$/, '; check that GITLAB_API_URL is the GitLab API.') : sentence;
}

function explainStatus(status: number, what: string, body: string, retries: number | null): string {
  const detail = gitlabMessage(body);
  const said = detail === '' ? `${status}` : `${status} ${detail}`;
  if (retries !== null) return `GitLab kept failing or rate-limiting while ${what} (${said}) after ${retries} retries; run again later.`;
  if (status === 401) return `GitLab rejected the token while ${what} (${said}); set GITLAB_TOKEN to a token with the api scope.`;
  if (status === 403) return `GitLab refused the request while ${what} (${said}); give GITLAB_TOKEN the api scope and Developer access to the project.`;
  if (status === 404)
    return `GitLab answered 404 while ${what}: the project does not exist or the token cannot see it; check the remote URL and GITLAB_TOKEN's access.`;
  return `GitLab answered ${said} while ${what}.`;
}
