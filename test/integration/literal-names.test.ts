// Names are data, not syntax (SPEC §2, §7): `each` directories named like globs are jobs like any
// other, and tracked paths holding a newline or a tab are selected and edited like any other.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

describe('literal names', () => {
  it('each "app/*" over app/(marketing), and app/{x,y} makes one job each, with its own files', async () => {
    const r = await gitRepo({
      'app/(marketing)/page.ts': 'old(1);\n',
      'app/{x,y}/page.ts': 'old(2);\n',
      'app/marketing/page.ts': 'old(4);\n',
      'app/x/page.ts': 'old(5);\n',
    });
    cleanups.push(r.cleanup);
    const recipe = recipeFile('name: lit\njobs:\n  - each: "app/*"\nsteps:\n  - replace: { old_string: "old(", new_string: "new(" }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const jobs = (JSON.parse(res.stdout) as RunReport).jobs;
    expect(jobs.map((j) => [j.name, j.status, j.files.map((f) => f.path)])).toEqual([
      ['(marketing)', 'changed', ['app/(marketing)/page.ts']],
      ['marketing', 'changed', ['app/marketing/page.ts']],
      ['x', 'changed', ['app/x/page.ts']],
      ['{x,y}', 'changed', ['app/{x,y}/page.ts']],
    ]);
    r.git('fsck', '--strict');
  });

  it('a tracked path with a newline or a tab is selected and edited', async () => {
    const r = await gitRepo({ 'src/new\nline.ts': 'old(1);\n', 'src/tab\there.ts': 'old(2);\n', 'src/plain.ts': 'old(3);\n', 'dir\nx/f.ts': 'old(4);\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile('name: nl\nsteps:\n  - replace: { old_string: "old(", new_string: "new(" }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.files.map((f) => f.path).sort()).toEqual(['dir\nx/f.ts', 'src/new\nline.ts', 'src/plain.ts', 'src/tab\there.ts']);
    expect(r.git('show', 'scion/nl:dir\nx/f.ts')).toBe('new(4);');
    expect(r.git('show', 'scion/nl:src/new\nline.ts')).toBe('new(1);');
    expect(r.git('show', 'scion/nl:src/tab\there.ts')).toBe('new(2);');
    r.git('fsck', '--strict');
  });
});
