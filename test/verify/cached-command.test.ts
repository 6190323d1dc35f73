// A run step's command through the step cache, in a real linked worktree: a miss runs it (a counter
// file OUTSIDE the repository proves it) and records its changes; a hit replays them without running;
// a different base or different input files miss; no cache runs everything.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeRepo, treeOfCommit, listTree, openRepo, readBlob, resolveCommit } from '../../src/git/index.js';
import { cachedCommand } from '../../src/runner/cached-command.js';
import { StepCache, stepCacheDir } from '../../src/runner/step-cache.js';
import { execShell as shell } from '../../src/runner/steps/command.js';
import { makeWorkspace } from '../../src/runner/workspaces.js';
import type { Workspace } from '../../src/workspace/types.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';

const makeRepo = reposAfterEach();
const execShell = async (command: string, cwd: string, env: Record<string, string | undefined>) => {
  const r = await shell(command, cwd, env);
  return { status: r.code, signal: r.signal, output: r.output };
};
const cleanups = cleanupAfterEach();

// Appends a line to the counter, creates a generated executable, rewrites one file and deletes another.
const COMMAND = 'echo ran >> "$COUNTER"; printf "gen\\n" > gen.sh; chmod +x gen.sh; printf "b2\\n" > b.txt; rm c.txt';

async function setup() {
  const t = await makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  const outside = mkdtempSync(join(tmpdir(), 'scion-counter-'));
  cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
  const counter = join(outside, 'count');
  const repo = await openRepo(t.dir);
  cleanups.push(() => closeRepo(repo));
  const base = (await resolveCommit(repo, 'HEAD'))!;
  const baseTree = await treeOfCommit(repo, base);
  const entries = new Map((await listTree(repo, baseTree)).map((e) => [e.path, e]));
  let n = 0;
  const workspace = async (): Promise<Workspace> => {
    const id = `scion-test-${++n}`;
    const making = await makeWorkspace(repo, { base, entries, needsDisk: true, keep: false, dryRun: false, id, branch: `scion/${id}`, job: id });
    if (!making.ok) throw new Error(making.error.message);
    const made = making.value;
    cleanups.push(() => made.ws.dispose(false));
    return made.ws;
  };
  const runs = () => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);
  const cache = (noRead = false) => new StepCache({ repo, dir: stepCacheDir(repo.commonDir), readOnly: false, noRead });
  const run = (ws: Workspace, c: StepCache | null, tree = baseTree) =>
    cachedCommand({
      cache: c,
      kind: 'run',
      command: COMMAND,
      env: { PATH: process.env['PATH'], COUNTER: counter },
      baseTree: tree,
      ws,
      exec: () => execShell(COMMAND, ws.root!, { PATH: process.env['PATH'], COUNTER: counter }),
      record: (r) => r.status === 0,
      baseState: async (p) => {
        const e = entries.get(p);
        return e ? { bytes: await readBlob(repo, e.oid), mode: e.mode } : null;
      },
      withChanges: true,
      log: () => undefined,
    });
  const state = (ws: Workspace) => [...ws.changes()].map(([p, s]) => [p, s === null ? null : `${Buffer.from(s.bytes).toString()}${s.mode}`]).sort();
  return { t, repo, runs, cache, run, workspace, state, baseTree, counter };
}

describe('cachedCommand', () => {
  it('hit: replays the recorded changes (content, mode, deletion) without running the command', async () => {
    const s = await setup();
    const ws1 = await s.workspace();
    expect(await s.run(ws1, s.cache())).toMatchObject({ status: 0, cached: false });
    expect(s.runs()).toBe(1);
    const first = s.state(ws1);
    expect(first).toEqual([
      ['b.txt', 'b2\n100644'],
      ['c.txt', null],
      ['gen.sh', 'gen\n100755'],
    ]);

    const ws2 = await s.workspace();
    expect(await s.run(ws2, s.cache())).toMatchObject({ status: 0, cached: true });
    expect(s.runs()).toBe(1);
    expect(s.state(ws2)).toEqual(first);
    expect(statSync(join(ws2.root!, 'gen.sh')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(ws2.root!, 'c.txt'))).toBe(false);
    s.t.git('fsck', '--strict');
  });

  it('miss after a base change, miss after an input change, and no cache runs every time', async () => {
    const s = await setup();
    await s.run(await s.workspace(), s.cache());
    expect(s.runs()).toBe(1);
    // Another base tree.
    await s.run(await s.workspace(), s.cache(), 'f'.repeat(40));
    expect(s.runs()).toBe(2);
    // An earlier step changed a file the command could read.
    const ws = await s.workspace();
    await ws.write('a.txt', Buffer.from('a changed\n'));
    expect(await s.run(ws, s.cache())).toMatchObject({ cached: false });
    expect(s.runs()).toBe(3);
    // --no-cache: runs although an entry exists.
    expect(await s.run(await s.workspace(), s.cache(true))).toMatchObject({ cached: false });
    expect(s.runs()).toBe(4);
    // No cache at all.
    await s.run(await s.workspace(), null);
    expect(s.runs()).toBe(5);
    // And the first entry still answers.
    expect(await s.run(await s.workspace(), s.cache())).toMatchObject({ cached: true });
    expect(s.runs()).toBe(5);
  });

  it('a failing command is not recorded', async () => {
    const s = await setup();
    const ws = await s.workspace();
    const failing = () =>
      cachedCommand({
        cache: s.cache(),
        kind: 'run',
        command: 'echo ran >> "$COUNTER"; exit 3',
        env: {},
        baseTree: s.baseTree,
        ws,
        exec: () => execShell('echo ran >> "$COUNTER"; exit 3', ws.root!, { COUNTER: s.counter }),
        record: (r) => r.status === 0,
        baseState: async () => null,
        withChanges: true,
        log: () => undefined,
      });
    expect(await failing()).toMatchObject({ status: 3, cached: false });
    expect(await failing()).toMatchObject({ status: 3, cached: false });
    expect(s.runs()).toBe(2);
  });

  it('stores no secret of the command’s environment (the run’s or the step’s own env): masked on disk and in the replay', async () => {
    const s = await setup();
    const TOKEN = 'ghs_cacheLeakToken1234';
    const STEP_SECRET = 'step-secret-value-5678';
    const command = 'echo "token=$GITHUB_TOKEN step=$DEPLOY_PASSWORD" ; echo ran >> "$COUNTER"';
    const env = { PATH: process.env['PATH'], COUNTER: s.counter, GITHUB_TOKEN: TOKEN };
    const stepEnv = { DEPLOY_PASSWORD: STEP_SECRET };
    const go = (ws: Workspace) =>
      cachedCommand({
        cache: s.cache(),
        kind: 'run',
        command,
        env,
        stepEnv,
        baseTree: s.baseTree,
        ws,
        exec: () => execShell(command, ws.root!, { ...env, ...stepEnv }),
        record: (r) => r.status === 0,
        baseState: async () => null,
        withChanges: true,
        log: () => undefined,
      });
    const first = await go(await s.workspace());
    expect(first).toMatchObject({ status: 0, cached: false });
    expect(first.output).toBe('token=*** step=***\n');
    const dir = stepCacheDir(s.repo.commonDir);
    const stored = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    expect(stored).toContain('token=*** step=***');
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain(STEP_SECRET);

    const again = await go(await s.workspace());
    expect(again).toMatchObject({ status: 0, cached: true, output: 'token=*** step=***\n' });
    expect(s.runs()).toBe(1);
  });
});
