// Which host serves a remote, and a client for it: GitHub or GitLab by the remote's URL, the API and
// the token as the credential rule (credentials.ts) configures that forge. A repository that is not
// on the forge's own server gets no client: its token would go to a host it does not belong to.
import { remoteUrl, type Repo } from '../git/index.js';
import { fail, failure, ok, usageError, type Result } from '../errors.js';
import { forge, forgeAt, mayCarryCredentials, onForge, originOf, type Forge } from './credentials.js';
import { GitHubHost } from './github.js';
import { GitLabHost } from './gitlab.js';
import { hostKindOf, parseRemoteLocation, parseRemoteUrl, shownUrl, type Env, type HostKind } from './remote.js';
import type { Host, RequestLimits } from './types.js';

export interface HostOptions extends RequestLimits {
  readonly fetch?: typeof fetch;
}

/**
 * The host behind remote `remote` of `repo`, with the token for it. Throws a `usage` error (nothing
 * sent) when there is no token, the remote is unknown or not on the forge's server, or the API would
 * receive the token in clear text; hostOf says the same as a value.
 */
export function openHost(repo: Repo, remote: string, env: Env, o: HostOptions = {}): Host {
  return orUsageError(hostOf(repo, remote, env, o));
}

/** openHost as a value: a failure (kind `pr-failed`: no pull request can be opened there) says why in one sentence. */
export function hostOf(repo: Repo, remote: string, env: Env, o: HostOptions = {}): Result<Host> {
  const url = remoteUrl(repo, remote);
  if (url === null) {
    return noHost(
      `The repository has no remote "${remote}" (remote.${remote}.url is not set); name the remote of the GitHub or GitLab repository with the ` +
        `\`remote\` option.`,
    );
  }
  return hostAtUrl(url, remote, env, o);
}

const GITHUB_NAMES = ['github.com', 'www.github.com', 'ssh.github.com'];

/** Whether the repository at `url` (http(s), or SSH by host name) lives on the forge's own server. */
function onServer(f: Forge, url: string, host: string | null): boolean {
  if (/^https?:\/\//i.test(url.trim())) return onForge(f, url);
  const server = new URL(f.server).hostname;
  return host !== null && (host === server || (server === 'github.com' && GITHUB_NAMES.includes(host)));
}

/** Which forge serves the repository at `url`: the forge whose server it is on, else by its host name (GitHub by default). */
export function hostKindOfUrl(url: string, env: Env): HostKind {
  const loc = parseRemoteLocation(url);
  return (/^https?:\/\//i.test(url.trim()) ? forgeAt(url, env)?.kind : undefined) ?? (loc === null ? 'github' : hostKindOf(loc.host, env));
}

/** The host serving the repository at `url`; throws a `usage` error where hostAtUrl fails. */
export function hostForUrl(url: string, remote: string, env: Env, o: HostOptions = {}): Host {
  return orUsageError(hostAtUrl(url, remote, env, o));
}

/** hostForUrl as a value (see hostOf). */
export function hostAtUrl(url: string, remote: string, env: Env, o: HostOptions = {}): Result<Host> {
  const loc = parseRemoteLocation(url);
  const kind = hostKindOfUrl(url, env);
  const f = forge(kind, env);
  if (f.token === null) {
    return noHost(
      kind === 'gitlab'
        ? 'No GitLab token: set GITLAB_TOKEN (or GIT_TOKEN) to a token with the api scope (in GitLab CI: a project access token stored as a masked variable).'
        : 'No GitHub token: set GITHUB_TOKEN (or GIT_TOKEN) to a token allowed to create pull requests (in GitHub Actions: `env: GITHUB_TOKEN: ${{ ' +
            'secrets.GITHUB_TOKEN }}`).',
    );
  }
  const clear = apiUrlProblem(f.api, f.apiVariable, f.token.variable);
  if (clear !== null) return noHost(clear);
  const name = kind === 'gitlab' ? 'GitLab' : 'GitHub';
  if (!onServer(f, url, loc?.host ?? null)) {
    return noHost(
      `Remote ${remote}'s URL ${shownUrl(url)} is not on the ${name} server scion has a token for (${f.server}), and ${f.token.variable} goes only there; ` +
        `set ${f.serverVariable} (and ${f.apiVariable}) to the server that hosts it.`,
    );
  }
  if (kind === 'gitlab') {
    if (loc === null) return noHost(`Cannot tell the GitLab project from remote ${remote}'s URL ${shownUrl(url)}; give the remote the project's https URL.`);
    return ok(new GitLabHost({ ...o, apiUrl: f.api, token: f.token.value, project: loc.path }));
  }
  const server = new URL(f.server).hostname;
  const fromUrl =
    parseRemoteUrl(url, { hosts: [...GITHUB_NAMES, server] }) ??
    (loc !== null && loc.path.split('/').length === 2 ? { owner: loc.path.split('/')[0]!, repo: loc.path.split('/')[1]! } : null);
  const fromEnv = /^([^/\s]+)\/([^/\s]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '');
  const gh = fromUrl ?? (fromEnv ? { owner: fromEnv[1]!, repo: fromEnv[2]! } : null);
  if (gh === null) {
    return noHost(
      `Cannot tell the GitHub repository from remote ${remote}'s URL ${shownUrl(url)}; use a github.com remote, or set GITHUB_SERVER_URL to your ` +
        `GitHub Enterprise server.`,
    );
  }
  return ok(new GitHubHost({ ...o, apiUrl: f.api, token: f.token.value, owner: gh.owner, repo: gh.repo }));
}

/** The API must be reachable without sending its token in clear text over the network. */
export function checkApiUrl(apiUrl: string, variable: string, token: string): void {
  const problem = apiUrlProblem(apiUrl, variable, token);
  if (problem !== null) throw usageError(problem);
}

function apiUrlProblem(apiUrl: string, variable: string, token: string): string | null {
  if (mayCarryCredentials(apiUrl) && originOf(apiUrl) !== null) return null;
  return `${variable} is ${apiUrl}, and scion sends ${token} only over HTTPS (or to this machine); give ${variable} an https URL.`;
}

const noHost = (message: string): Result<Host> => fail(failure('pr-failed', message));

/** The value, or the failure's sentence as a `usage` error: how it was called left nothing to ask. */
function orUsageError<T>(r: Result<T>): T {
  if (!r.ok) throw usageError(r.error.message);
  return r.value;
}
