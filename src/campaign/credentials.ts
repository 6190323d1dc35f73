// Which token a clone or fetch may offer, and to whom (SPEC §7): only over HTTPS or to a loopback
// address, and only the token of the URL's own host kind (GitLab's to GitLab, GitHub's otherwise).
import type { AuthCallback } from 'isomorphic-git';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)$/i;

/** True when a credential may travel to `url`: HTTPS, or plain HTTP to this machine. */
export function mayCarryToken(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}

function hostOf(u: string | undefined): string | null {
  if (!u) return null;
  try {
    return new URL(u).host.toLowerCase();
  } catch {
    return null;
  }
}

/** GitLab when the host is gitlab.com or the host of GITLAB_API_URL / CI_SERVER_URL (SPEC §8). */
export function isGitLabHost(host: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const h = host.toLowerCase();
  return h === 'gitlab.com' || h === hostOf(env['GITLAB_API_URL']) || h === hostOf(env['CI_SERVER_URL']);
}

export interface RemoteAuth {
  /** Sent with the first request, so an authenticated fetch needs no 401 round trip first. */
  readonly headers: Readonly<Record<string, string>>;
  /** isomorphic-git's callback when the server still asks (never offers what `headers` may not). */
  readonly onAuth: AuthCallback;
}

/** The credentials for `url`: the host's token as Basic auth, or nothing at all. */
export function credentialsFor(url: string, env: Readonly<Record<string, string | undefined>>): RemoteAuth {
  const none: RemoteAuth = { headers: {}, onAuth: () => ({ cancel: true }) };
  const u = new URL(url);
  if (!mayCarryToken(u)) return none;
  let username: string;
  let password: string;
  if (u.username) {
    username = decodeURIComponent(u.username);
    password = decodeURIComponent(u.password);
  } else {
    const gitlab = isGitLabHost(u.host, env);
    const token = gitlab ? env['GITLAB_TOKEN'] : (env['GITHUB_TOKEN'] ?? env['GIT_TOKEN']);
    if (!token) return none;
    username = gitlab ? 'oauth2' : 'x-access-token';
    password = token;
  }
  return {
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    onAuth: () => ({ username, password }),
  };
}
