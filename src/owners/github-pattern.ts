// GitHub's CODEOWNERS patterns: git's gitignore rules, less the three GitHub lists as not working (a `\#`
// escape, `!` negation, `[ ]` ranges: the parser skips those lines before they get here), and with one
// difference GitHub documents by example: `docs/*` owns `docs/getting-started.md` but not
// `docs/build-app/troubleshooting.md`, where gitignore's `docs/*` would match the folder `docs/build-app`
// and so everything in it. Matching is case-sensitive ("CODEOWNERS paths are case sensitive").
import { ANY, regexChar } from './lines.js';
import { lazyMatcher, NEVER, ONE_CHAR, type PathMatcher } from './matcher.js';
import { ANY_KEY, keyOf, type IndexKey } from './rule-index.js';

export type { PathMatcher } from './matcher.js';

/** Why GitHub skips this pattern, or null when it is one GitHub reads. */
export function githubPatternProblem(pattern: string): string | null {
  if (pattern.startsWith('\\#')) return 'GitHub does not read `\\#` as an escaped `#` in CODEOWNERS, so it skips this line';
  if (pattern.startsWith('!')) return 'GitHub does not support `!` to negate a pattern in CODEOWNERS, so it skips this line';
  if (hasRange(pattern)) return 'GitHub does not support `[ ]` character ranges in CODEOWNERS, so it skips this line';
  if (endsWithLoneBackslash(pattern)) return 'a pattern ending with a backslash never matches (gitignore rules), so this line is skipped';
  return null;
}

/** An unescaped `[` with a `]` after it: a range in gitignore's rules. */
function hasRange(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' && pattern.indexOf(']', i + 1) > 0) return true;
  }
  return false;
}

function endsWithLoneBackslash(pattern: string): boolean {
  let n = 0;
  for (let i = pattern.length - 1; i >= 0 && pattern[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/**
 * A matcher for one GitHub pattern over repository-relative file paths. gitignore's rules: a slash at the
 * start or in the middle anchors the pattern at the root, otherwise it matches at any depth; a trailing
 * slash matches folders only; `*` and `?` stop at `/`; `**` spans folders at the start, middle or end;
 * a pattern that matches a folder owns everything in it. The one exception: a last segment that is a lone
 * `*` matches the files directly there, not the folders (and so not their contents). Run by the linear
 * glob machine (matcher.ts), so no pattern can make it backtrack exponentially.
 */
export function compileGithubPattern(pattern: string): PathMatcher {
  const parts = partsOf(pattern);
  if (parts === null) return NEVER;
  const { segments, anchored, dirOnly } = parts;
  let re = anchored ? '^' : `^(?:${ANY}*/)?`;
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === '**' && segments.length > 1) {
      // Leading `**/` and middle `/**/`: zero or more folders. Trailing `/**`: everything inside.
      re += last ? `${ANY}+` : `(?:${ANY}*/)?`;
      return;
    }
    re += segmentRegex(seg) + (last ? '' : '/');
  });
  const loneStar = segments[segments.length - 1] === '*';
  if (dirOnly) re += `/${ANY}+$`;
  else if (loneStar) re += '$';
  else re += `(?:/${ANY}*)?$`;
  return lazyMatcher(re, pattern);
}

/** The key any path this pattern matches has (see RuleIndex). */
export function githubKey(pattern: string): IndexKey {
  const parts = partsOf(pattern);
  return parts === null ? ANY_KEY : keyOf(parts.segments, parts.anchored);
}

/** The pattern's segments, whether it is anchored at the root, whether it names folders only; null: matches nothing. */
function partsOf(pattern: string): { segments: string[]; anchored: boolean; dirOnly: boolean } | null {
  let body = pattern;
  const dirOnly = body.endsWith('/');
  if (dirOnly) body = body.slice(0, -1);
  const anchored = body.includes('/');
  if (body.startsWith('/')) body = body.slice(1);
  return body === '' ? null : { segments: body.split('/'), anchored, dirOnly };
}

/** One path segment: `*` (and any run of asterisks) and `?` stop at `/`; a backslash escapes. */
function segmentRegex(seg: string): string {
  const cs = Array.from(seg);
  let re = '';
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i] as string;
    if (c === '*') {
      while (cs[i + 1] === '*') i++;
      re += '[^/]*';
    } else if (c === '?') {
      re += ONE_CHAR;
    } else if (c === '\\' && i + 1 < cs.length) {
      re += regexChar(cs[++i] as string);
    } else {
      re += regexChar(c);
    }
  }
  return re;
}
