// owner/repo from a git remote URL, for `scion pr` when no repository is given.

export interface RepoRef {
  readonly owner: string;
  readonly repo: string;
}

export interface RemoteUrlOptions {
  /** Hosts accepted as GitHub (add a GitHub Enterprise host here). Default github.com. */
  readonly hosts?: readonly string[];
}

const DEFAULT_HOSTS = ['github.com', 'www.github.com', 'ssh.github.com'];
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]+$/;

/**
 * Accepts https://github.com/o/r(.git), https://user:token@github.com/o/r, git@github.com:o/r.git,
 * ssh://git@github.com[:port]/o/r.git and git://github.com/o/r.git. Anything else: null.
 */
export function parseRemoteUrl(url: string, opts: RemoteUrlOptions = {}): RepoRef | null {
  const hosts = (opts.hosts ?? DEFAULT_HOSTS).map((h) => h.toLowerCase());
  const where = split(url.trim());
  if (where === null || !hosts.includes(where.host.toLowerCase())) return null;
  const parts = where.path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '').split('/');
  if (parts.length !== 2) return null;
  const [owner, repo] = parts as [string, string];
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null;
  return { owner, repo };
}

function split(url: string): { host: string; path: string } | null {
  // scp-like syntax: [user@]host:path, where path does not start with '/' after the colon's '//'.
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(url);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return { host: scp[1]!, path: scp[2]! };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(u.protocol)) return null;
  return { host: u.hostname, path: decodeURIComponent(u.pathname) };
}
