// scion run end to end on real repositories, judged by native git.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { diffDigests, digestTree } from '../support/snapshot.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();
async function repo(files: Parameters<typeof gitRepo>[0], opts?: Parameters<typeof gitRepo>[1]) {
  const r = await gitRepo(files, opts);
  cleanups.push(r.cleanup);
  return r;
}
const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RunReport;

const SOURCES = {
  'src/core/a.ts': "import { legacyLog } from './legacy';\nlegacyLog('a');\n",
  'src/ui/b.ts': "import { legacyLog } from '../core/legacy';\nlegacyLog('b');\n",
  'lib/c.ts': "legacyLog('c');\n",
  'README.md': '# demo\n',
};

const RENAME = `name: rename-logger
description: Move to the new logger
files:
  include: ["src/**", "lib/**"]
groups:
  - name: core
    include: ["src/core/**"]
  - name: ui
    include: ["src/ui/**"]
    message: "refactor(ui): {{description}} ({{count}} files)"
steps:
  - replace: { old_string: "legacyLog(", new_string: "log(", replace_all: true }
`;

describe('scion run', () => {
  it('commits one change per group, in order, with trailers, and never touches the checkout', async () => {
    const r = await repo(SOURCES);
    const base = r.head();
    // A user mid-work: a modified file, a staged change and an untracked file.
    writeFileSync(join(r.dir, 'README.md'), '# demo\nwork in progress\n');
    writeFileSync(join(r.dir, 'lib/c.ts'), "legacyLog('c'); // staged\n");
    r.git('add', 'lib/c.ts');
    writeFileSync(join(r.dir, 'notes.txt'), 'untracked\n');
    const before = digestTree(r.dir, (p) => p.startsWith('.git/') && p !== '.git/index' && p !== '.git/HEAD');
    const statusBefore = r.git('status', '--porcelain');

    const report = join(r.dir, '..', `${Date.now()}-report.json`);
    const res = await scion(['run', recipeFile(RENAME), '--repo', r.dir, '--report', report], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(0);

    // The checkout, its index and HEAD are byte-identical.
    expect(
      diffDigests(
        before,
        digestTree(r.dir, (p) => p.startsWith('.git/') && p !== '.git/index' && p !== '.git/HEAD'),
      ),
    ).toEqual([]);
    expect(r.git('status', '--porcelain')).toBe(statusBefore);
    expect(r.git('rev-parse', 'main')).toBe(base);

    const subjects = r.git('log', '--reverse', '--format=%s', `${base}..scion/rename-logger`).split('\n');
    expect(subjects).toEqual(['Move to the new logger (core)', 'refactor(ui): Move to the new logger (1 files)', 'Move to the new logger (rest)']);
    const groups = r.git('log', '--reverse', '--format=%(trailers:key=Scion-Group,valueonly)', `${base}..scion/rename-logger`).split('\n').filter(Boolean);
    expect(groups).toEqual(['core', 'ui', 'rest']);
    const first = r.git('rev-list', '--reverse', `${base}..scion/rename-logger`).split('\n')[0]!;
    expect(r.git('show', '--format=%(trailers:key=Scion-Recipe,valueonly)%(trailers:key=Scion-Job,valueonly)', '-s', first)).toBe(
      'rename-logger\nrename-logger',
    );
    expect(r.git('rev-parse', `${first}^`)).toBe(base);
    expect(r.git('show', '--name-only', '--format=', first)).toBe('src/core/a.ts');
    expect(r.git('show', 'scion/rename-logger:src/ui/b.ts')).toBe("import { legacyLog } from '../core/legacy';\nlog('b');");
    // The committed lib/c.ts is the base's, not the user's staged version.
    expect(r.git('show', 'scion/rename-logger:lib/c.ts')).toBe("log('c');");
    r.git('fsck', '--strict');

    const rep = readReport(report);
    expect(rep.version).toBe(1);
    expect(rep.dryRun).toBe(false);
    const job = rep.jobs[0]!;
    expect(job).toMatchObject({ recipe: 'rename-logger', name: 'rename-logger', base, branch: 'scion/rename-logger', status: 'changed', worktree: null });
    expect(job.head).toBe(r.git('rev-parse', 'scion/rename-logger'));
    expect(job.commits.map((c) => [c.group, c.files])).toEqual([
      ['core', ['src/core/a.ts']],
      ['ui', ['src/ui/b.ts']],
      ['rest', ['lib/c.ts']],
    ]);
    expect(job.files.map((f) => [f.path, f.added, f.removed])).toEqual([
      ['lib/c.ts', 1, 1],
      ['src/core/a.ts', 1, 1],
      ['src/ui/b.ts', 1, 1],
    ]);
  });

  it('plan writes nothing: .git stays byte-identical, the diff is printed', async () => {
    const r = await repo(SOURCES);
    const before = digestTree(join(r.dir, '.git'));
    const res = await scion(['plan', recipeFile(RENAME), '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(diffDigests(before, digestTree(join(r.dir, '.git')))).toEqual([]);
    const rep = JSON.parse(res.stdout) as RunReport;
    expect(rep.dryRun).toBe(true);
    expect(rep.jobs[0]!.head).toBeNull();
    expect(rep.jobs[0]!.commits.every((c) => c.sha === null)).toBe(true);
    expect(rep.jobs[0]!.files).toHaveLength(3);

    const human = await scion(['plan', recipeFile(RENAME), '--repo', r.dir], { cwd: r.dir });
    expect(human.stdout).toContain("-legacyLog('c');");
    expect(human.stdout).toContain("+log('c');");
    expect(diffDigests(before, digestTree(join(r.dir, '.git')))).toEqual([]);
  });

  it('keeps file modes: an executable stays executable', async () => {
    const r = await repo({ 'bin/tool.sh': { content: '#!/bin/sh\nlegacyLog x\n', mode: 'exec' }, 'a.txt': 'legacyLog y\n' });
    const res = await scion(['run', recipeFile('name: modes\nsteps:\n  - replace: { old_string: legacyLog, new_string: log }\n'), '--repo', r.dir], {
      cwd: r.dir,
    });
    expect(res.code).toBe(0);
    expect(r.git('ls-tree', 'scion/modes', 'bin/tool.sh').split(/\s/)[0]).toBe('100755');
    expect(r.git('ls-tree', 'scion/modes', 'a.txt').split(/\s/)[0]).toBe('100644');
  });

  it('works on a packed repository (packed refs and objects)', async () => {
    const r = await repo(SOURCES, { packed: true });
    const res = await scion(['run', recipeFile(RENAME), '--repo', r.dir], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(r.git('show', 'scion/rename-logger:lib/c.ts')).toBe("log('c');");
    r.git('fsck', '--strict');
  });

  it('starts from --base instead of HEAD', async () => {
    const r = await repo(SOURCES);
    r.git('checkout', '-q', '-b', 'other');
    writeFileSync(join(r.dir, 'lib/d.ts'), "legacyLog('d');\n");
    r.git('add', '.');
    r.git('commit', '-qm', 'other');
    const other = r.head();
    r.git('checkout', '-q', 'main');
    const res = await scion(['run', recipeFile(RENAME), '--repo', r.dir, '--base', 'other', '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const rep = JSON.parse(res.stdout) as RunReport;
    expect(rep.jobs[0]!.base).toBe(other);
    expect(r.git('show', 'scion/rename-logger:lib/d.ts')).toBe("log('d');");
  });

  it("runs from a folder inside a linked worktree, starting at that worktree's HEAD", async () => {
    const r = await repo(SOURCES);
    const wt = `${r.dir}-linked`;
    cleanups.push(async () => {
      r.git('worktree', 'remove', '--force', wt);
    });
    r.git('worktree', 'add', '-q', '-b', 'feature', wt);
    writeFileSync(join(wt, 'lib/e.ts'), "legacyLog('e');\n");
    r.git('-C', wt, 'add', '.');
    r.git('-C', wt, 'commit', '-qm', 'feature work');
    const featureHead = r.git('rev-parse', 'feature');
    const res = await scion(['run', recipeFile(RENAME), '--repo', join(wt, 'lib'), '--json'], { cwd: wt });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as RunReport).jobs[0]!.base).toBe(featureHead);
    expect(r.git('show', 'scion/rename-logger:lib/e.ts')).toBe("log('e');");
    expect(r.git('-C', wt, 'status', '--porcelain')).toBe('');
    r.git('fsck', '--strict');
  });
});
