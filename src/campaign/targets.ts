// The repositories of a campaign: one a line in a list file, as a URL, `owner/name` on
// GitHub, or a local path, each optionally followed by `@REF` for the base. Parsing is pure: every
// problem comes back with its line number, nothing is fetched here.
import { isAbsolute, resolve } from 'node:path';

export interface RepoTarget {
  /** `<host>/<owner>/<name>` for a remote (the report's `repo`), the absolute path for a local one. */
  readonly id: string;
  /** The http(s) URL to clone, fetch and push; null for a local repository. */
  readonly url: string | null;
  /** The local repository's folder; null for a remote. */
  readonly path: string | null;
  /** The base to start from; null: the remote's default branch (a local repository's HEAD). */
  readonly ref: string | null;
}

export interface ParsedTargets {
  readonly targets: readonly RepoTarget[];
  /** The list's line of each target, 1-based, in the same order. */
  readonly lines: readonly number[];
  /** `line N: what is wrong`, one a problem. */
  readonly problems: readonly string[];
}

export interface TargetDefaults {
  /** Where `owner/name` lives: `GITHUB_SERVER_URL`, else https://github.com. */
  readonly githubServer?: string;
  /** Relative local paths are resolved against this folder (the list file's). */
  readonly cwd: string;
}

/** Splits `entry@REF`. The `@` of URL credentials (`https://user@host/…`) is not a ref marker. */
export function splitRef(entry: string): { spec: string; ref: string | null } {
  const at = entry.lastIndexOf('@');
  if (at <= 0) return { spec: entry, ref: null };
  const scheme = entry.indexOf('://');
  // An @ before the first / after scheme:// belongs to the authority (user@host).
  if (scheme !== -1) {
    const pathStart = entry.indexOf('/', scheme + 3);
    if (pathStart === -1 || at < pathStart) return { spec: entry, ref: null };
  }
  const ref = entry.slice(at + 1);
  return ref === '' ? { spec: entry, ref: null } : { spec: entry.slice(0, at), ref };
}

/** `host/owner/name` of a URL: the path without `.git` and slashes at either end. */
export function repoIdOfUrl(url: string): string {
  const u = new URL(url);
  const path = decodeURIComponent(u.pathname)
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '');
  return `${u.host}/${path}`;
}

const OWNER_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export function parseTarget(entry: string, defaults: TargetDefaults): RepoTarget | string {
  // git@host:owner/name and ssh:// URLs hold an @ of their own: recognise them before splitting @REF.
  if (/^(?![a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@[^/\s]+:/i.test(entry) || /^(?!https?:)[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return `"${entry}": only http(s) URLs can be cloned (no git binary is used); use the https URL of the repository`;
  }
  const { spec, ref } = splitRef(entry);
  if (/^https?:\/\//i.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      return `"${spec}" is not a valid URL`;
    }
    if (url.pathname.replace(/\/+$/, '') === '') return `"${spec}" names a host but no repository`;
    return { id: repoIdOfUrl(spec), url: spec, path: null, ref };
  }
  // owner/name wins over a relative path of the same shape only when no such folder exists is not
  // knowable without I/O: a path must start with `/`, `./` or `../` to be read as one.
  if (OWNER_NAME.test(spec) && !spec.startsWith('.')) {
    const server = (defaults.githubServer ?? 'https://github.com').replace(/\/+$/, '');
    const url = `${server}/${spec}.git`;
    return { id: repoIdOfUrl(url), url, path: null, ref };
  }
  if (isAbsolute(spec) || spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
    const path = resolve(defaults.cwd, spec);
    return { id: path, url: null, path, ref };
  }
  return `"${spec}" is neither a URL, owner/name, nor a path (start local paths with /, ./ or ../)`;
}

/** Parses a repository list: one entry a line, `#` starts a comment, blank lines ignored. */
export function parseRepoList(text: string, defaults: TargetDefaults): ParsedTargets {
  const targets: RepoTarget[] = [];
  const lines: number[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const hash = raw.search(/(^|\s)#/);
    const entry = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (entry === '') return;
    if (/\s/.test(entry)) {
      problems.push(`line ${line}: one repository a line ("${entry}" holds a space)`);
      return;
    }
    const t = parseTarget(entry, defaults);
    if (typeof t === 'string') {
      problems.push(`line ${line}: ${t}`);
      return;
    }
    // One clone, one set of branches per repository: the same repository twice would collide.
    const key = t.id;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`line ${line}: ${t.id} is listed twice (first on line ${first})`);
      return;
    }
    seen.set(key, line);
    targets.push(t);
    lines.push(line);
  });
  return { targets, lines, problems };
}
