// A module recipe's transform runs where it can be stopped (a worker thread), through the real CLI
// process: synchronous code that never yields ends in kind `timeout` at its deadline; a slow result
// that comes after the deadline is not committed; process.exit() in a transform is a failed step, not
// a silent exit 0; SIGINT/SIGTERM while a transform spins ends scion with 130 and the report written.
// A .ts recipe with its own imports runs in the worker as it loaded for validation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';
import { spawnScion, type Spawned } from '../support/spawn-cli.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

/** The recipe (and any helper modules) in a folder of their own, outside the repository. */
function recipeDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scion-transform-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function start(r: TestRepo, recipe: string, report: string): Spawned {
  const s = spawnScion(['run', recipe, '--repo', r.dir, '--report', report], { cwd: r.dir });
  // A regression spins forever: never leave the process behind.
  cleanups.push(() => void s.child.kill('SIGKILL'));
  return s;
}

async function runToEnd(r: TestRepo, recipe: string): Promise<{ code: number | null; job: JobReport; stdout: string }> {
  const report = join(recipeDir({}), 'report.json');
  const res = await start(r, recipe, report).done;
  expect(res.stderr).not.toContain('internal error');
  return { code: res.code, job: (JSON.parse(readFileSync(report, 'utf8')) as RunReport).jobs[0]!, stdout: res.stdout };
}

describe('transforms in a worker', () => {
  it('for(;;){} ends in kind timeout at its deadline, with a report and nothing kept', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const dir = recipeDir({ 'recipe.mjs': 'export default { name: "spin", steps: [{ transform: () => { for (;;) {} }, timeout: 1 }] };\n' });
    const { code, job } = await runToEnd(r, join(dir, 'recipe.mjs'));
    expect(code).toBe(1);
    expect(job.errors.map((e) => e.kind)).toEqual(['timeout']);
    expect(job.files).toEqual([]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('a synchronous transform that returns after its deadline is a timeout: its result is not committed', async () => {
    const r = await repo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const dir = recipeDir({
      'recipe.mjs': `export default { name: "slow", steps: [{ timeout: 0.5, transform: ({ content }) => {
  const until = Date.now() + 1500;
  while (Date.now() < until) {}
  return content.toUpperCase();
} }] };
`,
    });
    const { code, job } = await runToEnd(r, join(dir, 'recipe.mjs'));
    expect(code).toBe(1);
    expect(job.errors.map((e) => e.kind)).toEqual(['timeout']);
    expect(job.files).toEqual([]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('process.exit(0) in a transform fails the step naming the file; scion does not exit 0 without a report', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const dir = recipeDir({ 'recipe.mjs': 'export default { name: "quit", steps: [{ transform: () => process.exit(0) }] };\n' });
    const { code, job } = await runToEnd(r, join(dir, 'recipe.mjs'));
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([['a.txt', 'command-failed']]);
    expect(job.errors[0]!.message).toContain('process.exit(0)');
  });

  it('a module whose step holds no transform in the worker fails the step as not loaded, changing nothing', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    // The module answers differently in the worker thread: its step there holds no function.
    const recipe = [
      "import { isMainThread } from 'node:worker_threads';",
      'export default { name: "elsewhere", steps: [{ transform: isMainThread ? ({ content }) => content + "!" : "gone" }] };',
      '',
    ].join('\n');
    const { code, job } = await runToEnd(r, join(recipeDir({ 'recipe.mjs': recipe }), 'recipe.mjs'));
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([[null, 'command-failed']]);
    expect(job.errors[0]!.message).toBe('The transform could not be loaded in its worker: its step 0 no longer holds a transform function');
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while a transform spins ends scion with 130 and the report written`, async () => {
      const r = await repo({ 'a.txt': 'a\n' });
      const dir = recipeDir({ 'recipe.mjs': 'export default { name: "spin", steps: [{ transform: () => { for (;;) {} } }] };\n' });
      const report = join(dir, 'report.json');
      const s = start(r, join(dir, 'recipe.mjs'), report);
      await s.waitFor('step 1/1: transform');
      s.child.kill(signal);
      const res = await s.done;
      expect(res.code).toBe(130);
      const job = (JSON.parse(readFileSync(report, 'utf8')) as RunReport).jobs[0]!;
      expect(job.errors.map((e) => e.kind)).toEqual(['interrupted']);
      expect(r.git('branch', '--list', 'scion/*')).toBe('');
    });
  }

  it('a .ts recipe with its own imports and console output runs in the worker and is committed', async () => {
    const r = await repo({ 'src/a.ts': 'legacy();\n', 'src/b.ts': 'other();\n' });
    const dir = recipeDir({
      'rename.ts': 'export const rename = (s: string): string => s.replaceAll("legacy(", "modern(");\n',
      'recipe.ts': `import { rename } from './rename.ts';
let calls: number = 0;
export default {
  name: 'ts-transform',
  steps: [{ transform: ({ path, content }: { path: string; content: string }) => {
    calls += 1;
    console.log('visiting ' + path + ' #' + calls);
    return path === 'src/a.ts' ? rename(content) : undefined;
  } }],
};
`,
    });
    const { code, job } = await runToEnd(r, join(dir, 'recipe.ts'));
    expect(job.errors).toEqual([]);
    expect(code).toBe(0);
    expect(job.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(r.git('show', `${job.branch}:src/a.ts`)).toBe('modern();');
  });
});
