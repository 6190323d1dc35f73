// git's own rules for a path it will put in a tree, ported rule by rule so that whatever passes here
// passes `git fsck --strict` (and a hosting server's receive.fsckObjects) in a commit:
//   read-cache.c  verify_path / verify_dotfile  (what `git add` and `git checkout` accept)
//   fsck.c        fsck_tree                     (emptyName, hasDot, hasDotdot, hasDotgit, largePathname,
//                                                gitmodulesSymlink; backslashes scanned as separators)
//   path.c        is_ntfs_dotgit, is_ntfs_dot_generic  (`.git.`, `.git `, `git~1`, `.git::$INDEX_ALLOCATION`)
//   utf8.c        is_hfs_dotgit, next_hfs_char          (`.git` with HFS+-ignorable code points in it)
// git checks all of these on every platform, whatever the file system it runs on, because a commit
// made on Linux is checked out on Windows and macOS. Pure: strings in, a reason (or null) out.

/** Code points HFS+ drops when it compares names (utf8.c next_hfs_char), so `.g\u200dit` is `.git`. */
const HFS_IGNORABLE = new Set([0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff]);

/** fsck's largePathname limit on one tree entry name, in bytes (fsck.c max_tree_entry_len). */
export const MAX_COMPONENT_BYTES = 4096;

const SYMLINK_MODE = '120000';
const GITLINK_MODE = '160000';

/** In `u` mode a surrogate class matches only unpaired halves. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Lower-cases A-Z only: git folds ASCII (tolower on clamped bytes), never e.g. the Kelvin sign to k. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Why git would refuse `path` (repository-relative, `/`-separated) in a tree, or null when it would
 * not. `mode` is the git mode the path is written with ('120000' adds the symlink rules); unknown
 * means a regular file.
 */
export function gitPathProblem(path: string, mode?: string): string | null {
  if (path === '') return 'it is empty';
  if (path.startsWith('/')) return 'it is absolute (starts with "/")';
  if (path.includes('\0')) return 'it holds a NUL byte';
  // A lone UTF-16 surrogate has no UTF-8 form: it would be written as U+FFFD, a different name.
  if (LONE_SURROGATE.test(path)) return 'it is not valid Unicode (a lone surrogate)';
  const symlink = mode === SYMLINK_MODE;
  const names = path.split('/');
  for (const [i, name] of names.entries()) {
    const why = componentProblem(name, symlink);
    if (why !== null) return why;
    const last = i === names.length - 1;
    if ((!last || mode === GITLINK_MODE) && namesGitConfigFile(name)) {
      return `"${name}" is read as .gitmodules or .gitattributes by git and must be a file, not a ${last ? 'submodule' : 'folder'}`;
    }
  }
  return null;
}

function componentProblem(name: string, symlink: boolean): string | null {
  if (name === '') return 'it has an empty component ("//" or a trailing "/")';
  if (name === '.' || name === '..') return `it has a "${name}" component`;
  if (Buffer.byteLength(name, 'utf8') > MAX_COMPONENT_BYTES) return `a component is longer than ${MAX_COMPONENT_BYTES} bytes`;
  if (isHfsDot(name, 'git')) return `"${name}" is .git on a case-insensitive or HFS+ file system`;
  // On Windows a backslash separates folders, so git checks what follows each one as a name too.
  for (const part of afterBackslashes(name)) {
    if (isNtfsDotGit(part)) return `"${name}" is .git on Windows (NTFS)`;
    if (symlink && isNtfsDotGeneric(part, 'gitmodules', 'gi7eba')) return `"${name}" is a symlink named .gitmodules on Windows`;
  }
  if (symlink && isHfsDot(name, 'gitmodules')) return `"${name}" is a symlink named .gitmodules`;
  return null;
}

/**
 * fsck reads whatever a tree names `.gitmodules` or `.gitattributes` (in any spelling) as that file,
 * and fails when it is a folder (gitmodulesBlob, gitattributesBlob) or a submodule (gitmodulesMissing).
 */
