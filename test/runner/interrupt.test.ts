// Interrupts, runner side: an aborted RunOptions.signal ends a running `run` command with its
// whole process group, starts no further job, writes no ref and leaves no worktree (native git judges).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/recipe/index.js';
import { runRecipes, type LoadedRecipe } from '../../src/runner/run-recipes.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { isAlive, pidsIn, waitFor } from '../support/processes.js';

const cleanups = cleanupAfterEach();

async function load(text: string): Promise<LoadedRecipe[]> {
  const r = await loadRecipe(recipeFile(text));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return [{ file: r.file, recipe: r.recipe }];
}

async function interruptWhileRunning(command: (dir: string) => string) {
  const r = await gitRepo({ 'src/a.ts': 'const a = 1;\n' });
  cleanups.push(r.cleanup);
  const dir = mkdtempSync(join(tmpdir(), 'scion-int-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const recipes = await load(`name: slow
jobs:
  - name: one
  - name: two
steps:
  - replace: { old_string: "const a", new_string: "let a" }
  - run: ${JSON.stringify(command(dir))}
`);
  const abort = new AbortController();
  const running = runRecipes(recipes, { repo: r.dir, concurrency: 1, signal: abort.signal }, { env: { PATH: process.env['PATH'] } });
  const pids = await pidsIn(dir, ['sh.pid', 'sleep.pid']);
  for (const pid of pids) expect(isAlive(pid)).toBe(true);
  abort.abort();
  const report = await running;
  return { r, dir, report, pids };
}

describe('interrupting a run (library)', () => {
  const cases = {
    'a command that ends on SIGTERM': (dir: string) => `echo $$ > ${dir}/sh.pid; sleep 30 & echo $! > ${dir}/sleep.pid; wait $!; touch ${dir}/marker`,
    'a command that ignores SIGTERM (SIGKILL after the grace period)': (dir: string) =>
      `trap '' TERM; echo $$ > ${dir}/sh.pid; sleep 30 & echo $! > ${dir}/sleep.pid; wait $!; touch ${dir}/marker`,
  };
  for (const [name, command] of Object.entries(cases)) {
    it(`ends ${name} with its process group; no ref, no worktree, kind interrupted`, async () => {
      const { r, dir, report, pids } = await interruptWhileRunning(command);
      // The whole group is gone (the shell and the sleep it started), so the marker can never appear.
      await waitFor(() => pids.every((pid) => !isAlive(pid)));
      expect(existsSync(join(dir, 'marker'))).toBe(false);

      expect(report.jobs.map((j) => [j.name, j.status, j.head, j.worktree, j.commits.length])).toEqual([
        ['one', 'failed', null, null, 0],
        ['two', 'failed', null, null, 0],
      ]);
      for (const job of report.jobs) expect(job.errors.map((e) => e.kind)).toEqual(['interrupted']);
      expect(report.jobs[0]!.errors[0]!.step).toBe(1);

      expect(r.git('for-each-ref', 'refs/heads/scion')).toBe('');
      expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
      expect(r.git('status', '--porcelain')).toBe('');
      r.git('fsck', '--strict');
    });
  }

  it('an already aborted signal starts no job and runs no command', async () => {
    const r = await gitRepo({ 'src/a.ts': 'const a = 1;\n' });
    cleanups.push(r.cleanup);
    const dir = mkdtempSync(join(tmpdir(), 'scion-int-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const recipes = await load(`name: never\nsteps:\n  - run: "touch ${dir}/ran"\n`);
    const report = await runRecipes(recipes, { repo: r.dir, signal: AbortSignal.abort() }, { env: { PATH: process.env['PATH'] } });
    expect(report.jobs.map((j) => [j.status, j.errors[0]?.kind])).toEqual([['failed', 'interrupted']]);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
  });

  it('a run step past its timeout is ended with its whole process group: kind timeout', async () => {
    const r = await gitRepo({ 'src/a.ts': 'const a = 1;\n' });
    cleanups.push(r.cleanup);
    const dir = mkdtempSync(join(tmpdir(), 'scion-int-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const command = `trap '' TERM; echo $$ > ${dir}/sh.pid; sleep 30 & echo $! > ${dir}/sleep.pid; wait $!; touch ${dir}/marker`;
    const recipes = await load(`name: slow\nsteps:\n  - run: ${JSON.stringify(command)}\n    timeout: 1\n`);
    // A run signal that never fires: the step's own deadline must still end the command.
    const report = await runRecipes(recipes, { repo: r.dir, signal: new AbortController().signal }, { env: { PATH: process.env['PATH'] } });
    const pids = await pidsIn(dir, ['sh.pid', 'sleep.pid']);
    await waitFor(() => pids.every((pid) => !isAlive(pid)));
    expect(existsSync(join(dir, 'marker'))).toBe(false);
    expect(report.jobs.map((j) => [j.status, j.head, j.errors.map((e) => e.kind)])).toEqual([['failed', null, ['timeout']]]);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
  });
});
