// GitLab's side of discovery: a group's projects with its subgroups' (GET /groups/:id/projects),
// every page through the Link header or x-next-page (each once, at most MAX_PAGES), with the host
// layer's retrying request (host/gitlab.ts).
import { gitlabMessage, gitlabRequest } from '../host/gitlab.js';
import { hostError } from '../errors.js';
import { apiFetch } from '../host/http.js';
import { leftOut, nextLink, PageWalk, type DiscoverQuery, type SourceContext } from './discover-page.js';
import type { RepoTarget } from './targets.js';

/** The fields of GitLab's project object that discovery reads. */
interface ProjectJson {
  path_with_namespace?: unknown;
  http_url_to_repo?: unknown;
  default_branch?: unknown;
  archived?: unknown;
  forked_from_project?: unknown;
  empty_repo?: unknown;
  repository_access_level?: unknown;
  topics?: unknown;
  tag_list?: unknown;
}

export async function discoverGitLab(q: DiscoverQuery, ctx: SourceContext): Promise<RepoTarget[]> {
  const group = q.gitlabGroup!.trim().replace(/^\/+|\/+$/g, '');
  const what = `listing the projects of the GitLab group "${group}"`;
  const request = { apiUrl: ctx.shownApi, token: ctx.token, fetch: apiFetch(ctx.apiUrl, 60_000, ctx.fetch), sleep: ctx.sleep };
  // Projects shared into the group from elsewhere are not the group's (with_shared=false); by id,
  // so a project created while the pages are read lands on the last page.
  const params = new URLSearchParams({ include_subgroups: 'true', with_shared: 'false', order_by: 'id', sort: 'asc', per_page: '100' });
  if (q.includeArchived !== true) params.set('archived', 'false');
  let url: string | null = `${ctx.apiUrl}/groups/${encodeURIComponent(group)}/projects?${params}`;
  const walk = new PageWalk('GitLab', what, 'GITLAB_API_URL', ctx.maxPages);
  const projects: ProjectJson[] = [];
  while (url !== null) {
    walk.visit(url);
    const res = await gitlabRequest(request, 'GET', url, what, undefined, (status, w, body, retries) => explain(group, status, w, body, retries));
    const data: unknown = await res.json().catch(() => null);
    if (!Array.isArray(data)) throw hostError(`GitLab answered ${what} with something other than a list of projects; check GITLAB_API_URL.`, null);
    projects.push(...(data as ProjectJson[]));
    url = nextPage(res, url, ctx.apiUrl);
  }

  let forks = 0;
  let archived = 0;
  let untagged = 0;
  const kept: RepoTarget[] = [];
  for (const p of projects) {
    const name = typeof p.path_with_namespace === 'string' ? p.path_with_namespace : String(p.http_url_to_repo ?? '(unnamed)');
    if (p.forked_from_project != null && q.includeForks !== true) forks++;
    else if (p.archived === true && q.includeArchived !== true) archived++;
    else if (q.topic !== undefined && !hasTopic(p, q.topic)) untagged++;
    else if (p.repository_access_level === 'disabled') ctx.say(`${name}: left out: the project's repository is disabled.`);
    else if (p.empty_repo === true || typeof p.default_branch !== 'string' || p.default_branch === '')
      ctx.say(`${name}: left out: the repository is empty (no default branch).`);
    else {
      const t = ctx.target({ name, cloneUrl: p.http_url_to_repo, defaultBranch: p.default_branch });
      if (t !== null) kept.push(t);
    }
  }
  const left = leftOut(forks, archived, untagged, q.topic);
  ctx.say(`GitLab group ${group}: ${kept.length} of ${projects.length} projects${left}.`);
  return kept;
}

/** rel="next" of the Link header (keyset and offset pagination), else x-next-page on the same URL. */
function nextPage(res: Response, url: string, apiUrl: string): string | null {
  const link = nextLink(res.headers.get('link'), apiUrl);
  if (link !== null) return link;
  const page = res.headers.get('x-next-page')?.trim();
  if (!page || !/^\d+$/.test(page)) return null;
  const next = new URL(url);
  next.searchParams.set('page', page);
  return next.href;
}

function hasTopic(p: ProjectJson, topic: string): boolean {
  const topics = Array.isArray(p.topics) ? p.topics : Array.isArray(p.tag_list) ? p.tag_list : [];
  return topics.some((t) => typeof t === 'string' && t.toLowerCase() === topic.toLowerCase());
}

/** GitLab's answers in words that fit reading a group (explainGitLab's speak of a project). */
function explain(group: string, status: number, what: string, body: string, retries: number | null): string {
  const detail = gitlabMessage(body);
  const said = detail === '' ? `${status}` : `${status} ${detail}`;
  if (retries !== null) return `GitLab kept failing or rate-limiting while ${what} (${said}) after ${retries} retries; run again later.`;
  if (status === 401) return `GitLab rejected the token while ${what} (${said}); set GITLAB_TOKEN to a valid token with the read_api scope.`;
  if (status === 403) return `GitLab refused the request while ${what} (${said}); give GITLAB_TOKEN the read_api scope and access to the group.`;
  if (status === 404)
    return (
      `GitLab answered 404 while ${what}: there is no group "${group}", or GITLAB_TOKEN cannot see it; check the group's full path (e.g. ` +
      `parent/child) and the token's access.`
    );
  return `GitLab answered ${said} while ${what}.`;
}
