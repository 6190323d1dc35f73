// kill -9 at random moments of a real run, under real load, and after each kill a rerun through the
// CLI converges. The load: a process burning a core, and native `git repack -a -d` / `git gc` in a
// loop on the same repository (packing refs, rewriting packs and reflogs under scion). The kill
// moments, drawn from a seeded random source: anywhere in the job phase, at the start of the k-th
// ref update (when scion writes a ref lock's owner file), and during the worktree job's checkout
// (after its admin folder appears). After each kill, before the rerun: every scion branch is absent
// or holds the tree a clean run gives, and fsck --strict is clean. After the rerun: every job ends
// changed or unchanged (never `locked`), the branches hold a clean run's trees, and no job lock, ref
// lock (nor any other `.lock`), owner record, kept pack of a dead run, temporary pack or worktree
// is left.
//
// `npm test` loops SCION_KILL_LOOPS times (default 3: one of each kind of moment) over
// SCION_KILL_JOBS object jobs (default 16) and one worktree job. A soak sets more
// (SCION_KILL_LOOPS=40 SCION_KILL_JOBS=200); SCION_KILL_SEED draws the same moments again.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitEnv, gitRepo, runGit, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { spawnScion } from '../support/spawn-cli.js';
import { exited } from '../support/processes.js';

const LOOPS = Number(process.env['SCION_KILL_LOOPS'] ?? 3);
const DIRS = Number(process.env['SCION_KILL_JOBS'] ?? 16);
const SEED = Number(process.env['SCION_KILL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
// Files every job's base holds, so the worktree job's checkout has something to write.
const FILLER = 300;
const pad = (i: number) => String(i).padStart(String(DIRS - 1).length, '0');
// Object-level jobs (one ref lock each), and a job in a worktree (a run step) beside them.
const OBJECTS = recipeFile('name: objs\njobs:\n  - each: "d*"\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n');
const DISK = recipeFile(
  [
    'name: disk',
    `files: { include: ["d${pad(0)}/**"] }`,
    'steps:',
    '  - replace: { old_string: "const a", new_string: "var a" }',
    `  - run: "printf ran > d${pad(0)}/ran.txt"`,
    '',
  ].join('\n'),
);

let base: TestRepo;
let expected: Map<string, string>;
let phaseMs: number;
let burner: ChildProcess | null = null;

/** mulberry32: the same draws for the same seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each scion branch and its tree. */
function branches(dir: string): Map<string, string> {
  const lines = runGit(dir, 'for-each-ref', '--format=%(refname) %(tree)', 'refs/heads/scion').split('\n').filter(Boolean);
  return new Map(lines.map((l) => l.split(' ') as [string, string]));
}

function files(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

/** What a converged repository must not hold: scion's locks and records, and any git lock. */
function leftovers(dir: string): string[] {
  const git = join(dir, '.git');
  const pack = join(git, 'objects', 'pack');
  return [
    ...files(join(git, 'scion', 'locks')).map((f) => `job lock ${f}`),
    ...files(join(git, 'scion', 'ref-locks')).map((f) => `ref-lock record ${f}`),
    ...files(git)
      .filter((f) => f.endsWith('.lock'))
      .map((f) => `lock ${f}`),
    // A kept pack is scion's only while a job moves its ref; a temporary one is a write cut short.
    ...files(pack)
      .filter((f) => f.endsWith('.keep') || f.startsWith('.tmp-'))
      .map((f) => `pack file ${f}`),
    ...files(join(git, 'worktrees')).map((f) => `worktree admin ${f}`),
    ...files(join(git, 'scion-worktrees')).map((f) => `worktree folder ${f}`),
  ];
}

function copyOf(r: TestRepo): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'scion-killloop-')), 'repo');
  cpSync(r.dir, dir, { recursive: true });
  return dir;
}

/** The folders a kill's moment is watched in, made before scion makes them (it takes them as they are). */
function watchable(dir: string): void {
  mkdirSync(join(dir, '.git', 'scion', 'ref-locks'), { recursive: true });
  mkdirSync(join(dir, '.git', 'scion-worktrees'), { recursive: true });
}

/** Native git maintenance on `dir` in a loop until stopped; stopping lets the command under way finish. */
function gitLoad(dir: string): { stop: () => Promise<void> } {
  const stopFile = join(dir, '..', 'stop-load');
  rmSync(stopFile, { force: true });
  const loop = 'while [ ! -e "$1" ]; do git -C "$2" repack -a -d -q; [ -e "$1" ] || git -C "$2" gc -q; done';
  const child = spawn('sh', ['-c', loop, 'load', stopFile, dir], { stdio: 'ignore', env: gitEnv() });
  return {
    stop: async () => {
      writeFileSync(stopFile, '');
      await exited(child);
    },
  };
}

/** Runs `fn` with the git load beside it. */
async function underLoad<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const load = gitLoad(dir);
  try {
    return await fn();
  } finally {
    await load.stop();
  }
}

type Moment = { kind: 'anywhere'; afterMs: number } | { kind: 'ref-update'; nth: number } | { kind: 'checkout'; afterMs: number };

