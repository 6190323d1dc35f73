// A local stand-in for GitLab's REST API v4 (merge requests, notes, approvals, users, issues): records
// every request and answers from a small merge-request store.
//
// ETags: GitLab's API answers its reads with a weak ETag computed from the body, but does not document
// conditional requests for them, and its tracker reports If-None-Match ignored on API calls
// (gitlab-org/gitlab#14357); the 304s it does send come from its internal polling routes and a few
// downloads. So `etags: 'ignored'` tags every read and answers in full whatever the client sends, as
// GitLab.com does; `'honoured'` answers a matching If-None-Match 304, as an instance behind a caching
// layer would; `'none'` (the default) sends no tag.
import { startJsonServer, type Recorded, type Reply } from '../support/json-server.js';

export interface FakeMr {
  iid: number;
  source: string;
  target: string;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged';
  labels: string[];
  reviewerIds: number[];
  notes: string[];
  autoMerge: boolean;
  squash: boolean;
  pipeline: string | null;
  /** updated_at (default 2026-01-01T00:00:00Z). */
  updatedAt?: string;
  /** approvals the project still needs (default 0) and who approved. */
  approvalsLeft?: number;
  approvedBy?: string[];
}

export interface FakeGitLabIssue {
  iid: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
}

export interface FakeGitLab {
  /** http://127.0.0.1:PORT/api/v4 */
  readonly apiUrl: string;
  readonly requests: Recorded[];
  readonly mrs: FakeMr[];
  intercept: ((r: Recorded) => Reply | undefined) | undefined;
  /** GET /groups/:id/projects: each group's own projects by full path (`acme`, `acme/platform`); an unknown group answers 404. */
  readonly groups: Map<string, Record<string, unknown>[]>;
  /** How the group listing pages: GitLab's x-next-page headers (default), or a Link header as well. */
  paging: 'headers' | 'link';
  readonly issues: FakeGitLabIssue[];
  /** Whether reads carry an ETag, and whether a matching If-None-Match is answered 304 (see the top of the file). */
  etags: 'none' | 'ignored' | 'honoured';
  /** Reads answered 304. */
  notModified: number;
  close(): Promise<void>;
}

/** A project object as GitLab lists it; `over` changes any field (archived, forked_from_project, …). */
export function fakeProject(gitBase: string, path: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: path.length,
    path_with_namespace: path,
    http_url_to_repo: `${gitBase.replace(/\/+$/, '')}/${path}.git`,
    default_branch: 'main',
    archived: false,
    empty_repo: false,
    topics: [],
    ...over,
  };
}

const USERS: Record<string, number> = { octocat: 7, hubot: 8 };

