// A local stand-in for api.github.com (REST + GraphQL): records every request and answers from a
// small pull-request store, with hooks to inject failures (rate limits, bad tokens).
import { startJsonServer, type Recorded, type Reply } from './json-server.js';

export type { Recorded } from './json-server.js';

export interface FakePull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: 'open' | 'closed';
  merged: boolean;
  labels: string[];
  reviewers: string[];
  teamReviewers: string[];
  assignees: string[];
  comments: string[];
  autoMerge: string | null;
  headSha: string | null;
  checkRuns: { status: string; conclusion: string | null }[];
  statuses: string[];
  reviews: { user: string; state: string }[];
  /** updated_at (default 2026-01-01T00:00:00Z): a test moves it to make a pull request stale or fresh. */
  updatedAt?: string;
  /** How it was merged (PUT …/merge), when it was. */
  mergeMethod?: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
}

/** GitHub's secondary limits as a fake enforces them: writes of the last minute and hour, on a clock the test moves. */
export interface SecondaryLimits {
  readonly perMinute: number;
  readonly perHour: number;
  readonly now: () => number;
  /** Writes refused with 403 and retry-after. */
  rejected: number;
  /** Writes accepted, with when. */
  readonly accepted: number[];
}

export interface FakeGitHub {
  readonly url: string;
  readonly requests: Recorded[];
  readonly pulls: FakePull[];
  /** Called first for each request; a reply short-circuits the normal handling. */
  intercept: ((r: Recorded) => Reply | undefined) | undefined;
  /** The commit a branch holds on the git server, for head.sha (default: none). */
  headOf: (branch: string) => string | null;
  /** GET /orgs/{org}/repos: each organisation's repository objects (an unknown org answers 404). */
  readonly orgs: Map<string, Record<string, unknown>[]>;
  /** GET /search/repositories: the repositories a query finds (default: none). */
  search: (q: string) => Record<string, unknown>[];
  /** The total_count the search reports, when it should differ from what it returns (GitHub's cap). */
  searchTotal: number | undefined;
  /** Issues of the repository (numbers from 1; pull requests count from 100). */
  readonly issues: FakeIssue[];
  /** Answer a repeated read 304 when its If-None-Match holds the answer's ETag (default on), and how many were. */
  etags: boolean;
  notModified: number;
  /** When set, writes past these limits are refused as GitHub's secondary limit refuses them. */
  secondary: SecondaryLimits | undefined;
  /** A request this returns true for is handled (a pull request created) but never answered: the client waits until killed. */
  stall: ((r: Recorded) => boolean) | undefined;
  close(): Promise<void>;
}

/** A repository object as GitHub lists it; `over` changes any field (fork, archived, topics, …). */
export function fakeRepo(gitBase: string, fullName: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: fullName.length,
    name: fullName.split('/')[1],
    full_name: fullName,
    clone_url: `${gitBase.replace(/\/+$/, '')}/${fullName}.git`,
    default_branch: 'main',
    fork: false,
    archived: false,
    disabled: false,
    size: 42,
    topics: [],
    ...over,
  };
}