/** Kills `child` at `moment`; resolves with whether the kill came before the run ended by itself. */
function killAt(child: ChildProcess, dir: string, moment: Moment, started: Promise<void>): Promise<boolean> {
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const kill = () => child.kill('SIGKILL');
  if (moment.kind === 'anywhere') void started.then(() => (timer = setTimeout(kill, moment.afterMs)));
  else if (moment.kind === 'ref-update') {
    // Each ref update starts by writing its lock's owner record (ref-lock.ts): the nth such file.
    const seen = new Set<string>();
    watchers.push(
      watch(join(dir, '.git', 'scion', 'ref-locks'), (_event, name) => {
        if (name === null || name.startsWith('aside~') || seen.has(name)) return;
        seen.add(name);
        if (seen.size === moment.nth) kill();
      }),
    );
  } else {
    // The worktree's folder is made first, then its admin folder, the files, the index (worktree-add.ts).
    watchers.push(
      watch(join(dir, '.git', 'scion-worktrees'), () => {
        if (timer === undefined) timer = setTimeout(kill, moment.afterMs);
      }),
    );
  }
  return exited(child).then((how) => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
    return how === 'SIGKILL';
  });
}

beforeAll(async () => {
  const content: Record<string, string> = {};
  for (let i = 0; i < DIRS; i++) content[`d${pad(i)}/f.ts`] = `const a = ${i};\n`;
  for (let i = 0; i < FILLER; i++) content[`lib/f${i}.ts`] = `export const f${i} = ${i};\n`;
  base = await gitRepo(content);
  // The load: a process that keeps a core busy while scion runs and is killed, and git maintenance.
  burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  // A clean run under that load, as a process: the branches to converge to, and about how long its
  // job phase lasts (from the line announcing the jobs to the exit).
  const dir = copyOf(base);
  const res = await underLoad(dir, async () => {
    const cli = spawnScion(['run', OBJECTS, DISK, '--repo', dir], { cwd: dir });
    await cli.waitFor(/scion: \d+ jobs/);
    const started = Date.now();
    const done = await cli.done;
    phaseMs = Date.now() - started;
    return done;
  });
  expect(res.code, res.stderr).toBe(0);
  expected = branches(dir);
  expect(expected.size).toBe(DIRS + 1);
  rmSync(join(dir, '..'), { recursive: true, force: true });
}, 600_000);

afterAll(async () => {
  burner?.kill('SIGKILL');
  await base?.cleanup();
});

describe('kill -9 at random moments of a run, under load: every rerun converges', () => {
  it(`${LOOPS} kills (seed ${SEED}), each followed by a rerun`, async () => {
    const draw = random(SEED);
    const dir = copyOf(base);
    const tally = { killed: 0, inRefUpdate: 0, inCheckout: 0, endedFirst: 0 };
    try {
      for (let i = 0; i < LOOPS; i++) {
        // The branches of the previous round go, so each killed run has refs to write.
        for (const ref of branches(dir).keys()) runGit(dir, 'update-ref', '-d', ref);
        const kinds = ['anywhere', 'ref-update', 'checkout'] as const;
        const kind = kinds[i % kinds.length]!;
        const moment: Moment =
          kind === 'anywhere'
            ? { kind, afterMs: Math.round(draw() * phaseMs) }
            : kind === 'ref-update'
              ? { kind, nth: 1 + Math.floor(draw() * (DIRS + 1)) }
              : { kind, afterMs: Math.round(draw() * 40) };
        const where = { round: i, seed: SEED, moment };
        watchable(dir);

        const killed = await underLoad(dir, async () => {
          const cli = spawnScion(['run', OBJECTS, DISK, '--repo', dir], { cwd: dir });
          const started = cli.waitFor(/scion: \d+ jobs/).catch(() => undefined);
          return killAt(cli.child, dir, moment, started);
        });
        // Right after the kill, whatever it cut short: each branch absent or whole, the objects sound.
        const left = leftovers(dir);
        if (killed) tally.killed++;
        else tally.endedFirst++;
        if (left.some((l) => l.startsWith('ref-lock record'))) tally.inRefUpdate++;
        if (existsSync(join(dir, '.git', 'worktrees', 'scion-disk')) && !existsSync(join(dir, '.git', 'worktrees', 'scion-disk', 'index'))) tally.inCheckout++;
        // A git command that fails (an object gone) says the round, the seed and the moment too.
        const checked = <T>(what: string, fn: () => T): T => {
          try {
            return fn();
          } catch (e) {
            throw new Error(`${JSON.stringify(where)} ${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
          }
        };
        const torn = checked('after the kill', () => [...branches(dir)].filter(([ref, tree]) => expected.get(ref) !== tree));
        expect({ ...where, torn }).toEqual({ ...where, torn: [] });
        checked('after the kill', () => runGit(dir, 'fsck', '--strict'));

        const res = await underLoad(dir, () => scion(['run', OBJECTS, DISK, '--repo', dir, '--json'], { cwd: dir }));
        const report = res.stdout === '' ? null : (JSON.parse(res.stdout) as RunReport);
        const failed = (report?.jobs ?? [])
          .filter((j) => j.status === 'failed')
          .map((j) => `${j.recipe}/${j.name}: ${j.errors.map((e) => `${e.kind} ${e.message}`).join('; ')}`);
        // The round, the seed and the moment go with a failure, to find it again.
        expect({ ...where, code: res.code, failed, stderr: res.stderr }).toEqual({
          ...where,
          code: 0,
          failed: [],
          stderr: expect.not.stringContaining('internal error'),
        });
        expect({ ...where, branches: checked('after the rerun', () => branches(dir)) }).toEqual({ ...where, branches: expected });
        expect({ ...where, left: leftovers(dir) }).toEqual({ ...where, left: [] });
        expect(runGit(dir, 'worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
        expect(runGit(dir, 'status', '--porcelain')).toBe('');
        checked('after the rerun', () => runGit(dir, 'fsck', '--strict'));
      }
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
      console.log(`kill loop: seed ${SEED}, ${LOOPS} rounds, ${DIRS + 1} jobs: ${JSON.stringify(tally)}`);
    }
  }, 3_600_000);
});
