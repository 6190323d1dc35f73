// Where a remote lives and which host serves it: GitLab when its host is gitlab.com or the
// host of GITLAB_API_URL / CI_SERVER_URL, GitHub otherwise. Parsed by hand rather than with
// hosted-git-info, which knows only the public hosts and no GitLab subgroups or Enterprise hosts.
// remoteAccess turns a URL into what the git transport needs, with the credential the one rule
// (credentials.ts) gives it: clone, fetch, push and pruning all go through it.
import type { RemoteAccess } from '../git/transport.js';
import { hideUrlCredentials } from '../redact.js';
import { forgeAt, gitCredential, splitUserinfo, type Credential } from './credentials.js';

export type HostKind = 'github' | 'gitlab';
export type Env = Readonly<Record<string, string | undefined>>;

export interface RemoteLocation {
  readonly scheme: 'https' | 'http' | 'ssh' | 'git';
  /** Lower-cased host name, without port. */
  readonly host: string;
  /** `owner/repo`, or `group/subgroup/project` on GitLab: no leading or trailing slash, no `.git`. */
  readonly path: string;
}

export interface RepoRef {
  readonly owner: string;
  readonly repo: string;
}

export interface RemoteUrlOptions {
  /** Hosts accepted as GitHub (add a GitHub Enterprise host here). Default github.com. */
  readonly hosts?: readonly string[];
}

const GITHUB_HOSTS = ['github.com', 'www.github.com', 'ssh.github.com'];
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]+$/;

/**
 * https://host/a/b(.git), https://user:token@host/a/b, git@host:a/b.git, ssh://git@host[:port]/a/b.git,
 * git://host/a/b.git. Anything else (a local path, file://): null.
 */
export function parseRemoteLocation(url: string): RemoteLocation | null {
  const text = url.trim();
  let scheme: RemoteLocation['scheme'];
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(text);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    // scp-like syntax; a single letter before the colon is a Windows drive, not a host.
    if (scp[1]!.length === 1) return null;
    scheme = 'ssh';
    host = scp[1]!;
    path = scp[2]!;
  } else {
    let u: URL;
    try {
      u = new URL(text);
    } catch {
      return null;
    }
    const schemes: Record<string, RemoteLocation['scheme']> = {
      'https:': 'https',
      'http:': 'http',
      'ssh:': 'ssh',
      'git+ssh:': 'ssh',
      'ssh+git:': 'ssh',
      'git:': 'git',
    };
    const s = schemes[u.protocol];
    if (s === undefined || u.hostname === '') return null;
    scheme = s;
    host = u.hostname;
    path = decodeURIComponent(u.pathname);
  }
  const parts = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (parts.length < 2 || parts.some((p) => !REPO.test(p) || p === '.' || p === '..')) return null;
  return { scheme, host: host.toLowerCase(), path: parts.join('/') };
}

/** owner/repo of a GitHub remote (github.com, or a host in `opts.hosts`); null for anything else. */
export function parseRemoteUrl(url: string, opts: RemoteUrlOptions = {}): RepoRef | null {
  const loc = parseRemoteLocation(url);
  const hosts = (opts.hosts ?? GITHUB_HOSTS).map((h) => h.toLowerCase());
  if (loc === null || !hosts.includes(loc.host)) return null;
  const parts = loc.path.split('/');
  if (parts.length !== 2 || !OWNER.test(parts[0]!)) return null;
  return { owner: parts[0]!, repo: parts[1]! };
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** The hosts served by GitLab: gitlab.com and the hosts of GITLAB_API_URL and CI_SERVER_URL. */
export function gitlabHosts(env: Env): string[] {
  return ['gitlab.com', hostOf(env['GITLAB_API_URL']), hostOf(env['CI_SERVER_URL'])].filter((h): h is string => h !== null);
}

export function hostKindOf(host: string, env: Env): HostKind {
  return gitlabHosts(env).includes(host.toLowerCase()) ? 'gitlab' : 'github';
}

/** The web server of a host, for turning an SSH remote into its https URL. */
export function serverUrl(kind: HostKind, host: string, env: Env): string {
  const configured = kind === 'github' ? env['GITHUB_SERVER_URL'] : env['CI_SERVER_URL'] || originOf(env['GITLAB_API_URL']);
  if (configured && hostOf(configured) === host) return configured.replace(/\/+$/, '');
  return `https://${host === 'ssh.github.com' ? 'github.com' : host}`;
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** A URL (or any text holding URLs) with the credentials of its `user:password@` part masked, for messages. */
export const shownUrl = hideUrlCredentials;

/**
 * How to reach the http(s) URL `url`, and which forge serves it. What it is offered is the credential
 * rule's choice (credentials.ts): the URL's own `user:password@` (moved out of the URL, so no clone's
 * config ever stores it), else the token of the forge whose origin it is on, else `configured` (git's
 * http.extraHeader); git/transport.ts's guardedHttp sends it only to that origin, after a 401.
 */
export function remoteAccess(
  url: string,
  env: Env,
  configured: (url: string) => Readonly<Record<string, string>> = () => ({}),
): { access: RemoteAccess; kind: HostKind; credential: Credential | null } {
  const loc = parseRemoteLocation(url);
  const kind: HostKind = forgeAt(url, env)?.kind ?? (loc === null ? 'github' : hostKindOf(loc.host, env));
  const { credential } = gitCredential(url, env, configured(splitUserinfo(url).url));
  return {
    kind,
    credential,
    access: { url: splitUserinfo(url).url, credential: credential === null ? null : { origin: credential.origin, headers: credential.headers }, cache: {} },
  };
}
