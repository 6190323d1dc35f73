// The rule index only saves work: a rule it leaves out could never have matched, so answers are the same
// as trying every rule, last to first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGithubPattern, githubKey } from '../../src/owners/github-pattern.js';
import { compileGitlabPattern, gitlabKey } from '../../src/owners/gitlab-pattern.js';
import { RuleIndex } from '../../src/owners/rule-index.js';
import { github } from './helpers.js';

const RUNS = { numRuns: 400 };
const name = fc.constantFrom('a', 'b', 'a.md', 'b.test.ts', '.x', 'docs', 'logs', 'c.md');
const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
const segment = fc.oneof(name, fc.constantFrom('*', '**', '*.md', '*.ts', '*.test.ts', '?', 'a*', '\\a', '[ab]', '*.'));
const pattern = fc
  .tuple(fc.constantFrom('', '/'), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '/'))
  .map(([lead, segs, trail]) => `${lead}${segs.join('/')}${trail}`);

describe('rule index', () => {
  for (const [dialect, compile, key] of [
    ['GitHub', compileGithubPattern, githubKey],
    ['GitLab', compileGitlabPattern, gitlabKey],
  ] as const) {
    it(`${dialect}: every rule that matches a path is among the path's candidates`, () => {
      fc.assert(
        fc.property(fc.array(pattern, { minLength: 1, maxLength: 12 }), fc.array(path, { maxLength: 10 }), (patterns, paths) => {
          const index = new RuleIndex(patterns.map(key));
          const matchers = patterns.map(compile);
          for (const p of paths) {
            const candidates = index.candidates(p);
            const matching = matchers.flatMap((m, i) => (m(p) ? [i] : []));
            for (const i of matching) expect(candidates, `${patterns[i]} on ${p}`).toContain(i);
            expect(candidates).toEqual([...candidates].sort((a, b) => b - a));
          }
        }),
        RUNS,
      );
    });
  }

  it('GitHub: owners through the index are the owners of the last matching rule, trying every rule', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(pattern, fc.constantFrom('@a', '@b', '@c', '')), { maxLength: 15 }), fc.array(path, { maxLength: 10 }), (rules, paths) => {
        const co = github(rules.map(([p, o]) => `${p} ${o}`).join('\n'));
        for (const p of paths) {
          const last = [...co.rules].reverse().find((r) => compileGithubPattern(r.pattern)(p));
          expect(co.ownerOf(p).owners).toEqual(last?.owners ?? []);
        }
      }),
      RUNS,
    );
  });

  it('the keys: a first folder, a name anywhere, an extension anywhere, or none', () => {
    expect(githubKey('/src/app/')).toEqual({ kind: 'first', value: 'src' });
    expect(githubKey('docs/*')).toEqual({ kind: 'first', value: 'docs' });
    expect(githubKey('apps/')).toEqual({ kind: 'segment', value: 'apps' });
    expect(githubKey('**/logs')).toEqual({ kind: 'segment', value: 'logs' });
    expect(githubKey('*.test.ts')).toEqual({ kind: 'extension', value: 'ts' });
    expect(githubKey('*')).toEqual({ kind: 'any' });
    expect(githubKey('/*.md')).toEqual({ kind: 'any' });
    expect(gitlabKey('README.md')).toEqual({ kind: 'segment', value: 'README.md' });
    expect(gitlabKey('internal/README.md')).toEqual({ kind: 'segment', value: 'internal' });
    expect(gitlabKey('/config/')).toEqual({ kind: 'first', value: 'config' });
    expect(gitlabKey('*.rb')).toEqual({ kind: 'extension', value: 'rb' });
    expect(gitlabKey('*')).toEqual({ kind: 'any' });
  });
});
