// The bundled recipes, run as a user would run them against the bundled sample project.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecipe, planRecipe, runRecipe } from '../../src/index.js';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';

const root = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function sampleRepo(): { dir: string; git: (...a: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'scion-sample-'));
  dirs.push(dir);
  cpSync(join(root, 'fixtures/sample'), dir, { recursive: true });
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'sample');
  return { dir, git };
}

describe('bundled recipes on the sample project', () => {
  for (const [file, rerun] of [
    ['rename-logger.yaml', 'empty'],
    ['import-migration.yaml', 'empty'],
    ['bump-config.yaml', 'empty'],
    ['notebook-cleanup.yaml', null],
  ] as const) {
    it(`${file} runs, commits cleanly, and a rerun on the result changes nothing`, async () => {
      const { dir, git } = sampleRepo();
      const res = await scion(['run', join(root, 'recipes', file), '--repo', dir, '--json'], { cwd: dir });
      expect(res.stderr).not.toContain('internal error');
      expect(res.code).toBe(0);
      const rep = JSON.parse(res.stdout) as RunReport;
      expect(rep.jobs.length).toBeGreaterThan(0);
      for (const job of rep.jobs) {
        expect(job.status).toBe('changed');
        expect(git('rev-parse', job.branch)).toBe(job.head);
      }
      git('fsck', '--strict');
      expect(git('status', '--porcelain')).toBe('');
      if (rerun === null) return;
      // Merge the change, then run the recipe again over it: nothing left to do.
      git('merge', '-q', '--ff-only', rep.jobs[0]!.branch);
      for (const job of rep.jobs.slice(1)) git('-c', 'user.name=t', '-c', 'user.email=t@t', 'merge', '-q', '--no-edit', job.branch);
      const again = await scion(['run', join(root, 'recipes', file), '--repo', dir, '--json'], { cwd: dir });
      expect((JSON.parse(again.stdout) as RunReport).jobs.every((j) => j.status === rerun)).toBe(true);
    });
  }

  it('the module recipe (add-header.ts) runs through the library API: plan, then run', async () => {
    const { dir, git } = sampleRepo();
    const loaded = await loadRecipe(join(root, 'recipes/add-header.ts'));
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
    const plan = await planRecipe({ file: loaded.file, recipe: loaded.recipe }, { repo: dir });
    expect(plan.jobs[0]!.status).toBe('changed');
    expect(git('for-each-ref', 'refs/heads/scion')).toBe('');
    const run = await runRecipe({ file: loaded.file, recipe: loaded.recipe }, { repo: dir });
    const job = run.jobs[0]!;
    expect(job.files.map((f) => f.path)).toEqual(plan.jobs[0]!.files.map((f) => f.path));
    for (const f of job.files) expect(git('show', `${job.branch}:${f.path}`)).toMatch(/^\/\/ SPDX-License-Identifier: MIT\n/);
  });
});
