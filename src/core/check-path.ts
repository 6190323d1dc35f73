// Paths the engine accepts: repository-relative, POSIX, inside the repository, not denied.
import { failure, fail, ok, type Result } from '../errors.js';

export interface CheckPathOptions {
  readonly isDenied?: (path: string) => boolean;
}

/** Normalises `path` to repository-relative POSIX form, or says why it may not be touched. */
export function checkPath(path: string, opts: CheckPathOptions = {}): Result<string> {
  // UNC first: resolving \\server\share would make Windows send NTLM credentials to that server.
  if (path.startsWith('\\\\') || path.startsWith('//') || path.startsWith('\\/') || path.startsWith('/\\')) {
    return fail(failure('unc-path', `${path} is a UNC network path; give a path inside the repository.`, { path }));
  }
  const posix = path.replaceAll('\\', '/');
  if (posix.startsWith('/') || /^[A-Za-z]:/.test(posix)) {
    return fail(failure('outside', `${path} is absolute; give a path relative to the repository root.`, { path }));
  }
  const parts: string[] = [];
  for (const seg of posix.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) {
        return fail(failure('outside', `${path} leads outside the repository; give a path inside it.`, { path }));
      }
      parts.pop();
    } else {
      parts.push(seg);
    }
  }
  if (parts.length === 0) {
    return fail(failure('outside', `"${path}" names the repository root, not a file inside it.`, { path }));
  }
  const normalised = parts.join('/');
  // git's own folder is never a refactoring target: writing there corrupts the repository.
  if (parts.some((p) => p.toLowerCase() === '.git')) {
    return fail(failure('denied', `${normalised} is inside .git; scion never edits git's own files.`, { path: normalised }));
  }
  if (opts.isDenied?.(normalised)) {
    return fail(failure('denied', `${normalised} is denied by the recipe's deny rules; no step may change it.`, { path: normalised }));
  }
  return ok(normalised);
}
