// Repository-relative paths: the checks git applies before it lets a path into a tree or onto disk
// (verify_path), and the byte order git sorts paths in.
import { gitError } from './errors.js';

/** True for one path component git accepts in a tree: not empty, `.`, `..` or `.git` (any case). */
export function isValidComponent(name: string): boolean {
  // Hot path (every entry of every listed tree): cheap length checks before anything else.
  if (name.length <= 4 && (name === '' || name === '.' || name === '..' || name.toLowerCase() === '.git')) return false;
  return name.indexOf('/') < 0 && name.indexOf('\0') < 0;
}

/** Throws `bad-path` unless `path` is a clean repo-relative POSIX path. */
export function assertValidPath(path: string): void {
  if (path === '' || !path.split('/').every(isValidComponent)) {
    throw gitError('bad-path', `"${path}" is not a path git accepts in a tree (empty, ".", ".." or ".git" component).`, {
      path,
    });
  }
}

/**
 * Compares by UTF-8 bytes, the order of git's index and of `git ls-files`. JS string comparison is
 * UTF-16 order, which differs only where a surrogate pair meets U+E000..U+FFFF; lift surrogates above.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && ca <= 0xdfff) ca += 0x10000;
    if (cb >= 0xd800 && cb <= 0xdfff) cb += 0x10000;
    return ca - cb;
  }
  return a.length - b.length;
}

/** Parent directory of a repo-relative path ('' for top-level entries). */
export function parentDir(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}