function namesGitConfigFile(name: string): boolean {
  if (isHfsDot(name, 'gitmodules') || isHfsDot(name, 'gitattributes') || isNtfsDotGeneric(name, 'gitattributes', 'gi7d29')) return true;
  return afterBackslashes(name).some((part) => isNtfsDotGeneric(part, 'gitmodules', 'gi7eba'));
}

/**
 * True when git reads the file at `path` as a .gitmodules: its last component in any spelling fsck
 * takes for one (`.GITMODULES`, `.gitmodules.`, `gitmod~1`, HFS+-ignorable code points, after a
 * backslash), at any depth, as fsck_tree marks such blobs for the content check.
 */
export function isGitmodulesPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return isHfsDot(name, 'gitmodules') || afterBackslashes(name).some((part) => isNtfsDotGeneric(part, 'gitmodules', 'gi7eba'));
}

/** The name itself and what follows each backslash in it (fsck.c fsck_tree). */
function afterBackslashes(name: string): string[] {
  const out = [name];
  for (let i = name.indexOf('\\'); i !== -1; i = name.indexOf('\\', i + 1)) out.push(name.slice(i + 1));
  return out;
}

/** utf8.c is_hfs_dot_generic: `.` + needle once ignorable code points are dropped, ASCII case folded. */
export function isHfsDot(name: string, needle: string): boolean {
  let k = -1; // -1: expecting the dot; 0..needle.length-1: expecting needle[k]; needle.length: done
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (HFS_IGNORABLE.has(c)) continue;
    if (k === needle.length) return false; // something after the name
    if (k === -1) {
      if (c !== 0x2e) return false;
    } else if (c > 127 || asciiLower(String.fromCharCode(c)) !== needle[k]) {
      return false;
    }
    k++;
  }
  return k === needle.length;
}

/** path.c is_ntfs_dotgit: `.git` or `git~1`, then only dots and spaces up to the end, a separator or a `:` stream. */
export function isNtfsDotGit(name: string): boolean {
  let i: number;
  if (name[0] === '.' && asciiLower(name.slice(1, 4)) === 'git') i = 4;
  else if (asciiLower(name.slice(0, 5)) === 'git~1') i = 5;
  else return false;
  for (; ; i++) {
    const c = name[i];
    if (c === undefined || c === '/' || c === '\\' || c === ':') return true;
    if (c !== '.' && c !== ' ') return false;
  }
}

/**
 * path.c is_ntfs_dot_generic: `.gitmodules` and its NTFS spellings: trailing dots and spaces, a `:`
 * stream, the short name `gitmod~1`..`~4`, and the hashed fall-back short name (`gi7eba~N`).
 */
export function isNtfsDotGeneric(name: string, dotName: string, shortPrefix: string): boolean {
  const len = dotName.length;
  const onlySpacesAndPeriods = (from: number): boolean => {
    for (let i = from; ; i++) {
      const c = name[i];
      if (c === undefined || c === ':') return true;
      if (c !== ' ' && c !== '.') return false;
    }
  };
  if (name[0] === '.' && asciiLower(name.slice(1, 1 + len)) === dotName) return onlySpacesAndPeriods(len + 1);
  const seven = name[7];
  if (asciiLower(name.slice(0, 6)) === dotName.slice(0, 6) && name[6] === '~' && seven !== undefined && seven >= '1' && seven <= '4') {
    return onlySpacesAndPeriods(8);
  }
  let sawTilde = false;
  for (let i = 0; i < 8; i++) {
    const c = name[i];
    if (c === undefined) return false;
    if (sawTilde) {
      if (c < '0' || c > '9') return false;
    } else if (c === '~') {
      const d = name[++i];
      if (d === undefined || d < '1' || d > '9') return false;
      sawTilde = true;
    } else if (i >= 6) {
      return false;
    } else if (c.charCodeAt(0) > 127) {
      return false;
    } else if (asciiLower(c) !== shortPrefix[i]) {
      return false;
    }
  }
  return onlySpacesAndPeriods(8);
}
