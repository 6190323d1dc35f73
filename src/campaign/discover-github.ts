// GitHub's side of discovery: an organisation's repositories (GET /orgs/{org}/repos) and a repository
// search (GET /search/repositories), every page through the Link header, with the host layer's octokit (host/github.ts).
// The search goes through plugin-throttling's search queue: one page every 2 s, GitHub's 30 a minute.
import { explainGitHub, githubMessage } from '../host/github-explain.js';
import { hostError } from '../errors.js';
import { githubClient, githubFailure, type ExplainGitHub, type GitHubClient, type RetryTracker } from '../host/github-client.js';
import { leftOut, nextLink, PageWalk, type DiscoverQuery, type SourceContext } from './discover-page.js';
import type { RepoTarget } from './targets.js';

/** The fields of GitHub's repository object that discovery reads. */
interface RepoJson {
  full_name?: unknown;
  clone_url?: unknown;
  default_branch?: unknown;
  fork?: unknown;
  archived?: unknown;
  disabled?: unknown;
  size?: unknown;
  topics?: unknown;
}

/** GitHub's search returns at most this many results, however many match. */
const SEARCH_CAP = 1000;

export async function discoverGitHub(q: DiscoverQuery, ctx: SourceContext): Promise<RepoTarget[]> {
  const tracker: RetryTracker = { retries: 0 };
  const client = await githubClient({ apiUrl: ctx.apiUrl, token: ctx.token, ...(ctx.fetch ? { fetch: ctx.fetch } : {}), sleep: ctx.sleep }, tracker);
  const found: RepoTarget[] = [];
  if (q.githubOrg !== undefined) found.push(...(await organisation(q.githubOrg.trim(), q, ctx, client, tracker)));
  if (q.githubSearch !== undefined) found.push(...(await search(q.githubSearch.trim(), q, ctx, client, tracker)));
  return found;
}

async function organisation(org: string, q: DiscoverQuery, ctx: SourceContext, client: GitHubClient, tracker: RetryTracker): Promise<RepoTarget[]> {
  const what = `listing the repositories of the GitHub organisation "${org}"`;
  const explain = explainFor('org', org);
  const repos: RepoJson[] = [];
  // Oldest first: a repository created while the pages are read lands on the last page, not
  // shifting one from a page already read onto the next.
  const first = { route: 'GET /orgs/{org}/repos', params: { org, type: 'all', sort: 'created', direction: 'asc', per_page: 100 } };
  for await (const data of pages(first, what, explain, ctx, client, tracker)) {
    if (!Array.isArray(data)) throw hostError(`GitHub answered ${what} with something other than a list of repositories; check GITHUB_API_URL.`, null);
    repos.push(...(data as RepoJson[]));
  }
  let forks = 0;
  let archived = 0;
  let untagged = 0;
  const kept: RepoTarget[] = [];
  for (const r of repos) {
    if (r.fork === true && q.includeForks !== true) forks++;
    else if (r.archived === true && q.includeArchived !== true) archived++;
    else if (q.topic !== undefined && !hasTopic(r.topics, q.topic)) untagged++;
    else {
      const t = usable(r, ctx);
      if (t !== null) kept.push(t);
    }
  }
  const left = leftOut(forks, archived, untagged, q.topic);
  ctx.say(`GitHub organisation ${org}: ${kept.length} of ${repos.length} repositories${left}.`);
  return kept;
}

