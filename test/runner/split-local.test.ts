// A job split by owner through the CLI, in real repositories without a remote: `maxFiles` cuts a piece
// by folder the same way every run, a recipe that edits CODEOWNERS is split by the base's rules, and a
// repository without CODEOWNERS makes one piece, `unowned`, and says so. Native git judges the branches.
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const cleanups = cleanupAfterEach();

async function repo(files: Record<string, string>): Promise<TestRepo> {
  const r = await gitRepo(files);
  cleanups.push(r.cleanup);
  return r;
}

async function run(r: TestRepo, recipe: string, command = 'run', more: string[] = []): Promise<{ report: RunReport; stderr: string }> {
  const res = await scion([command, recipe, '--repo', r.dir, '--json', ...more], { cwd: r.dir });
  expect(res.stderr).not.toContain('internal error');
  expect(res.code, res.stderr).toBe(0);
  return { report: JSON.parse(res.stdout) as RunReport, stderr: res.stderr };
}

const bump = (split: string, more = '') =>
  recipeFile(`name: bump\nsplit: ${split}\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n${more}`);

describe('split: maxFiles', () => {
  const files: Record<string, string> = { CODEOWNERS: '* @acme/core\n/other/ @bob\n' };
  for (const dir of ['lib/x', 'lib/y', 'lib/z']) for (const n of [1, 2, 3]) files[`${dir}/${n}.ts`] = 'v1\n';
  files['lib/top.ts'] = 'v1\n';
  files['other/o.ts'] = 'v1\n';

  it('cuts a piece of more files by folder, at most maxFiles each, with the same names on every run', async () => {
    const r = await repo(files);
    const recipe = bump('{ by: owners, maxFiles: 3, codeowners: gitlab }');
    const { report } = await run(r, recipe);
    const core = report.jobs.filter((j) => j.owners?.[0] === '@acme/core');
    // Ten files of one owner in pieces of at most three, each piece one folder (lib/top.ts alone at lib/).
    expect(core.map((j) => [j.split!.directory, j.files.map((f) => f.path)])).toEqual(
      expect.arrayContaining([
        ['lib', ['lib/top.ts']],
        ['lib/x', ['lib/x/1.ts', 'lib/x/2.ts', 'lib/x/3.ts']],
        ['lib/y', ['lib/y/1.ts', 'lib/y/2.ts', 'lib/y/3.ts']],
        ['lib/z', ['lib/z/1.ts', 'lib/z/2.ts', 'lib/z/3.ts']],
      ]),
    );
    expect(core).toHaveLength(4);
    for (const j of core) {
      expect(j.name).toMatch(/^bump\/core-[0-9a-f]{8}$/);
      expect(r.git('diff', '--name-only', `HEAD..${j.branch}`).split('\n')).toEqual(j.files.map((f) => f.path));
    }
    // A piece that fits keeps its plain name.
    expect(report.jobs.find((j) => j.owners?.[0] === '@bob')!.name).toBe('bump/bob');
    // Same names, same branches, nothing rewritten.
    const again = (await run(r, recipe)).report;
    expect(again.jobs.map((j) => [j.name, j.status, j.head])).toEqual(report.jobs.map((j) => [j.name, 'unchanged', j.head]));
    r.git('fsck', '--strict', '--no-dangling');
  });
});

