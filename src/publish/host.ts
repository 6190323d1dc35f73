// Which host serves a remote, and a client for it: GitHub or GitLab by the remote's URL (SPEC §8),
// the API URL from the environment (Enterprise, self-managed) or derived from the remote's host.
import { UsageError } from '../errors.js';
import { remoteUrl, type Repo } from '../git/index.js';
import { mayCarryCredentials } from '../git/push.js';
import { GitHubHost } from './github.js';
import { GitLabHost } from './gitlab.js';
import { githubHosts, hostKindOf, parseRemoteLocation, parseRemoteUrl, shownUrl, tokenFor, type Env } from './remote.js';
import type { Host, RequestLimits } from './types.js';

export interface HostOptions extends RequestLimits {
  readonly fetch?: typeof fetch;
}

/**
 * The host behind remote `remote` of `repo`, with the token for it. Throws UsageError (nothing sent)
 * when there is no token, the remote is unknown, or the API would receive the token in clear text.
 */
export function openHost(repo: Repo, remote: string, env: Env, o: HostOptions = {}): Host {
  const url = remoteUrl(repo, remote);
  if (url === null) {
    throw new UsageError(`The repository has no remote "${remote}" (remote.${remote}.url is not set); pass --remote with the remote of the GitHub or GitLab repository.`);
  }
  return hostForUrl(url, remote, env, o);
}

export function hostForUrl(url: string, remote: string, env: Env, o: HostOptions = {}): Host {
  const loc = parseRemoteLocation(url);
  const kind = loc === null ? 'github' : hostKindOf(loc.host, env);
  const cred = tokenFor(kind, env);
  if (kind === 'gitlab') {
    if (!cred) throw new UsageError('No GitLab token: set GITLAB_TOKEN (or GIT_TOKEN) to a token with the api scope (in GitLab CI: a project access token stored as a masked variable).');
    const apiUrl = (env['GITLAB_API_URL'] || (env['CI_SERVER_URL'] ? `${env['CI_SERVER_URL'].replace(/\/+$/, '')}/api/v4` : `https://${loc!.host}/api/v4`)).replace(/\/+$/, '');
    checkApiUrl(apiUrl, 'GITLAB_API_URL', 'GITLAB_TOKEN');
    return new GitLabHost({ ...o, apiUrl, token: cred.token, project: loc!.path });
  }
  if (!cred) {
    throw new UsageError(
      'No GitHub token: set GITHUB_TOKEN (or GIT_TOKEN) to a token allowed to create pull requests (in GitHub Actions: `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}`).',
    );
  }
  const fromUrl = parseRemoteUrl(url, githubHosts(env)) ?? (loc !== null && loc.path.split('/').length === 2 ? { owner: loc.path.split('/')[0]!, repo: loc.path.split('/')[1]! } : null);
  const fromEnv = /^([^/\s]+)\/([^/\s]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '');
  const gh = fromUrl ?? (fromEnv ? { owner: fromEnv[1]!, repo: fromEnv[2]! } : null);
  if (gh === null) {
    throw new UsageError(`Cannot tell the GitHub repository from remote ${remote}'s URL ${shownUrl(url)}; use a github.com remote, or set GITHUB_SERVER_URL to your GitHub Enterprise server.`);
  }
  const host = loc?.host ?? 'github.com';
  const derived = host === 'github.com' || host === 'www.github.com' || host === 'ssh.github.com' ? 'https://api.github.com' : `https://${host}/api/v3`;
  const apiUrl = (env['GITHUB_API_URL'] || derived).replace(/\/+$/, '');
  checkApiUrl(apiUrl, 'GITHUB_API_URL', 'GITHUB_TOKEN');
  return new GitHubHost({ ...o, apiUrl, token: cred.token, owner: gh.owner, repo: gh.repo });
}

export function checkApiUrl(apiUrl: string, variable: string, token: string): void {
  if (!mayCarryCredentials(apiUrl)) {
    throw new UsageError(`${variable} is ${apiUrl}, and scion sends ${token} only over HTTPS (or to this machine); give ${variable} an https URL.`);
  }
}
