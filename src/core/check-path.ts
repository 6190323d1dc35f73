// The one gate for every path scion writes (recipe steps, the agent's tools, files a `run` step
// creates): repository-relative, exactly as git would store it, and not denied. Paths are taken
// literally, as git takes them: no `.`/`..` resolution, no `\` → `/` translation (on POSIX a
// backslash is a byte like any other), so the path checked is the path written. git's own rules
// (verify_path, fsck, the NTFS/HFS `.git` aliases) live in git-path.ts. Where git reads a file's
// content itself (a .gitmodules, in any spelling), what it holds must pass fsck too: checkContent.
import { failure, fail, ok, type Failure, type Result } from '../errors.js';
import { gitPathProblem, isGitmodulesPath } from './git-path.js';
import { gitmodulesProblem } from './gitmodules/check.js';

export interface CheckPathOptions {
  readonly isDenied?: (path: string) => boolean;
  /** The git mode the path will be written with ('120000' for a symlink adds git's symlink rules). */
  readonly mode?: string;
  /** The bytes the path will hold, when known: checked by `checkContent`. */
  readonly content?: Uint8Array;
}

/** `path` itself when scion may write it (with `content`, when given), or why not (`unc-path`, `outside`, `denied`, `invalid-result`). */
export function checkPath(path: string, opts: CheckPathOptions = {}): Result<string> {
  // UNC first: resolving \\server\share would make Windows send NTLM credentials to that server.
  if (path.startsWith('\\\\') || path.startsWith('//') || path.startsWith('\\/') || path.startsWith('/\\')) {
    return fail(failure('unc-path', `${show(path)} is a UNC network path; give a path inside the repository.`, { path }));
  }
  // git for Windows refuses a drive prefix (has_dos_drive_prefix): `C:x` is absolute there.
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    return fail(failure('outside', `${show(path)} is absolute; give a path relative to the repository root.`, { path }));
  }
  const problem = gitPathProblem(path, opts.mode);
  if (problem !== null) {
    return fail(failure('outside', `${show(path)} is not a path git accepts in a repository: ${problem}. ${FIX}`, { path, reason: problem }));
  }
  if (opts.isDenied?.(path)) {
    return fail(failure('denied', `${path} is denied by the recipe's deny rules; no step may change it.`, { path }));
  }
  const refused = opts.content === undefined ? null : checkContent(path, opts.content);
  if (refused !== null) return fail(refused);
  return ok(path);
}

/**
 * Why git's fsck would refuse `bytes` as the content of `path`, or null. Only files git reads itself
 * are judged: a .gitmodules (fsck's gitmodules rules), kind `invalid-result` like any other file
 * whose content would no longer be valid for what reads it. Every writer asks: the edit engine for
 * each result, a `run` step for each file its command wrote.
 */
export function checkContent(path: string, bytes: Uint8Array): Failure | null {
  if (!isGitmodulesPath(path)) return null;
  const problem = gitmodulesProblem(bytes);
  if (problem === null) return null;
  const where = `${problem.rule}${problem.line > 0 ? `, line ${problem.line}` : ''}`;
  return failure(
    'invalid-result',
    `${show(path)} is read by git as a .gitmodules, and this content would fail git fsck (${where}): it ${problem.detail}. ` +
      'Nothing was written; fix that entry of the .gitmodules.',
    { path, rule: problem.rule, line: problem.line, reason: `${where}: it ${problem.detail}` },
    GITMODULES_HINT,
  );
}

const GITMODULES_HINT =
  'A .gitmodules must pass git fsck: no url or path starting with "-", no ".." in a submodule name, no `update = !command`, ' +
  'urls git accepts, valid git config syntax: fix the entry the message names.';

const FIX = 'Give a plain path relative to the repository root (like src/a.ts), without "." or ".." parts and outside .git.';

/** The path quoted so that a newline, a tab or an invisible code point in it can be seen. */
function show(path: string): string {
  return JSON.stringify(path).replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
