// A ref's `.lock` file in the way of a job's branch (git's lock-file protocol). One that a scion
// killed mid-update left behind (kill -9 of a real process holding it) is recognised and cleared by
// the next run; any other (a live scion's, a live native git's, one nothing proves stale) is never
// removed: the job ends kind `locked`, and the message gives the exact command to remove it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { reposAfterEach, cleanupAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { exited, isAlive, waitFor } from '../support/processes.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const HOLDER = new URL('./hold-ref-lock.ts', import.meta.url).pathname;
const RECIPE = recipeFile('name: held\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n');
const REF = 'refs/heads/scion/held';

const lockOf = (r: TestRepo) => join(r.dir, '.git', REF + '.lock');
const records = (r: TestRepo) => {
  const d = join(r.dir, '.git', 'scion', 'ref-locks');
  return existsSync(d) ? readdirSync(d) : [];
};

/** A process holding REF's lock the way scion's updateRef does, once it has said so. */
async function holder(r: TestRepo): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX, HOLDER, r.dir, REF, r.git('rev-parse', 'HEAD')], { cwd: r.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => out.includes('held') || child.exitCode !== null, 30_000);
  expect(out).toBe('held\n');
  return child;
}

/** A native `git update-ref --stdin` transaction creating REF, prepared (REF's lock held) and waiting for `commit` or `abort`. */
async function preparedTransaction(r: TestRepo): Promise<ChildProcess> {
  const git = spawn('git', ['update-ref', '--stdin'], { cwd: r.dir, stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.push(() => void (git.exitCode === null && git.kill('SIGKILL')));
  let out = '';
  git.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  git.stdin!.write(`start\ncreate ${REF} ${r.git('rev-parse', 'HEAD')}\nprepare\n`);
  await waitFor(() => out.includes('prepare: ok'));
  return git;
}

async function run(r: TestRepo): Promise<{ code: number; report: RunReport; stderr: string }> {
  const res = await scion(['run', RECIPE, '--repo', r.dir, '--json'], { cwd: r.dir });
  expect(res.stderr).not.toContain('internal error');
  return { code: res.code, report: JSON.parse(res.stdout) as RunReport, stderr: res.stderr };
}

function expectLocked(res: { code: number; report: RunReport }) {
  expect(res.code).toBe(1);
  const job = res.report.jobs[0]!;
  expect([job.status, job.head, job.errors.map((e) => e.kind)]).toEqual(['failed', null, ['locked']]);
  return job.errors[0]!;
}

describe('a ref lock in the way of the branch', () => {
  it('left by a scion killed (kill -9) while it held it: the next run clears it and writes the branch', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    const child = await holder(r);
    expect(existsSync(lockOf(r))).toBe(true);
    child.kill('SIGKILL');
    expect(await exited(child)).toBe('SIGKILL');
    // What the dead process left: git's lock file and scion's record of it.
    expect(existsSync(lockOf(r))).toBe(true);
    expect(records(r)).toHaveLength(1);

    const res = await run(r);
    expect(res.code).toBe(0);
    expect(res.report.jobs.map((j) => j.status)).toEqual(['changed']);
    expect(r.git('show', 'scion/held:src/a.ts')).toBe('let a = 1;');
    expect(existsSync(lockOf(r))).toBe(false);
    expect(records(r)).toEqual([]);
    // Native git can move the branch again.
    r.git('update-ref', REF, r.git('rev-parse', 'main'));
    r.git('fsck', '--strict');
  }, 60_000);

  it('held by a live scion: left alone, kind locked naming its pid', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    const child = await holder(r);
    const error = expectLocked(await run(r));
    expect(error.message).toContain(`pid ${child.pid}`);
    expect(existsSync(lockOf(r))).toBe(true);
    expect(isAlive(child.pid!)).toBe(true);
    expect(() => r.git('rev-parse', '--verify', '-q', REF)).toThrow();
  }, 60_000);

  it('held by a live native git (an update-ref transaction between prepare and commit): left alone, kind locked', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    const git = await preparedTransaction(r);
    expect(existsSync(lockOf(r))).toBe(true);

    const error = expectLocked(await run(r));
    expect(error.message).toContain(`rm -f '${lockOf(r)}'`);
    expect(existsSync(lockOf(r))).toBe(true);
    // git's transaction is intact: it commits what it prepared.
    git.stdin!.end('commit\n');
    expect(await exited(git)).toBe(0);
    expect(r.git('rev-parse', REF)).toBe(r.git('rev-parse', 'main'));
  }, 60_000);

  it('held by native git for a moment: the run waits for it as git does (core.filesRefLockTimeout) and writes the branch', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    r.git('config', 'core.filesRefLockTimeout', '30000');
    const git = await preparedTransaction(r);

    const running = run(r);
    // scion writes its owner's record before it tries the lock: once it is there, scion is waiting.
    await waitFor(() => records(r).length === 1, 30_000);
    expect(existsSync(lockOf(r))).toBe(true);
    git.stdin!.end('abort\n');
    expect(await exited(git)).toBe(0);

    const res = await running;
    expect(res.code).toBe(0);
    expect(res.report.jobs.map((j) => j.status)).toEqual(['changed']);
    expect(r.git('show', 'scion/held:src/a.ts')).toBe('let a = 1;');
    expect(existsSync(lockOf(r))).toBe(false);
    expect(records(r)).toEqual([]);
    r.git('fsck', '--strict');
  }, 60_000);

  it('that nothing proves stale (no record, however old): left alone; the message’s command removes it, then the run works', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    const lock = lockOf(r);
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 24 * 3600 * 1000);
    utimesSync(lock, old, old);
    const error = expectLocked(await run(r));
    expect(existsSync(lock)).toBe(true);
    expect(error.hint).toContain(`rm -f '${lock}'`);
    const command = /`(rm -f '[^']+')`/.exec(error.message)![1]!;
    r.git('-c', 'alias.x=!sh -c "$0"', 'x', command);
    expect(existsSync(lock)).toBe(false);
    expect((await run(r)).code).toBe(0);
  }, 60_000);
});
