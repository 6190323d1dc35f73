// An interrupt during an agent step: the model request in flight is cancelled (the real SDK over
// loopback to a fake API that never answers, so only a cancelled request lets the step end), no tool
// call runs after it, and the step ends with kind `interrupted`; through the CLI: exit 130, the
// report written, the job's worktree removed, no branch.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentStep } from '../../src/agent/index.js';
import type { RunReport } from '../../src/model/types.js';
import { reposAfterEach } from '../support/cleanups.js';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { spawnScion } from '../support/spawn-cli.js';
import { waitFor } from '../support/processes.js';
import { KEY, memFiles, step, testEnvsAfterEach } from './mem-files.js';
import { message, tool } from './script.js';
import { fakeApisAfterEach } from '../support/servers.js';

const fakeApi = fakeApisAfterEach();
const testEnv = testEnvsAfterEach();
const repo = reposAfterEach();

/** A model that never answers: the request is open until the client hangs up. */
const slow = () => ({ ...message([{ type: 'text', text: 'Done.' }]), hang: true });

describe('interrupting an agent step', () => {
  it('cancels the request in flight: kind interrupted at once, the server sees the client hang up', async () => {
    const api = await fakeApi(slow);
    const abort = new AbortController();
    const env = await testEnv(api.url, { signal: abort.signal });
    const files = memFiles({ 'src/a.js': 'foo\n', 'src/b.js': 'foo\n', 'src/c.js': 'foo\n' });
    const running = runAgentStep(step({ concurrency: 1, timeoutMs: 60_000 }), files, env);
    await waitFor(() => api.messages().length === 1);
    abort.abort();
    const out = await running;
    expect(out.errors.map((e) => [e.file, e.failure.kind])).toEqual([
      [null, 'interrupted'],
      ['src/a.js', 'interrupted'],
    ]);
    // The files never started are named, not left silent.
    expect(out.errors[0]!.failure.data).toEqual({ files: ['src/b.js', 'src/c.js'] });
    await waitFor(() => api.abandoned() === 1, 2_000);
    expect(api.messages()).toHaveLength(1);
    expect(files.writes).toEqual([]);
  });

  it('runs no tool call the model sent back after the interrupt', async () => {
    const abort = new AbortController();
    // The answer carries an edit; the interrupt fires while it is on its way.
    const api = await fakeApi(() => {
      abort.abort();
      return message([tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })]);
    });
    const env = await testEnv(api.url, { signal: abort.signal });
    const files = memFiles({ 'src/a.js': 'foo\n' });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors.map((e) => e.failure.kind)).toEqual(['interrupted']);
    expect(files.writes).toEqual([]);
    expect(files.text('src/a.js')).toBe('foo\n');
  });

  it('its own timeoutMs is still kind agent', async () => {
    const api = await fakeApi(slow);
    const env = await testEnv(api.url);
    const out = await runAgentStep(step({ timeoutMs: 300 }), memFiles({ 'src/a.js': 'foo\n' }), env);
    expect(out.errors.map((e) => e.failure.kind)).toEqual(['agent']);
    expect(out.errors[0]!.failure.message).toContain('timeoutMs 300');
  });

  it('the interrupt through the CLI reaches the request: the server sees the client hang up while scion lives on', async () => {
    const api = await fakeApi(slow);
    const r = await repo({ 'src/a.js': 'export const foo = 1;\n' });
    const recipe = recipeFile('name: slow-agent\nsteps:\n  - agent:\n      prompt: Rename foo to bar\n');
    const interrupt = new AbortController();
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url };
    const running = scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env, signal: interrupt.signal });
    await waitFor(() => api.messages().length === 1);
    interrupt.abort(new Error('interrupted by SIGINT'));
    const res = await running;
    expect(res.code, res.stderr).toBe(130);
    expect((JSON.parse(res.stdout) as RunReport).jobs.map((j) => [j.status, j.errors.map((e) => e.kind)])).toEqual([['failed', ['interrupted']]]);
    // The request is still open unless the interrupt cancelled it: the fake never answers, and this
    // process (unlike a CLI that exits) does not close the connection by ending.
    await waitFor(() => api.abandoned() === 1);
  });

  it.each([['SIGINT'], ['SIGTERM']] as const)('%s to the CLI process: exit 130, report written, worktree removed', async (signal) => {
    const api = await fakeApi(slow);
    const r = await repo({ 'src/a.js': 'export const foo = 1;\n' });
    // A run step that must run (no step cache) puts the job's files in a real worktree before the
    // agent starts, so its removal can be judged.
    const recipe = recipeFile('name: slow-agent\nsteps:\n  - run: "true"\n  - agent:\n      prompt: Rename foo to bar\n');
    const report = join(recipe, '..', 'report.json');
    const cli = spawnScion(['run', recipe, '--repo', r.dir, '--report', report, '--no-cache'], {
      cwd: r.dir,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url },
    });
    await waitFor(() => api.messages().length === 1);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(2);
    cli.child.kill(signal);
    const res = await cli.done;
    expect(res.code, res.stderr).toBe(130);
    await waitFor(() => api.abandoned() === 1);
    expect(existsSync(report)).toBe(true);
    const rep = JSON.parse(readFileSync(report, 'utf8')) as RunReport;
    expect(rep.jobs.map((j) => [j.status, j.head, j.worktree, j.errors.map((e) => e.kind)])).toEqual([['failed', null, null, ['interrupted']]]);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    expect(r.git('for-each-ref', 'refs/heads/scion')).toBe('');
    expect(r.git('status', '--porcelain')).toBe('');
  });

  it('a model server that stops answering ends in kind timeout within the step timeout (exit 1, report)', async () => {
    const api = await fakeApi(slow);
    const r = await repo({ 'src/a.js': 'export const foo = 1;\n' });
    const recipe = recipeFile('name: stalled\nsteps:\n  - agent:\n      prompt: Rename foo to bar\n    timeout: 1\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url } });
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect([job.status, job.head, job.errors.map((e) => e.kind)]).toEqual(['failed', null, ['timeout']]);
    await waitFor(() => api.abandoned() === 1, 2_000);
  });
});
