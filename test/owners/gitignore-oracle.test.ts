// "A CODEOWNERS file uses a pattern that follows most of the same rules used in gitignore files": GitHub's
// matcher against git itself. Random patterns and paths; each pattern goes into a .gitignore of its own
// folder of a real repository, and native `git check-ignore --no-index` says which paths it matches.
// Left out: what GitHub documents as different (`!`, `[ ]`, `\#`, and a last segment that is a lone `*`,
// which the conformance suite tests against GitHub's own example).
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reposAfterEach } from '../support/cleanups.js';
import { gitEnv } from '../support/git-repo.js';
import { GITHUB } from './docs.js';
import { github, ownersOf } from './helpers.js';

const names = fc.constantFrom('a', 'b', 'ab', 'a.md', 'b.md', '.x', 'c');
const wild = fc.constantFrom('*', 'a*', '*.md', '?', '*b', '**', 'a?', '**.md', '.*');
const segment = fc.oneof(names, wild);
const pattern = fc
  .record({ lead: fc.boolean(), segs: fc.array(segment, { minLength: 1, maxLength: 3 }), trail: fc.boolean() })
  .filter(({ segs, trail }) => trail || segs[segs.length - 1] !== '*')
  .map(({ lead, segs, trail }) => `${lead ? '/' : ''}${segs.join('/')}${trail ? '/' : ''}`);
const path = fc.array(names, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
// A set of files (no path a folder of another) to ask about.
const files = fc.uniqueArray(path, { minLength: 1, maxLength: 10 }).map((ps) => ps.filter((p) => !ps.some((q) => q.startsWith(`${p}/`))));

describe(`GitHub matching against native git (${GITHUB.gitignore})`, () => {
  const repo = reposAfterEach();

  it('every generated pattern matches exactly the paths git says it matches', async () => {
    const cases = fc.sample(fc.tuple(pattern, files), { numRuns: 250, seed: 20261203 });
    const tree: Record<string, string> = {};
    cases.forEach(([pat, ps], i) => {
      tree[`c${i}/.gitignore`] = `${pat}\n`;
      for (const p of ps) tree[`c${i}/${p}`] = '';
    });
    const r = await repo(tree);
    const asked = cases.flatMap(([, ps], i) => ps.map((p) => `c${i}/${p}`));
    const input = `${asked.join('\n')}\n`;
    const out = execFileSync('git', ['check-ignore', '--no-index', '-v', '-n', '--stdin'], { cwd: r.dir, env: gitEnv(), input, encoding: 'utf8' });
    const gitSays = new Map<string, boolean>();
    for (const line of out.trimEnd().split('\n')) {
      const [source, p] = line.split('\t') as [string, string];
      gitSays.set(p, source !== '::');
    }
    expect(gitSays.size).toBe(asked.length);

    const disagreements: string[] = [];
    let matched = 0;
    cases.forEach(([pat, ps], i) => {
      const co = github(`${pat} @o\n`);
      for (const p of ps) {
        const ours = ownersOf(co, p).length > 0;
        const git = gitSays.get(`c${i}/${p}`) === true;
        if (git) matched++;
        if (ours !== git) disagreements.push(`${pat} on ${p}: git ${git}, scion ${ours}`);
      }
    });
    expect(disagreements).toEqual([]);
    // The sample is worth something only if both answers occur often.
    expect(matched).toBeGreaterThan(asked.length / 10);
    expect(asked.length - matched).toBeGreaterThan(asked.length / 10);
  });
});