export async function startFakeGitLab(project: string): Promise<FakeGitLab> {
  const requests: Recorded[] = [];
  const mrs: FakeMr[] = [];
  const base = `/api/v4/projects/${encodeURIComponent(project)}`;
  const json = (m: FakeMr) => ({
    id: 5000 + m.iid,
    iid: m.iid,
    web_url: `https://gitlab.example/${project}/-/merge_requests/${m.iid}`,
    state: m.state,
    draft: /^draft:/i.test(m.title),
    sha: null,
    target_branch: m.target,
    description: m.description,
    head_pipeline: m.pipeline === null ? null : { status: m.pipeline },
    title: m.title,
    updated_at: m.updatedAt ?? '2026-01-01T00:00:00Z',
    reviewers: m.reviewerIds.map((id) => ({ id, username: Object.keys(USERS).find((u) => USERS[u] === id) ?? `user${id}` })),
  });
  const issueJson = (i: FakeGitLabIssue) => ({
    iid: i.iid,
    title: i.title,
    description: i.description,
    state: i.state,
    web_url: `https://gitlab.example/${project}/-/issues/${i.iid}`,
  });

  /** The project's issues: search in descriptions, create, read, edit; descriptions past 1,048,576 characters refused. */
  function issues(rest: string, r: Recorded): Reply | undefined {
    const tooLong: Reply = { status: 400, body: { message: { description: ['is too long (maximum is 1048576 characters)'] } } };
    if (rest === '/issues' && r.method === 'GET') {
      const q = r.query.get('search') ?? '';
      return {
        status: 200,
        body: fake.issues
          .filter((i) => i.description.includes(q))
          .reverse()
          .map(issueJson),
      };
    }
    const b = (r.body ?? {}) as { title?: string; description?: string };
    if ((b.description ?? '').length > 1_048_576) return tooLong;
    if (rest === '/issues' && r.method === 'POST') {
      const i: FakeGitLabIssue = { iid: fake.issues.length + 1, title: b.title ?? '', description: b.description ?? '', state: 'opened' };
      fake.issues.push(i);
      return { status: 201, body: issueJson(i) };
    }
    const m = /^\/issues\/(\d+)$/.exec(rest);
    const i = m ? fake.issues.find((x) => x.iid === Number(m[1])) : undefined;
    if (!m) return undefined;
    if (!i) return { status: 404, body: { message: '404 Issue Not Found' } };
    if (r.method === 'PUT' && typeof b.description === 'string') i.description = b.description;
    return { status: 200, body: issueJson(i) };
  }

  function groupProjects(r: Recorded): Reply | undefined {
    const g = /^\/api\/v4\/groups\/([^/]+)\/projects$/.exec(r.path);
    if (!g || r.method !== 'GET') return undefined;
    const group = decodeURIComponent(g[1]!);
    if (!fake.groups.has(group)) return { status: 404, body: { message: '404 Group Not Found' } };
    const subgroups = r.query.get('include_subgroups') === 'true';
    const archived = r.query.get('archived');
    const all = [...fake.groups.entries()]
      .filter(([path]) => path === group || (subgroups && path.startsWith(`${group}/`)))
      .flatMap(([, projects]) => projects)
      .filter((p) => archived === null || String(p['archived'] === true) === archived);
    const per = Math.min(100, Number(r.query.get('per_page') ?? 20));
    const page = Math.max(1, Number(r.query.get('page') ?? 1));
    const pages = Math.max(1, Math.ceil(all.length / per));
    const headers: Record<string, string> = {
      'x-page': String(page),
      'x-per-page': String(per),
      'x-total': String(all.length),
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
    };
    if (fake.paging === 'link' && page < pages) {
      const q = new URLSearchParams(r.query);
      q.set('page', String(page + 1));
      headers['link'] = `<${fake.apiUrl.replace(/\/api\/v4$/, '')}${r.path}?${q}>; rel="next"`;
      delete headers['x-next-page'];
    }
    return { status: 200, headers, body: all.slice((page - 1) * per, page * per) };
  }

  function route(r: Recorded): Reply {
    const listed = groupProjects(r);
    if (listed !== undefined) return listed;
    if (r.method === 'GET' && r.path === '/api/v4/users') {
      const id = USERS[r.query.get('username') ?? ''];
      return { status: 200, body: id === undefined ? [] : [{ id, username: r.query.get('username') }] };
    }
    // Node's URL keeps %2F in the path; GitLab decodes the project id.
    if (!r.path.startsWith(base)) return { status: 404, body: { message: '404 Project Not Found' } };
    const rest = r.path.slice(base.length);
    if (r.method === 'GET' && rest === '') return { status: 200, body: { default_branch: 'main' } };
    const issue = issues(rest, r);
    if (issue !== undefined) return issue;
    if (r.method === 'GET' && rest === '/merge_requests') {
      const found = mrs.filter((m) => m.source === r.query.get('source_branch'));
      return { status: 200, body: found.reverse().map(json) };
    }
    if (r.method === 'POST' && rest === '/merge_requests') {
      const b = r.body as { source_branch: string; target_branch: string; title: string; description: string };
      const m: FakeMr = {
        iid: mrs.length + 1,
        source: b.source_branch,
        target: b.target_branch,
        title: b.title,
        description: b.description,
        state: 'opened',
        labels: [],
        reviewerIds: [],
        notes: [],
        autoMerge: false,
        squash: false,
        pipeline: null,
      };
      mrs.push(m);
      return { status: 201, body: json(m) };
    }
    const one = /^\/merge_requests\/(\d+)(\/notes|\/merge|\/approvals)?$/.exec(rest);
    const m = one ? mrs.find((x) => x.iid === Number(one[1])) : undefined;
    if (!one || !m) return { status: 404, body: { message: '404 Not found' } };
    const b = (r.body ?? {}) as Record<string, unknown>;
    if (one[2] === '/notes' && r.method === 'GET') return { status: 200, body: m.notes.map((body, id) => ({ id, body, system: false })) };
    if (one[2] === '/notes' && r.method === 'POST') {
      m.notes.push(String(b['body']));
      return { status: 201, body: { id: 1 } };
    }
    if (one[2] === '/merge' && r.method === 'PUT' && b['merge_when_pipeline_succeeds'] !== true) {
      if (m.state !== 'opened' || /^draft:/i.test(m.title)) return { status: 405, body: { message: '405 Method Not Allowed' } };
      m.state = 'merged';
      m.squash = b['squash'] === true;
      return { status: 200, body: json(m) };
    }
    if (one[2] === '/merge' && r.method === 'PUT') {
      m.autoMerge = b['merge_when_pipeline_succeeds'] === true;
      m.squash = b['squash'] === true;
      return { status: 200, body: json(m) };
    }
    if (one[2] === '/approvals')
      return { status: 200, body: { approvals_left: m.approvalsLeft ?? 0, approved_by: (m.approvedBy ?? []).map((username) => ({ user: { username } })) } };
    if (r.method === 'PUT') {
      if (typeof b['title'] === 'string') m.title = b['title'];
      if (typeof b['description'] === 'string') m.description = b['description'];
      if (typeof b['add_labels'] === 'string') for (const l of b['add_labels'].split(',')) if (!m.labels.includes(l)) m.labels.push(l);
      if (Array.isArray(b['reviewer_ids'])) m.reviewerIds = b['reviewer_ids'] as number[];
      if (b['state_event'] === 'close') m.state = 'closed';
    }
    return { status: 200, body: json(m) };
  }

  const fake: FakeGitLab = {
    apiUrl: '',
    requests,
    mrs,
    intercept: undefined,
    groups: new Map(),
    paging: 'headers',
    issues: [],
    etags: 'none',
    notModified: 0,
    close: () => server.close(),
  };
  const server = await startJsonServer({
    requests,
    answer: (r) => fake.intercept?.(r) ?? route(r),
    etags: () => (fake.etags === 'none' ? null : { hash: 'md5', honoured: fake.etags === 'honoured' }),
    notModified: () => fake.notModified++,
  });
  (fake as { apiUrl: string }).apiUrl = `${server.url}/api/v4`;
  return fake;
}