/** One page of `all` as GitHub pages it (?page, ?per_page up to 100), with its Link header. */
function paged(r: Recorded, base: string, all: readonly unknown[], cap = Infinity): { items: unknown[]; headers: Record<string, string> } {
  const per = Math.min(100, Math.max(1, Number(r.query.get('per_page') ?? 30)));
  const page = Math.max(1, Number(r.query.get('page') ?? 1));
  const reachable = Math.min(all.length, cap);
  const last = Math.max(1, Math.ceil(reachable / per));
  const at = (n: number) => {
    const q = new URLSearchParams(r.query);
    q.set('page', String(n));
    return `<${base}${r.path}?${q}>`;
  };
  const links = [
    page < last ? `${at(page + 1)}; rel="next"` : '',
    page < last ? `${at(last)}; rel="last"` : '',
    page > 1 ? `${at(1)}; rel="first"` : '',
  ].filter((l) => l !== '');
  return { items: all.slice((page - 1) * per, Math.min(page * per, reachable)), headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

/** A write past the secondary limits: 403 with retry-after (whole seconds until the oldest write leaves its window). */
function limited(l: SecondaryLimits | undefined, r: Recorded): Reply | undefined {
  if (l === undefined || ['GET', 'HEAD'].includes(r.method)) return undefined;
  const now = l.now();
  const minute = l.accepted.filter((t) => t > now - 60_000);
  const hour = l.accepted.filter((t) => t > now - 3_600_000);
  let free = now;
  if (minute.length >= l.perMinute) free = Math.max(free, minute[minute.length - l.perMinute]! + 60_000);
  if (hour.length >= l.perHour) free = Math.max(free, hour[hour.length - l.perHour]! + 3_600_000);
  if (free <= now) {
    l.accepted.push(now);
    return undefined;
  }
  l.rejected++;
  const after = String(Math.max(1, Math.ceil((free - now) / 1000)));
  return {
    status: 403,
    headers: { 'retry-after': after },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
  };
}

export async function startFakeGitHub(owner: string, repo: string): Promise<FakeGitHub> {
  const requests: Recorded[] = [];
  const pulls: FakePull[] = [];
  const prefix = `/repos/${owner}/${repo}`;
  const htmlUrl = (n: number) => `https://github.example/${owner}/${repo}/pull/${n}`;
  const json = (p: FakePull) => ({
    number: p.number,
    html_url: htmlUrl(p.number),
    node_id: `PR_${p.number}`,
    state: p.state,
    merged_at: p.merged ? '2026-01-01T00:00:00Z' : null,
    title: p.title,
    body: p.body,
    draft: p.draft,
    head: { ref: p.head, sha: p.headSha ?? fake.headOf(p.head) },
    base: { ref: p.base },
    requested_reviewers: p.reviewers.map((login) => ({ login })),
    requested_teams: p.teamReviewers.map((slug) => ({ slug })),
    updated_at: p.updatedAt ?? '2026-01-01T00:00:00Z',
  });
  const issueJson = (i: FakeIssue) => ({
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    html_url: `https://github.example/${owner}/${repo}/issues/${i.number}`,
  });
  const byNumber = (n: string | undefined) => pulls.find((x) => x.number === Number(n));
  const notFound: Reply = { status: 404, body: { message: 'Not Found' } };

  function graphql(r: Recorded): Reply {
    const b = r.body as { query: string; variables: { pullRequestId: string; mergeMethod: string } };
    if (/markPullRequestReadyForReview/.test(b.query)) {
      const p = byNumber(b.variables.pullRequestId.replace(/^PR_/, ''));
      if (!p) return { status: 200, body: { errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a node' }] } };
      p.draft = false;
      return { status: 200, body: { data: { markPullRequestReadyForReview: { pullRequest: { number: p.number } } } } };
    }
    const m = /enablePullRequestAutoMerge/.test(b.query) ? byNumber(b.variables.pullRequestId.replace(/^PR_/, '')) : undefined;
    if (!m) return { status: 200, body: { errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a node' }] } };
    m.autoMerge = b.variables.mergeMethod;
    return { status: 200, body: { data: { enablePullRequestAutoMerge: { pullRequest: { number: m.number } } } } };
  }

  function discovery(r: Recorded): Reply | undefined {
    const org = /^\/orgs\/([^/]+)\/repos$/.exec(r.path);
    if (org && r.method === 'GET') {
      const repos = fake.orgs.get(decodeURIComponent(org[1]!));
      if (repos === undefined) return notFound;
      const { items, headers } = paged(r, fake.url, repos);
      return { status: 200, headers, body: items };
    }
    if (r.path === '/search/repositories' && r.method === 'GET') {
      const q = r.query.get('q');
      if (!q) return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Search', field: 'q', code: 'missing' }] } };
      const found = fake.search(q);
      const per = Math.min(100, Number(r.query.get('per_page') ?? 30));
      if ((Number(r.query.get('page') ?? 1) - 1) * per >= 1000) return { status: 422, body: { message: 'Only the first 1000 search results are available' } };
      const { items, headers } = paged(r, fake.url, found, 1000);
      return { status: 200, headers, body: { total_count: fake.searchTotal ?? found.length, incomplete_results: false, items } };
    }
    return undefined;
  }

  /** The repository's issues: list (paged, pull requests left out here), create, read, edit; bodies past 65,536 characters refused. */
  function issues(r: Recorded): Reply | undefined {
    const tooLong: Reply = {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
      },
    };
    if (r.path === `${prefix}/issues` && r.method === 'GET') {
      const state = r.query.get('state') ?? 'open';
      const { items, headers } = paged(
        r,
        fake.url,
        fake.issues
          .filter((i) => state === 'all' || i.state === state)
          .reverse()
          .map(issueJson),
      );
      return { status: 200, headers, body: items };
    }
    if (r.path === `${prefix}/issues` && r.method === 'POST') {
      const b = r.body as { title: string; body?: string };
      if ((b.body ?? '').length > 65_536) return tooLong;
      const i: FakeIssue = { number: fake.issues.length + 1, title: b.title, body: b.body ?? '', state: 'open' };
      fake.issues.push(i);
      return { status: 201, body: issueJson(i) };
    }
    const m = new RegExp(`^${prefix}/issues/(\\d+)$`).exec(r.path);
    const i = m ? fake.issues.find((x) => x.number === Number(m[1])) : undefined;
    if (!m || !i) return undefined;
    if (r.method === 'PATCH') {
      const b = r.body as Partial<FakeIssue>;
      if ((b.body ?? '').length > 65_536) return tooLong;
      Object.assign(i, b);
    }
    return { status: 200, body: issueJson(i) };
  }

  function route(r: Recorded): Reply {
    if (r.method === 'POST' && r.path === '/graphql') return graphql(r);
    const found = discovery(r);
    if (found !== undefined) return found;
    if (r.method === 'GET' && r.path === prefix) return { status: 200, body: { default_branch: 'main' } };
    if (r.method === 'GET' && r.path === `${prefix}/pulls`) {
      const head = r.query.get('head') ?? '';
      const state = r.query.get('state') ?? 'open';
      const found = pulls.filter((p) => `${owner}:${p.head}` === head && (state === 'all' || p.state === state));
      return { status: 200, body: found.reverse().map(json) };
    }
    if (r.method === 'POST' && r.path === `${prefix}/pulls`) {
      const b = r.body as { title: string; head: string; base: string; body: string; draft?: boolean };
      if (pulls.some((p) => p.head === b.head && p.state === 'open')) {
        return { status: 422, body: { message: 'Validation Failed', errors: [{ message: `A pull request already exists for ${owner}:${b.head}.` }] } };
      }
      const p: FakePull = {
        number: 100 + pulls.length,
        head: b.head,
        base: b.base,
        title: b.title,
        body: b.body,
        draft: b.draft === true,
        state: 'open',
        merged: false,
        labels: [],
        reviewers: [],
        teamReviewers: [],
        assignees: [],
        comments: [],
        autoMerge: null,
        headSha: null,
        checkRuns: [],
        statuses: [],
        reviews: [],
      };
      pulls.push(p);
      return { status: 201, body: json(p) };
    }
    let m = new RegExp(`^${prefix}/pulls/(\\d+)$`).exec(r.path);
    if (m) {
      const p = byNumber(m[1]);
      if (!p) return notFound;
      if (r.method === 'PATCH') Object.assign(p, r.body as object);
      return { status: 200, body: json(p) };
    }
    m = new RegExp(`^${prefix}/pulls/(\\d+)/merge$`).exec(r.path);
    if (m && r.method === 'PUT') {
      const p = byNumber(m[1]);
      if (!p) return notFound;
      if (p.state !== 'open' || p.draft) return { status: 405, body: { message: 'Pull Request is not mergeable' } };
      p.merged = true;
      p.state = 'closed';
      p.mergeMethod = (r.body as { merge_method?: string } | undefined)?.merge_method ?? 'merge';
      return { status: 200, body: { merged: true, message: 'Pull Request successfully merged' } };
    }
    const issue = issues(r);
    if (issue !== undefined) return issue;
    m = new RegExp(`^${prefix}/pulls/(\\d+)/(requested_reviewers|reviews)$`).exec(r.path);
    if (m) {
      const p = byNumber(m[1]);
      if (!p) return notFound;
      if (m[2] === 'reviews') return { status: 200, body: p.reviews.map((v) => ({ user: { login: v.user }, state: v.state })) };
      const b = r.body as { reviewers?: string[]; team_reviewers?: string[] };
      p.reviewers.push(...(b.reviewers ?? []));
      p.teamReviewers.push(...(b.team_reviewers ?? []));
      return { status: 201, body: json(p) };
    }
    m = new RegExp(`^${prefix}/issues/(\\d+)/comments$`).exec(r.path);
    if (m && r.method === 'GET') {
      const p = byNumber(m[1]);
      if (!p) return notFound;
      const { items, headers } = paged(
        r,
        fake.url,
        p.comments.map((body, i) => ({ id: i + 1, body })),
      );
      return { status: 200, headers, body: items };
    }
    m = new RegExp(`^${prefix}/issues/(\\d+)/(labels|assignees|comments)$`).exec(r.path);
    if (m && r.method === 'POST') {
      const p = byNumber(m[1]);
      if (!p) return notFound;
      if (m[2] === 'labels') for (const l of (r.body as { labels: string[] }).labels) if (!p.labels.includes(l)) p.labels.push(l);
      if (m[2] === 'assignees') p.assignees.push(...(r.body as { assignees: string[] }).assignees);
      if (m[2] === 'comments') p.comments.push((r.body as { body: string }).body);
      return { status: m[2] === 'labels' ? 200 : 201, body: m[2] === 'labels' ? p.labels.map((name) => ({ name })) : { id: 1 } };
    }
    m = new RegExp(`^${prefix}/commits/([0-9a-f]+)/(check-runs|status)$`).exec(r.path);
    if (m && r.method === 'GET') {
      const p = pulls.find((x) => (x.headSha ?? fake.headOf(x.head)) === m![1]);
      if (m[2] === 'check-runs') return { status: 200, body: { total_count: p?.checkRuns.length ?? 0, check_runs: p?.checkRuns ?? [] } };
      const st = p?.statuses ?? [];
      const state = st.includes('failure') ? 'failure' : st.includes('pending') || st.length === 0 ? 'pending' : 'success';
      return { status: 200, body: { state, total_count: st.length, statuses: st.map((s) => ({ state: s })) } };
    }
    return notFound;
  }

  const fake: FakeGitHub = {
    url: '',
    requests,
    pulls,
    intercept: undefined,
    headOf: () => null,
    orgs: new Map(),
    search: () => [],
    searchTotal: undefined,
    issues: [],
    etags: true,
    notModified: 0,
    secondary: undefined,
    stall: undefined,
    close: () => server.close(),
  };

  const server = await startJsonServer({
    requests,
    answer: (r) => {
      const reply = fake.intercept?.(r) ?? limited(fake.secondary, r) ?? route(r);
      return fake.stall?.(r) === true ? undefined : reply;
    },
    etags: () => (fake.etags ? { hash: 'sha1', honoured: true } : null),
    notModified: () => fake.notModified++,
  });
  (fake as { url: string }).url = server.url;
  return fake;
}