async function search(query: string, q: DiscoverQuery, ctx: SourceContext, client: GitHubClient, tracker: RetryTracker): Promise<RepoTarget[]> {
  const what = `searching GitHub repositories for "${query}"`;
  const explain = explainFor('search', query);
  const repos: RepoJson[] = [];
  let total: number | null = null;
  let incomplete = false;
  const first = { route: 'GET /search/repositories', params: { q: query, per_page: 100 } };
  for await (const data of pages(first, what, explain, ctx, client, tracker)) {
    const page = data as { total_count?: unknown; incomplete_results?: unknown; items?: unknown } | null;
    if (page === null || typeof page !== 'object' || !Array.isArray(page.items))
      throw hostError(`GitHub answered ${what} with something other than search results; check GITHUB_API_URL.`, null);
    if (total === null && typeof page.total_count === 'number') {
      total = page.total_count;
      if (total > SEARCH_CAP)
        ctx.say(
          `GitHub found ${total} repositories for "${query}" but gives only the first ${SEARCH_CAP}; narrow the search (e.g. split it by language:, ` +
            `topic: or created:) to reach the rest.`,
        );
    }
    incomplete ||= page.incomplete_results === true;
    repos.push(...(page.items as RepoJson[]));
    if (repos.length >= SEARCH_CAP) break;
  }
  if (incomplete) ctx.say(`GitHub's search for "${query}" timed out and gave incomplete results; run again, or narrow the search.`);
  let untagged = 0;
  const kept: RepoTarget[] = [];
  // The query's own fork:/archived: qualifiers decide which come back; only the topic is filtered here.
  for (const r of repos.slice(0, SEARCH_CAP)) {
    if (q.topic !== undefined && !hasTopic(r.topics, q.topic)) untagged++;
    else {
      const t = usable(r, ctx);
      if (t !== null) kept.push(t);
    }
  }
  ctx.say(`GitHub search "${query}": ${kept.length} of ${repos.length} repositories${leftOut(0, 0, untagged, q.topic)}.`);
  return kept;
}

/** Disabled and empty repositories have nothing to clone: left out, each with a line. */
function usable(r: RepoJson, ctx: SourceContext): RepoTarget | null {
  const name = typeof r.full_name === 'string' ? r.full_name : String(r.clone_url ?? '(unnamed)');
  if (r.disabled === true) {
    ctx.say(`${name}: left out: GitHub has disabled the repository.`);
    return null;
  }
  if (r.size === 0 || typeof r.default_branch !== 'string' || r.default_branch === '') {
    ctx.say(
      `${name}: left out: the repository is empty (no commits${typeof r.default_branch === 'string' && r.default_branch !== '' ? '' : ', no default branch'}).`,
    );
    return null;
  }
  return ctx.target({ name, cloneUrl: r.clone_url, defaultBranch: r.default_branch });
}

function hasTopic(topics: unknown, topic: string): boolean {
  return Array.isArray(topics) && topics.some((t) => typeof t === 'string' && t.toLowerCase() === topic.toLowerCase());
}

/** Every page's body, following rel="next" on the API's own origin, each page once and at most MAX_PAGES (PageWalk). */
async function* pages(
  first: { route: string; params: Record<string, unknown> },
  what: string,
  explain: ExplainGitHub,
  ctx: SourceContext,
  client: GitHubClient,
  tracker: RetryTracker,
): AsyncGenerator<unknown> {
  const walk = new PageWalk('GitHub', what, 'GITHUB_API_URL', ctx.maxPages);
  walk.visit(first.route);
  let request = () => client.request(first.route, first.params);
  for (;;) {
    tracker.retries = 0;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request();
    } catch (e) {
      throw githubFailure(e, what, ctx.shownApi, tracker, explain);
    }
    yield res.data;
    const next = nextLink(res.headers.link, ctx.apiUrl);
    if (next === null) return;
    walk.visit(next);
    request = () => client.request(`GET ${next}`);
  }
}

/** explainGitHub, with what 401/403/404/422 mean when reading an organisation or searching. */
function explainFor(source: 'org' | 'search', name: string): ExplainGitHub {
  return (status, what, body, retries) => {
    const detail = githubMessage(body);
    const said = detail === '' ? `${status}` : `${status} ${detail}`;
    if (retries !== null && (status === 429 || status === 403)) {
      return (
        `GitHub kept rate-limiting the requests while ${what} (${said}) ` +
        `${retries > 0 ? `after ${retries} retries` : 'asking for a longer wait than scion allows'}; run again later.`
      );
    }
    if (status === 401) return `GitHub rejected the token while ${what} (${said}); set GITHUB_TOKEN to a valid token that can read the repositories.`;
    if (status === 403) {
      return (
        `GitHub refused the request while ${what} (${said}); give GITHUB_TOKEN read access to the ` +
        `repositories${source === 'org' ? `, and authorise it for ${name}'s single sign-on if the organisation uses it` : ''}.`
      );
    }
    if (status === 404 && source === 'org') {
      return (
        `GitHub answered 404 while ${what}: there is no organisation "${name}", or GITHUB_TOKEN cannot see it; check the name (for a user's ` +
        `repositories, search with "user:${name}").`
      );
    }
    if (status === 422 && source === 'search') return `GitHub could not run the search while ${what} (${said}); check the query's syntax and qualifiers.`;
    return explainGitHub(status, what, body, retries);
  };
}
