// A CODEOWNERS file as GitHub reads it: one rule per line, "the last matching pattern takes the most
// precedence", a pattern without owners leaves its files unowned, and "If any line in your CODEOWNERS file
// contains invalid syntax, that line will be skipped" (GitHub skips it silently; scion says which and why).
import { compileGithubPattern, githubKey, githubPatternProblem, type PathMatcher } from './github-pattern.js';
import { RuleIndex } from './rule-index.js';
import { linesOf, splitPattern, trimEscaped, words } from './lines.js';
import { isGithubOwner, uniqueOwners } from './owner-names.js';
import type { Codeowners, PathOwners, Rule, SkippedLine, Warning } from './types.js';

/** GitHub does not load a CODEOWNERS file of 3 MB or more ("CODEOWNERS files must be under 3 MB in size"). */
export const GITHUB_MAX_BYTES = 3 * 1024 * 1024;

interface Compiled {
  readonly rule: Rule;
  readonly matches: PathMatcher;
}

export function parseGithub(content: Uint8Array | string, file: string): Codeowners {
  const size = typeof content === 'string' ? new TextEncoder().encode(content).length : content.length;
  if (size >= GITHUB_MAX_BYTES) {
    const reason = `${file} is ${size} bytes; GitHub does not load a CODEOWNERS file of 3 MB or more, so no file has code owners`;
    return githubCodeowners(file, [], [], [{ line: 0, text: '', reason }]);
  }
  const compiled: Compiled[] = [];
  const skipped: SkippedLine[] = [];
  for (const line of linesOf(content)) {
    const text = trimEscaped(line.raw);
    if (text === '' || text.startsWith('#')) continue;
    const { pattern, rest } = splitPattern(text);
    const problem = githubPatternProblem(pattern);
    if (problem !== null) {
      skipped.push({ line: line.number, text: line.raw, reason: problem });
      continue;
    }
    // An inline comment starts at a word beginning with `#` ("*.js @js-owner #This is an inline comment.").
    const all = words(rest);
    const comment = all.findIndex((w) => w.startsWith('#'));
    const owners = comment < 0 ? all : all.slice(0, comment);
    const invalid = owners.filter((o) => !isGithubOwner(o));
    if (invalid.length > 0) {
      const list = invalid.map((o) => `'${o}'`).join(', ');
      const verb = invalid.length === 1 ? 'is not an owner' : 'are not owners';
      const reason = `${list} ${verb} GitHub accepts (@user, @org/team or an e-mail address), so GitHub skips this line`;
      skipped.push({ line: line.number, text: line.raw, reason });
      continue;
    }
    const rule: Rule = { line: line.number, pattern, owners: uniqueOwners(owners), section: null, exclusion: false };
    compiled.push({ rule, matches: compileGithubPattern(pattern) });
  }
  return githubCodeowners(file, compiled, skipped, []);
}

function githubCodeowners(file: string, compiled: readonly Compiled[], skipped: SkippedLine[], warnings: Warning[]): Codeowners {
  const index = new RuleIndex(compiled.map((c) => githubKey(c.rule.pattern)));
  const ownerOf = (path: string): PathOwners => {
    for (const i of index.candidates(path)) {
      const c = compiled[i] as Compiled;
      if (!c.matches(path)) continue;
      return { path, owners: c.rule.owners, rules: [{ line: c.rule.line, pattern: c.rule.pattern, section: null }] };
    }
    return { path, owners: [], rules: [] };
  };
  return {
    dialect: 'github',
    file,
    rules: compiled.map((c) => c.rule),
    sections: [],
    skipped,
    warnings,
    ownerOf,
    ownersOf: (paths) => paths.map(ownerOf),
  };
}
