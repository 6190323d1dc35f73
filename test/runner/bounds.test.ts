// Bounded time (a step's `timeout`, and no step may hang a run): regular expressions, transforms and commands end in kind
// `timeout` within the step's limit, the job fails with a report, and nothing the step did is kept.
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();
const EVIL = `${'a'.repeat(30)}!\n`;

async function repo(files: Record<string, string>): Promise<TestRepo> {
  const r = await gitRepo(files);
  cleanups.push(r.cleanup);
  return r;
}

async function run(r: TestRepo, recipe: string, name = 'recipe.yaml'): Promise<{ code: number; job: JobReport; stderr: string; stdout: string }> {
  const file = recipeFile(recipe, name);
  const report = join(r.dir, '..', `${r.dir.split('/').pop()}-report.json`);
  cleanups.push(async () => (await import('node:fs/promises')).rm(report, { force: true }));
  const res = await scion(['run', file, '--repo', r.dir, '--report', report], { cwd: r.dir });
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as RunReport;
  return { code: res.code, job: parsed.jobs[0]!, stderr: res.stderr, stdout: res.stdout };
}

describe('regular expressions in bounded time', () => {
  it('(a+)+$ over 30 a and ! ends in kind timeout within the step timeout, and keeps nothing of the step', async () => {
    const r = await repo({ 'a.txt': 'hello\n', 'b.txt': EVIL });
    const res = await run(
      r,
      'name: evil\nonError: continue\nsteps:\n  - replace: { old_string: "hello|(a+)+$", new_string: "bye", regex: true, replace_all: true }\n    timeout: 1\n',
    );
    expect(res.code).toBe(1);
    expect(res.job.status).toBe('failed');
    expect(res.job.errors.map((e) => [e.step, e.kind])).toEqual([[0, 'timeout']]);
    // a.txt matched first and was changed, but the step ran out of time: none of it is kept.
    expect(res.job.files).toEqual([]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('a step without timeout still ends: the first file past the limit fails the step, a later step still runs with onError: continue', async () => {
    const r = await repo({ 'b.txt': EVIL, 'c.txt': 'one\n' });
    const res = await run(
      r,
      'name: evil\nonError: continue\nsteps:\n  - replace: { old_string: "(a+)+$", new_string: "x", regex: true }\n    timeout: 0.5\n  - replace: { ' +
        'old_string: "one", new_string: "two" }\n',
    );
    expect(res.job.errors.map((e) => e.kind)).toEqual(['timeout']);
    expect(res.job.files.map((f) => f.path)).toEqual(['c.txt']);
    expect(r.git('show', 'scion/evil:c.txt')).toBe('two');
  });
});

describe('transforms in bounded time and with checked results', () => {
  it('a transform that never settles ends in timeout: exit 1 with a report', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const res = await run(r, 'export default { name: "hang", steps: [{ transform: () => new Promise(() => {}), timeout: 1 }] };\n', 'recipe.mjs');
    expect(res.code).toBe(1);
    expect(res.job.errors.map((e) => e.kind)).toEqual(['timeout']);
    expect(res.job.errors[0]!.message).toContain('1 s');
  });

  it('a transform whose late write lands after its timeout changes nothing', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const res = await run(
      r,
      'export default { name: "late", onError: "continue", steps: [{ transform: () => new Promise((ok) => setTimeout(() => ok("late\\n"), 1500)), ' +
        'timeout: 0.5 }] };\n',
      'recipe.mjs',
    );
    expect(res.job.errors.map((e) => e.kind)).toEqual(['timeout']);
    expect(res.job.files).toEqual([]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('a transform returning a number fails the step with invalid-result', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const res = await run(r, 'export default { name: "num", steps: [{ transform: () => 42 }] };\n', 'recipe.mjs');
    expect(res.code).toBe(1);
    expect(res.job.errors.map((e) => [e.file, e.kind])).toEqual([['a.txt', 'invalid-result']]);
    expect(res.job.errors[0]!.message).toMatch(/returned a number.*string, or undefined/);
  });

  it('a transform that throws gets the transform fix hint, not the run-command one', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const res = await run(r, 'export default { name: "boom", steps: [{ transform: () => { throw new Error("kaput"); } }] };\n', 'recipe.mjs');
    expect(res.job.errors[0]!.message).toContain('kaput');
    expect(res.job.errors[0]!.hint).toMatch(/transform function threw/);
    expect(res.stdout).toMatch(/fix: The transform function threw/);
    expect(res.stdout).not.toContain('--keep-worktrees');
  });
});

describe('run steps in bounded time', () => {
  it('a command past its timeout fails the step with kind timeout, and its process is ended', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-pid-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const res = await run(r, `name: slow\nsteps:\n  - run: "echo changed > a.txt; sleep 30 & echo $! > ${dir}/pid; wait"\n    timeout: 0.5\n`);
    expect(res.code).toBe(1);
    expect(res.job.errors.map((e) => e.kind)).toEqual(['timeout']);
    expect(res.job.files).toEqual([]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    // Gone, or a zombie where the container's init does not reap orphans: either way it no longer runs.
    expect(processState(pid), `pid ${pid}`).toMatch(/^(gone|Z)$/);
  });
});

function processState(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] ?? 'gone';
  } catch {
    return 'gone';
  }
}
