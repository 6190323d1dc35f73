// A transform given as a function in code (runRecipe with a recipe object built in the caller, no
// recipe file) runs on the caller's thread: a function cannot be sent to a worker. Its `timeout`
// still holds for what it returns: a result that arrives after the deadline is a timeout and is not
// kept, whether the code was synchronous (it held the thread past the deadline) or async (it settled
// late, or never). The same transform loaded from a recipe file runs in a worker and is stopped.
// Through the library, judged with native git.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineRecipe, loadRecipe, runRecipe, type RunReport } from '../../src/index.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

function expectTimedOut(r: TestRepo, report: RunReport): void {
  const job = report.jobs[0]!;
  expect([job.status, job.errors.map((e) => e.kind), job.files, job.head]).toEqual(['failed', ['timeout'], [], null]);
  expect(r.git('branch', '--list', 'scion/*')).toBe('');
  r.git('fsck', '--strict');
}

describe('a transform built in code (runRecipe, no recipe file)', () => {
  it('synchronous code that returns after its deadline is a timeout: its result is not committed', async () => {
    const r = await repo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    let calls = 0;
    const recipe = defineRecipe({
      name: 'slow-sync',
      steps: [
        {
          timeout: 0.3,
          transform: ({ content }) => {
            calls++;
            // Holds the thread past the deadline: no timer can fire meanwhile.
            const until = Date.now() + 800;
            while (Date.now() < until) {
              /* busy */
            }
            return content.toUpperCase();
          },
        },
      ],
    });
    const report = await runRecipe({ recipe }, { repo: r.dir });
    expectTimedOut(r, report);
    // The step stopped at the first late file: the next one was never offered.
    expect(calls).toBe(1);
  });

  it('an async transform that settles after its deadline is a timeout; its late result lands nowhere', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    let settled = false;
    const recipe = defineRecipe({
      name: 'slow-async',
      steps: [
        {
          timeout: 0.3,
          transform: async ({ content }) => {
            await new Promise((resolve) => setTimeout(resolve, 800));
            settled = true;
            return content.toUpperCase();
          },
        },
      ],
    });
    const report = await runRecipe({ recipe }, { repo: r.dir });
    expectTimedOut(r, report);
    // Bounded: the job ended at the deadline (plus its grace), after the late result arrived or not;
    // once it has arrived, still nothing of it is on a branch.
    while (!settled) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('an async transform that never settles ends in kind timeout at its deadline', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const recipe = defineRecipe({ name: 'never', steps: [{ timeout: 0.3, transform: () => new Promise<string>(() => undefined) }] });
    expectTimedOut(r, await runRecipe({ recipe }, { repo: r.dir }));
  });

  it('one that returns in time is committed as usual', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const recipe = defineRecipe({ name: 'quick', steps: [{ timeout: 5, transform: ({ content }) => content.toUpperCase() }] });
    const report = await runRecipe({ recipe }, { repo: r.dir });
    expect(report.jobs[0]!.status).toBe('changed');
    expect(r.git('show', 'scion/quick:a.txt')).toBe('A');
  });

  it('the way to bound synchronous code: the same transform loaded from a recipe file (loadRecipe) is stopped at its deadline', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-inline-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'spin.mjs'), 'export default { name: "spin", steps: [{ timeout: 0.3, transform: () => { for (;;) {} } }] };\n');
    const loaded = await loadRecipe(join(dir, 'spin.mjs'));
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
    expectTimedOut(r, await runRecipe({ recipe: loaded.recipe, file: loaded.file }, { repo: r.dir }));
  });
});
