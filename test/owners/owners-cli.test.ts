// `scion owners` through the CLI on real repositories: each path's owners and the line that decided (per
// GitLab section), every skipped line with its reason, --json's exact shape, --base and --codeowners.
import { describe, expect, it } from 'vitest';
import type { OwnersReport } from '../../src/owners/index.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo } from '../support/git-repo.js';

const cleanups = cleanupAfterEach();

const GITHUB = ['* @acme/core', '/web/ @acme/web', '!web/legacy/ @nobody', 'docs/* docs@example.com', '[abc].md @ranges', '/web/gen/', ''].join('\n');
const GITLAB = ['* @admin', '', '[Docs][2]', '*.md @docs-team', '', '^[Web] @web-default', '/web/', '!/web/gen/', ''].join('\n');

describe('scion owners', () => {
  it('GitHub: owners and the deciding line per path, then the skipped lines with why', async () => {
    const r = await gitRepo({ '.github/CODEOWNERS': GITHUB, 'web/a.ts': 'a\n', 'web/gen/x.ts': 'x\n', 'docs/guide/b.md': 'b\n' });
    cleanups.push(r.cleanup);
    const res = await scion(['owners', 'web/a.ts', 'web/gen/x.ts', 'docs/guide/b.md', './docs/c.md', '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as OwnersReport;
    expect(Object.keys(report)).toEqual(['file', 'paths', 'skipped']);
    expect(report.file).toBe('.github/CODEOWNERS');
    expect(report.paths).toEqual([
      { path: 'web/a.ts', owners: ['@acme/web'], rules: [{ line: 2, pattern: '/web/', section: null }] },
      // A pattern without owners leaves its files unowned: the line still decided.
      { path: 'web/gen/x.ts', owners: [], rules: [{ line: 6, pattern: '/web/gen/', section: null }] },
      // `docs/*` owns files directly in docs/ only.
      { path: 'docs/guide/b.md', owners: ['@acme/core'], rules: [{ line: 1, pattern: '*', section: null }] },
      { path: 'docs/c.md', owners: ['docs@example.com'], rules: [{ line: 4, pattern: 'docs/*', section: null }] },
    ]);
    expect(report.skipped.map((s) => [s.line, s.text])).toEqual([
      [3, '!web/legacy/ @nobody'],
      [5, '[abc].md @ranges'],
    ]);
    expect(report.skipped[0]!.reason).toContain('`!`');
    expect(report.skipped[1]!.reason).toContain('`[ ]`');

    const text = await scion(['owners', 'web/a.ts', '--repo', r.dir], { cwd: r.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('web/a.ts  @acme/web  ← .github/CODEOWNERS:2 /web/');
    expect(text.stdout).toContain('.github/CODEOWNERS:3: "!web/legacy/ @nobody"');
  });

  it('GitLab: every section answers, each with its own deciding line; --base reads an older commit', async () => {
    const r = await gitRepo({ CODEOWNERS: GITLAB, 'web/a.md': 'a\n', 'web/gen/g.md': 'g\n' });
    cleanups.push(r.cleanup);
    const first = r.head();
    r.git('rm', '-q', 'CODEOWNERS');
    r.git('commit', '-qm', 'no more owners');
    const none = await scion(['owners', 'web/a.md', '--repo', r.dir, '--codeowners', 'gitlab'], { cwd: r.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('CODEOWNERS, docs/CODEOWNERS, .gitlab/CODEOWNERS');

    const res = await scion(['owners', 'web/a.md', 'web/gen/g.md', '--repo', r.dir, '--base', first, '--codeowners', 'gitlab', '--json'], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as OwnersReport;
    expect(report.file).toBe('CODEOWNERS');
    expect(report.paths).toEqual([
      {
        path: 'web/a.md',
        owners: ['@admin', '@docs-team', '@web-default'],
        rules: [
          { line: 1, pattern: '*', section: null },
          { line: 4, pattern: '*.md', section: 'Docs' },
          { line: 7, pattern: '/web/', section: 'Web' },
        ],
      },
      // `!/web/gen/` excludes its files from the Web section only, and is named as what decided there.
      {
        path: 'web/gen/g.md',
        owners: ['@admin', '@docs-team'],
        rules: [
          { line: 1, pattern: '*', section: null },
          { line: 4, pattern: '*.md', section: 'Docs' },
          { line: 8, pattern: '!/web/gen/', section: 'Web' },
        ],
      },
    ]);
    const text = await scion(['owners', 'web/a.md', '--repo', r.dir, '--base', first, '--codeowners', 'gitlab'], { cwd: r.dir });
    expect(text.stdout).toContain('CODEOWNERS:4 [Docs] *.md');
  });

  it('without paths lists every file of the commit; a ref that is no commit is a usage error', async () => {
    const r = await gitRepo({ CODEOWNERS: '/a/ @ann\n', 'a/x': 'x\n', 'b/y': 'y\n' });
    cleanups.push(r.cleanup);
    const res = await scion(['owners', '--repo', r.dir, '--json'], { cwd: r.dir });
    expect((JSON.parse(res.stdout) as OwnersReport).paths.map((p) => [p.path, p.owners])).toEqual([
      ['CODEOWNERS', []],
      ['a/x', ['@ann']],
      ['b/y', []],
    ]);
    const bad = await scion(['owners', '--repo', r.dir, '--base', 'no-such-branch'], { cwd: r.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"no-such-branch" is not a commit');
  });
});