describe('split: CODEOWNERS is read from the base commit', () => {
  it('a recipe that edits CODEOWNERS is split by the rules of its base; the edit is a piece of its own owners', async () => {
    const r = await repo({ '.github/CODEOWNERS': '* @acme/core\n/web/ @acme/web\n', 'web/a.ts': 'v1\n', 'api/b.ts': 'v1\n' });
    const recipe = bump('{ by: owners }', '  - write: { file: .github/CODEOWNERS, content: "* @acme/core\\n/web/ @acme/other\\n/api/ @acme/api\\n" }\n');
    const out = mkdtempSync(join(tmpdir(), 'scion-split-out-'));
    cleanups.push(() => rm(out, { recursive: true, force: true }));
    const { report } = await run(r, recipe, 'run', ['--html', join(out, 'r.html'), '--pr-body', join(out, 'pr.md')]);
    expect(report.jobs.map((j) => [j.name, j.owners, j.files.map((f) => f.path)])).toEqual([
      ['bump/core', ['@acme/core'], ['.github/CODEOWNERS', 'api/b.ts']],
      ['bump/web', ['@acme/web'], ['web/a.ts']],
    ]);
    // The HTML report and the run's description group the pieces under their job, with their owners.
    const html = readFileSync(join(out, 'r.html'), 'utf8');
    expect(html).toContain(
      '<tr class="split-row"><th colspan="8">bump <span class="muted">split by owner into 2 pieces (by .github/CODEOWNERS)</span></th></tr>',
    );
    expect(html).toContain('<code>.github/CODEOWNERS:2</code> <code>/web/</code>: 1 file');
    const body = readFileSync(join(out, 'pr.md'), 'utf8');
    expect(body).toContain('- **bump**: 2 pieces\n  - `core` · `@acme/core` · `scion/bump/core`');
    expect(r.git('show', 'scion/bump/core:.github/CODEOWNERS')).toBe('* @acme/core\n/web/ @acme/other\n/api/ @acme/api');
    expect(report.jobs[1]!.split!.rules).toEqual([{ line: 2, pattern: '/web/', section: null, files: 1 }]);
  });
});

describe('split: no CODEOWNERS', () => {
  it('scion owners exits 2 saying where it looked; a split makes one piece, `unowned`, and says so', async () => {
    const r = await repo({ 'a.ts': 'v1\n', 'src/b.ts': 'v1\n' });
    const owners = await scion(['owners', 'a.ts', '--repo', r.dir], { cwd: r.dir });
    expect(owners.code).toBe(2);
    expect(owners.stdout).toBe('');
    expect(owners.stderr).toContain('.github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS');
    const { report, stderr } = await run(r, bump('{ by: owners }'));
    expect(report.jobs.map((j) => [j.name, j.branch, j.status, j.owners, j.files.map((f) => f.path), j.split!.file])).toEqual([
      ['bump/unowned', 'scion/bump/unowned', 'changed', [], ['a.ts', 'src/b.ts'], null],
    ]);
    expect(stderr).toContain('no CODEOWNERS file in the base commit');
    expect(stderr).toContain('`unowned`');
    expect(r.git('log', '--format=%s', 'scion/bump/unowned')).toContain('scion: bump');
    // The job's own branch is not written.
    expect(r.git('branch', '--list', 'scion/bump')).toBe('');
  });

  it('a dry run plans the pieces and writes no branch', async () => {
    const r = await repo({ CODEOWNERS: '/a/ @ann\n', 'a/x.ts': 'v1\n', 'b/y.ts': 'v1\n' });
    const { report } = await run(r, bump('{ by: owners }'), 'plan');
    expect(report.jobs.map((j) => [j.name, j.status, j.head])).toEqual([
      ['bump/ann', 'changed', null],
      ['bump/unowned', 'changed', null],
    ]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('--keep-worktrees keeps no worktree for a split job (no one worktree is clean at every piece), and says so', async () => {
    const r = await repo({ CODEOWNERS: '/a/ @ann\n', 'a/x.ts': 'v1\n', 'b/y.ts': 'v1\n' });
    const { report, stderr } = await run(r, bump('{ by: owners }'), 'run', ['--keep-worktrees']);
    expect(report.jobs.map((j) => [j.name, j.status, j.worktree])).toEqual([
      ['bump/ann', 'changed', null],
      ['bump/unowned', 'changed', null],
    ]);
    expect(stderr).toContain('keeps no worktree');
    expect(r.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(r.git('status', '--porcelain')).toBe('');
  });
});
