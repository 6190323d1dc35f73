// Names are data, not syntax: `each` directories named like globs are jobs like any
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

  it('each over Next.js route folders ([id], [...slug], [[...slug]]) makes one job each, on a valid branch, with its own files', async () => {
    const names = ['(marketing)', '[...slug]', '[[...slug]]', '[id]', 'id', 'plain', '{x,y}'];
    const files = Object.fromEntries(
      names.flatMap((n) => [
        [`app/${n}/page.ts`, `old(${n});\n`],
        [`app/${n}/notes.md`, 'old(md);\n'],
      ]),
    );
    const r = await gitRepo(files);
    cleanups.push(r.cleanup);
    // The job's own files select page.ts only: the glob built under each directory must read its name literally.
    const recipe = recipeFile(
      'name: next\njobs:\n  - each: "app/*"\n    files: { include: ["*.ts"] }\nsteps:\n  - replace: { old_string: "old(", new_string: "new(" }\n',
    );
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.stderr).not.toMatch(/refuse/);
    expect(res.code).toBe(0);
    const jobs = (JSON.parse(res.stdout) as RunReport).jobs;
    expect(jobs.map((j) => [j.name, j.status, j.files.map((f) => f.path)])).toEqual(names.map((n) => [n, 'changed', [`app/${n}/page.ts`]]));
    // Names git accepts in a ref stay as they are; the others get a readable slug and a hash that keeps them apart.
    const byName = new Map(jobs.map((j) => [j.name, j.branch]));
    expect(byName.get('(marketing)')).toBe('scion/next/(marketing)');
    expect(byName.get('{x,y}')).toBe('scion/next/{x,y}');
    expect(byName.get('id')).toBe('scion/next/id');
    expect(byName.get('[id]')).toMatch(/^scion\/next\/id-[0-9a-f]{6}$/);
    expect(byName.get('[...slug]')).toMatch(/^scion\/next\/slug-[0-9a-f]{6}$/);
    expect(byName.get('[[...slug]]')).toMatch(/^scion\/next\/slug-[0-9a-f]{6}$/);
    expect(new Set(byName.values()).size).toBe(names.length);
    for (const j of jobs) {
      expect(r.git('check-ref-format', '--branch', j.branch)).toBe(j.branch);
      expect(r.git('show', `${j.branch}:app/${j.name}/page.ts`)).toBe(`new(${j.name});`);
      expect(r.git('show', `${j.branch}:app/${j.name}/notes.md`)).toBe('old(md);');
      expect(r.git('log', '-1', '--format=%(trailers:key=Scion-Job,valueonly)', j.branch)).toBe(j.name);
    }
    r.git('fsck', '--strict');
    // The same names give the same branches on the next run: nothing changed, nothing rewritten.
    const again = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as RunReport).jobs.map((j) => [j.branch, j.status])).toEqual(jobs.map((j) => [j.branch, 'unchanged']));
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
