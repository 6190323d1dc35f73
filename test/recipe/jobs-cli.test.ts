// Several jobs: `each` expansion, named jobs, shards, concurrency.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

const files = Object.fromEntries(['api', 'shared', 'web', 'zeta'].map((p) => [`packages/${p}/src/index.ts`, `export const name = 'OLD-${p}';\n`]));
const EACH = 'name: per-package\njobs:\n  - each: "packages/*"\nsteps:\n  - replace: { old_string: "OLD-", new_string: "NEW-" }\n';

describe('jobs', () => {
  it('each: one job and one branch per directory, each touching only its own files', async () => {
    const r = await gitRepo(files);
    cleanups.push(r.cleanup);
    const res = await scion(['run', recipeFile(EACH), '--repo', r.dir, '--json', '--concurrency', '2'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const rep = JSON.parse(res.stdout) as RunReport;
    expect(rep.jobs.map((j) => [j.name, j.branch, j.status])).toEqual([
      ['api', 'scion/per-package/api', 'changed'],
      ['shared', 'scion/per-package/shared', 'changed'],
      ['web', 'scion/per-package/web', 'changed'],
      ['zeta', 'scion/per-package/zeta', 'changed'],
    ]);
    expect(r.git('diff', '--name-only', 'main', 'scion/per-package/web')).toBe('packages/web/src/index.ts');
    expect(r.git('log', '-1', '--format=%(trailers:key=Scion-Job,valueonly)', 'scion/per-package/web')).toBe('web');
  });

  it('--shard I/N runs job k when k mod N + 1 == I', async () => {
    const r = await gitRepo(files);
    cleanups.push(r.cleanup);
    const recipe = recipeFile(EACH);
    const names = async (shard: string) => {
      const res = await scion(['plan', recipe, '--repo', r.dir, '--json', '--shard', shard], { cwd: r.dir });
      expect(res.code).toBe(0);
      return (JSON.parse(res.stdout) as RunReport).jobs.map((j) => j.name);
    };
    expect(await names('1/3')).toEqual(['api', 'zeta']);
    expect(await names('2/3')).toEqual(['shared']);
    expect(await names('3/3')).toEqual(['web']);
    const bad = await scion(['plan', recipe, '--repo', r.dir, '--shard', '4/3'], { cwd: r.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard 4/3');
  });

  it('named jobs intersect their files with the recipe selection', async () => {
    const r = await gitRepo(files);
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: named
files: { include: ["packages/**"], exclude: ["packages/zeta/**"] }
jobs:
  - name: front
    files: { include: ["packages/web/**", "packages/zeta/**"] }
  - name: rest
steps:
  - replace: { old_string: "OLD-", new_string: "NEW-" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const rep = JSON.parse(res.stdout) as RunReport;
    expect(rep.jobs.map((j) => [j.name, j.files.map((f) => f.path)])).toEqual([
      ['front', ['packages/web/src/index.ts']],
      ['rest', ['packages/api/src/index.ts', 'packages/shared/src/index.ts', 'packages/web/src/index.ts']],
    ]);
  });
});
