// The harness's actions/cache stand-ins behave as the real actions do: actions/cache@v4 restores at
// its step (exact key, else the newest entry of the first matching restore-keys prefix) and saves
// in its post step only when the job succeeded and the key was not an exact hit; the split
// actions/cache/restore and actions/cache/save steps; the store outlives one run.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../support/git-repo.js';
import { cacheStore, runWorkflow, type ActionsCache, type Workflow } from './workflow-runner.js';

const checkout = { uses: 'actions/checkout@v4', with: { 'fetch-depth': 1 } };

describe('the workflow harness: actions/cache', () => {
  let dir: string;
  let origin: string;
  let cleanup: () => Promise<void>;
  let cache: ActionsCache;
  let n = 0;
  const run = (wf: Workflow, runId: string) =>
    runWorkflow(wf, {
      cloneUrl: origin,
      ref: 'main',
      extraHeader: { url: 'http://127.0.0.1/', value: 'AUTHORIZATION: basic x' },
      secrets: {},
      env: {},
      toolsDir: join(dir, 'tools'),
      root: join(dir, `run-${++n}`),
      cache,
      runId,
    });
  const job = (fail: boolean): Workflow => ({
    jobs: {
      build: {
        steps: [
          checkout,
          { uses: 'actions/cache@v4', with: { path: 'store', key: 'k-${{ github.run_id }}', 'restore-keys': 'nope-\nk-' } },
          { name: 'use', run: `cat store/n 2>/dev/null || echo none; mkdir -p store; echo \${{ github.run_id }} > store/n${fail ? '; exit 3' : ''}` },
        ],
      },
    },
  });

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'scion-workflow-cache-')));
    const repo = await gitRepo({ 'a.txt': 'a\n' });
    origin = repo.dir;
    cleanup = () => repo.cleanup();
    cache = cacheStore(join(dir, 'cache'));
  });
  afterAll(async () => {
    await cleanup?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('restores the newest entry of a restore-keys prefix, and saves after a green job only', async () => {
    const one = await run(job(false), 'r1');
    expect(one.steps.map((s) => [s.step, s.outcome, s.stdout.trim()])).toEqual([
      ['actions/checkout@v4', 'success', ''],
      ['actions/cache@v4', 'success', 'Cache not found for input keys: k-r1, nope-, k-'],
      ['use', 'success', 'none'],
      ['Post actions/cache@v4', 'success', 'Cache saved with key: k-r1'],
    ]);
    const two = await run(job(true), 'r2');
    expect(two.steps.slice(1).map((s) => [s.step, s.outcome, s.stdout.trim()])).toEqual([
      ['actions/cache@v4', 'success', 'Cache restored from key: k-r1'],
      ['use', 'failure', 'r1'],
      ['Post actions/cache@v4', 'skipped', ''],
    ]);
    expect(two.steps[1]!.outputs['cache-hit']).toBe('false');
    const three = await run(job(false), 'r3');
    expect(three.steps[2]!.stdout.trim()).toBe('r1');
    const four = await run(job(false), 'r4');
    expect(four.steps[2]!.stdout.trim()).toBe('r3');
    // An exact hit restores and saves nothing.
    const again = await run(job(false), 'r4');
    expect(again.steps.slice(1).map((s) => [s.step, s.outputs['cache-hit'] ?? '', s.stdout.trim()])).toEqual([
      ['actions/cache@v4', 'true', 'Cache restored from key: k-r4'],
      ['use', '', 'r4'],
      ['Post actions/cache@v4', '', 'Cache hit occurred on the primary key k-r4, not saving cache.'],
    ]);
    expect(cache.entries.map((e) => e.key)).toEqual(['k-r1', 'k-r3', 'k-r4']);
  });

  it('actions/cache/save saves when its own if: says so, after a failed step too; an existing key is kept', async () => {
    const wf: Workflow = {
      jobs: {
        build: {
          steps: [
            checkout,
            { uses: 'actions/cache/restore@v4', with: { path: 'other', key: 'o-${{ github.run_id }}', 'restore-keys': 'o-' } },
            { name: 'fail', run: 'mkdir -p other && echo ${{ github.run_id }} >> other/log && exit 1' },
            { uses: 'actions/cache/save@v4', if: '${{ !cancelled() }}', with: { path: 'other', key: 'o-${{ github.run_id }}' } },
          ],
        },
      },
    };
    const one = await run(wf, 's1');
    expect(one.steps.map((s) => s.outcome)).toEqual(['success', 'success', 'failure', 'success']);
    expect(one.steps[3]!.stdout.trim()).toBe('Cache saved with key: o-s1');
    const two = await run(wf, 's2');
    expect(two.steps[1]!.stdout.trim()).toBe('Cache restored from key: o-s1');
    const rerun = await run(wf, 's2');
    expect(rerun.steps[3]!.stdout).toContain('Unable to reserve cache with key o-s2');
    expect(cache.entries.filter((e) => e.path === 'other').map((e) => e.key)).toEqual(['o-s1', 'o-s2']);
  });

  it('throws on an input or expression it does not model', async () => {
    const wf = (w: Record<string, unknown>): Workflow => ({ jobs: { build: { steps: [checkout, { uses: 'actions/cache@v4', with: w }] } } });
    await expect(run(wf({ path: 'p', key: 'k', 'lookup-only': true }), 'x1')).rejects.toThrow(/does not model actions\/cache's lookup-only/);
    await expect(run(wf({ path: 'p', key: '${{ github.sha }}' }), 'x2')).rejects.toThrow(/no value for \$\{\{ github.sha \}\}/);
  });
});
