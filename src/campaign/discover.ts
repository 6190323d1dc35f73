// Repository discovery for campaigns: an organisation's repositories, a repository search
// or a GitLab group's projects, as the same RepoTargets a repository list gives. The requests go
// through the host clients of host/ (octokit with throttling and retry; GitLab's retrying fetch), so
// rate limits, deadlines and the token rules are the ones pull requests live under.
import { isValidRefName } from '../git/refs.js';
import { hostError, usageError, isScionError, hostStatus } from '../errors.js';
import { makeRedactor } from '../redact.js';
import { checkApiUrl } from '../host/open.js';
import { forgeTokens, githubForge, gitlabForge, onForge, type Forge } from '../host/credentials.js';
import { shownUrl, type Env } from '../host/remote.js';
import { discoverGitHub } from './discover-github.js';
import { discoverGitLab } from './discover-gitlab.js';
import { MAX_PAGES, type DiscoverQuery, type Found, type SourceContext } from './discover-page.js';
import { parseTarget, type RepoTarget } from './targets.js';
import { compareCodeUnits } from '../util/compare.js';

export type { DiscoverQuery } from './discover-page.js';

export interface DiscoverOptions {
  /** Tokens and API URLs: GITHUB_TOKEN, GITHUB_API_URL, GITLAB_TOKEN, GITLAB_API_URL, CI_SERVER_URL, GIT_TOKEN. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
  /** One line for each repository left out for a reason the user may not expect, and a summary per source. */
  readonly say?: (line: string) => void;
  /** The most pages one listing may take. Default MAX_PAGES (1,000). */
  readonly maxPages?: number;
  /** Makes each wait before a retry (rate limits, backoff; a test passes one that records it). Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * The repositories a query names, sorted by id and without duplicates. Throws UsageError (nothing
 * sent) when a token is missing or would travel in clear text, HostError when the host fails.
 */
export async function discoverTargets(q: DiscoverQuery, o: DiscoverOptions): Promise<RepoTarget[]> {
  // Hosts' answers (error bodies, names, URLs) could echo a token: every line and message is redacted.
  const redact = makeRedactor(o.env, forgeTokens(o.env));
  const sink = o.say;
  const say = (line: string) => sink?.(redact(line));
  try {
    return await discover(q, o, say);
  } catch (e) {
    if (isScionError(e, 'host')) throw hostError(redact(e.message), hostStatus(e));
    if (isScionError(e, 'usage')) throw usageError(redact(e.message), e.problems.map(redact));
    throw e;
  }
}

async function discover(q: DiscoverQuery, o: DiscoverOptions, say: (line: string) => void): Promise<RepoTarget[]> {
  const wantGitHub = q.githubOrg !== undefined || q.githubSearch !== undefined;
  const wantGitLab = q.gitlabGroup !== undefined;
  if (!wantGitHub && !wantGitLab) throw usageError('Nothing to discover: name a GitHub organisation, a GitHub search or a GitLab group.');
  for (const [key, value] of [
    ['githubOrg', q.githubOrg],
    ['githubSearch', q.githubSearch],
    ['gitlabGroup', q.gitlabGroup],
  ] as const) {
    if (value !== undefined && value.trim() === '') throw usageError(`The ${key} to discover repositories from is empty; give its name.`);
  }
  // Every token and URL is checked before the first request, so a mistake costs no request at all.
  const maxPages = o.maxPages ?? MAX_PAGES;
  const github = wantGitHub ? { ...githubContext(o.env, o.fetch, say), maxPages, sleep: o.sleep } : null;
  const gitlab = wantGitLab ? { ...gitlabContext(o.env, o.fetch, say), maxPages, sleep: o.sleep } : null;
  const found: RepoTarget[] = [];
  if (github !== null) found.push(...(await discoverGitHub(q, github)));
  if (gitlab !== null) found.push(...(await discoverGitLab(q, gitlab)));
  return sortedUnique(found);
}

function githubContext(env: Env, fetchImpl: typeof fetch | undefined, say: (line: string) => void): Omit<SourceContext, 'maxPages'> {
  const f = githubForge(env);
  if (f.token === null) {
    throw usageError(
      'No GitHub token: set GITHUB_TOKEN (or GIT_TOKEN) to a token that can read the repositories to discover (in GitHub Actions: `env: ' +
        'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}`, or a token with access to the whole organisation).',
    );
  }
  checkApiUrl(f.api, f.apiVariable, f.token.variable);
  return context(f, f.token.value, fetchImpl, say, 'GITHUB_SERVER_URL (and GITHUB_API_URL)');
}

function gitlabContext(env: Env, fetchImpl: typeof fetch | undefined, say: (line: string) => void): Omit<SourceContext, 'maxPages'> {
  const f = gitlabForge(env);
  if (f.token === null)
    throw usageError(
      'No GitLab token: set GITLAB_TOKEN (or GIT_TOKEN) to a token with the read_api scope that can see the group (in GitLab CI: a group access ' +
        'token stored as a masked variable).',
    );
  checkApiUrl(f.api, f.apiVariable, f.token.variable);
  return context(f, f.token.value, fetchImpl, say, 'CI_SERVER_URL (or GITLAB_API_URL)');
}

function context(
  f: Forge,
  token: string,
  fetchImpl: typeof fetch | undefined,
  say: (line: string) => void,
  variables: string,
): Omit<SourceContext, 'maxPages'> {
  return {
    apiUrl: f.api,
    shownApi: shownUrl(f.api),
    token,
    fetch: fetchImpl,
    say,
    target: (found) => {
      const t = checkedTarget(found, f, variables);
      if (typeof t === 'string') say(`${found.name}: left out: ${t}.`);
      return typeof t === 'string' ? null : t;
    },
  };
}

/**
 * A clone URL from a server is held to the rules of one a user writes (parseTarget), and more: no
 * credentials, no `@REF`, and only on the forge the API belongs to (its server's or its API's origin):
 * a listing does not send scion to clone from anywhere else.
 */
function checkedTarget(f: Found, forge: Forge, variables: string): RepoTarget | string {
  const raw = f.cloneUrl;
  if (typeof raw !== 'string' || raw.trim() === '') return 'the server gave no clone URL';
  const t = parseTarget(raw.trim(), { cwd: '/' });
  if (typeof t === 'string') return `its clone URL is refused (${shownUrl(t)})`;
  // owner/name or a path is what a user may write, not what a server answers: only a full URL.
  if (t.url === null || !/^https?:\/\//i.test(raw.trim())) return `its clone URL "${shownUrl(raw)}" is not an http(s) URL`;
  const u = new URL(t.url);
  if (u.username !== '' || u.password !== '') {
    const bare = new URL(u.href);
    bare.username = '';
    bare.password = '';
    return `its clone URL ${bare.href} holds credentials, which scion does not take from a server`;
  }
  if (t.ref !== null || u.search !== '' || u.hash !== '') return `its clone URL "${shownUrl(raw)}" is not a plain repository URL`;
  if (!onForge(forge, t.url)) {
    return `its clone URL ${t.url} is not on the server the API belongs to (${forge.server}); set ${variables} if ${u.origin} is your server`;
  }
  const ref = typeof f.defaultBranch === 'string' && f.defaultBranch !== '' ? f.defaultBranch : null;
  if (ref !== null && !isValidRefName(`refs/heads/${ref}`)) return `its default branch "${ref}" is not a valid branch name`;
  return { id: t.id, url: t.url, path: null, ref };
}

/** Sorted by id (code-unit order, the same on every machine); the first of two with one id kept. */
function sortedUnique(found: readonly RepoTarget[]): RepoTarget[] {
  const byId = new Map<string, RepoTarget>();
  for (const t of found) if (!byId.has(t.id)) byId.set(t.id, t);
  return [...byId.values()].sort((a, b) => compareCodeUnits(a.id, b.id));
}
