// GitLab's CODEOWNERS patterns. GitLab documents that it "uses File::fnmatch with the File::FNM_DOTMATCH and
// File::FNM_PATHNAME flags": `*` and `?` never match `/`, `*` matches dotfiles, `**/` matches zero or more
// folders, and no case folding. Before matching, GitLab rewrites the pattern: `*` becomes `/**/*`, a
// pattern without a leading `/` gets `/**/` in front (so `internal/README.md` matches at any depth, unlike
// gitignore), a trailing `/` becomes `/**/*`; and it matches against the path with a leading `/`.
// This is Ruby's fnmatch with those flags, compiled to one regular expression.
import { classChar, regexChar } from './lines.js';
import { keyOf, type IndexKey } from './rule-index.js';
import { lazyMatcher, NEVER, ONE_CHAR, type PathMatcher } from './matcher.js';

/** GitLab's rewrite of a pattern before matching (its key within a section, too). */
export function normalizeGitlabPattern(pattern: string): string {
  if (pattern === '*') return '/**/*';
  let p = pattern.replace(/^\\#/, '#').replace(/\\\s+/g, ' ');
  if (!p.startsWith('/')) p = `/**/${p}`;
  if (p.endsWith('/')) p = `${p}**/*`;
  return p;
}

/** The key any path this pattern matches has (see RuleIndex). */
export function gitlabKey(pattern: string): IndexKey {
  return keyOf(normalizeGitlabPattern(pattern).slice(1).split('/'), true);
}

/** A matcher for one GitLab pattern (as written, without the exclusion `!`) over repository-relative paths. */
export function compileGitlabPattern(pattern: string): PathMatcher {
  const source = fnmatchSource(normalizeGitlabPattern(pattern));
  if (source === null) return NEVER;
  const matches = lazyMatcher(source, pattern);
  return (path) => matches(`/${path}`);
}

/** Ruby's fnmatch as a test over one string (see fnmatchSource), run by the linear glob machine. */
export function fnmatchTest(pattern: string): PathMatcher {
  const source = fnmatchSource(pattern);
  return source === null ? NEVER : lazyMatcher(source, pattern);
}

/**
 * Ruby's `File.fnmatch(pattern, path, FNM_PATHNAME | FNM_DOTMATCH)` as a regular-expression source, or null when
 * the pattern can never match (an unclosed `[`). `**` only spans folders as a whole `**\/` segment; any
 * other run of asterisks is one `*`.
 */
export function fnmatchSource(pattern: string): string | null {
  const cs = Array.from(pattern);
  let re = '^';
  let segmentStart = true;
  let i = 0;
  while (i < cs.length) {
    if (segmentStart) {
      segmentStart = false;
      let folders = false;
      while (cs[i] === '*' && cs[i + 1] === '*' && cs[i + 2] === '/') {
        i += 3;
        folders = true;
      }
      if (folders) {
        re += '(?:[^/]*/)*';
        segmentStart = true;
        continue;
      }
    }
    const c = cs[i] as string;
    if (c === '/') {
      re += '/';
      segmentStart = true;
      i++;
    } else if (c === '*') {
      while (cs[i] === '*') i++;
      re += '[^/]*';
    } else if (c === '?') {
      re += ONE_CHAR;
      i++;
    } else if (c === '[') {
      const b = bracket(cs, i + 1);
      if (b === null) return null;
      re += b.re;
      i = b.end;
    } else if (c === '\\') {
      // An escaped character matches itself; a backslash at the very end matches nothing more.
      if (i + 1 < cs.length) {
        const e = cs[i + 1] as string;
        re += e === '/' ? '/' : regexChar(e);
        if (e === '/') segmentStart = true;
      }
      i += 2;
    } else {
      re += regexChar(c);
      i++;
    }
  }
  return `${re}$`;
}

/**
 * Ruby's bracket expression from just after `[`: `!` or `^` negates, `a-z` is a range (its two ends match
 * even when reversed), a backslash escapes, `]` right after the opening closes an empty set. Null when the
 * bracket is not closed (Ruby then never matches). Never matches `/` (FNM_PATHNAME).
 */
function bracket(cs: readonly string[], start: number): { re: string; end: number } | null {
  const n = cs.length;
  let i = start;
  if (i >= n) return null;
  let negate = false;
  if (cs[i] === '!' || cs[i] === '^') {
    negate = true;
    i++;
  }
  const members: string[] = [];
  while (cs[i] !== ']') {
    let t1 = i;
    if (cs[t1] === '\\') t1++;
    if (t1 >= n) return null;
    const c1 = cs[t1] as string;
    i = t1 + 1;
    if (i >= n) return null;
    if (cs[i] === '-' && cs[i + 1] !== ']') {
      let t2 = i + 1;
      if (cs[t2] === '\\') t2++;
      if (t2 >= n) return null;
      const c2 = cs[t2] as string;
      i = t2 + 1;
      members.push(classChar(c1), classChar(c2));
      if ((c1.codePointAt(0) as number) <= (c2.codePointAt(0) as number)) members.push(`${classChar(c1)}-${classChar(c2)}`);
      continue;
    }
    members.push(classChar(c1));
  }
  const end = i + 1;
  if (members.length === 0) return { re: negate ? '[^/]' : '(?!)', end };
  return { re: `(?!/)[${negate ? '^' : ''}${members.join('')}]`, end };
}
