// kill -9 at many points of a real run, under load (a busy process beside it), and after each kill a
// rerun through the CLI converges: every job ends changed or unchanged (never `locked`), the branches
// hold the same trees as a clean run's, fsck --strict is clean, and no worktree, job lock or ref lock
// is left. The kill points spread over the measured length of a clean run's job phase.
//
// `npm test` loops SCION_KILL_LOOPS times (default 5); a soak sets more (SCION_KILL_LOOPS=100).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo, runGit, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { spawnScion } from '../support/spawn-cli.js';
import { exited } from './processes.js';

const LOOPS = Number(process.env['SCION_KILL_LOOPS'] ?? 5);
const DIRS = 16;
// Object-level jobs (one ref lock each), and a job in a worktree (a run step) beside them.
const OBJECTS = recipeFile('name: objs\njobs:\n  - each: "d*"\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n');
const DISK = recipeFile(
  'name: disk\nfiles: { include: ["d00/**"] }\nsteps:\n  - replace: { old_string: "const a", new_string: "var a" }\n  - run: "printf ran > d00/ran.txt"\n',
);

let base: TestRepo;
let expected: string;
let phaseMs: number;
let busy: ChildProcess[] = [];

/** Each scion branch with its tree: what a converged run must leave, whoever wrote the commits when. */
function branches(dir: string): string {
  return runGit(dir, 'for-each-ref', '--format=%(refname) %(tree)', 'refs/heads/scion');
}

function leftovers(dir: string): string[] {
  const git = join(dir, '.git');
  const locks = join(git, 'scion', 'locks');
  const records = join(git, 'scion', 'ref-locks');
  const refLocks = readdirSync(join(git, 'refs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.lock'));
  return [...(existsSync(locks) ? readdirSync(locks) : []), ...(existsSync(records) ? readdirSync(records) : []), ...refLocks];
}

function copyOf(r: TestRepo): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'scion-killloop-')), 'repo');
  cpSync(r.dir, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < DIRS; i++) files[`d${String(i).padStart(2, '0')}/f.ts`] = `const a = ${i};\n`;
  base = await gitRepo(files);
  // The load: a process that keeps a core busy while scion runs and is killed.
  busy = [spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })];
  // A clean run under that load: the branches to converge to, and about how long a run's jobs take.
  const dir = copyOf(base);
  const started = Date.now();
  const res = await scion(['run', OBJECTS, DISK, '--repo', dir], { cwd: dir });
  phaseMs = Date.now() - started;
  expect(res.code, res.stderr).toBe(0);
  expected = branches(dir);
  expect(expected.split('\n')).toHaveLength(DIRS + 1);
  rmSync(join(dir, '..'), { recursive: true, force: true });
}, 120_000);

afterAll(async () => {
  for (const b of busy) b.kill('SIGKILL');
  await base?.cleanup();
});

describe('kill -9 at many points of a run, under load: every rerun converges', () => {
  it(`${LOOPS} kills, each followed by a rerun`, async () => {
    const dir = copyOf(base);
    try {
      for (let i = 0; i < LOOPS; i++) {
        // The branches of the previous round go, so each killed run has refs to write.
        const refs = runGit(dir, 'for-each-ref', '--format=%(refname)', 'refs/heads/scion').split('\n').filter(Boolean);
        for (const ref of refs) runGit(dir, 'update-ref', '-d', ref);

        const cli = spawnScion(['run', OBJECTS, DISK, '--repo', dir], { cwd: dir });
        await cli.waitFor(/scion: \d+ jobs/).catch(() => undefined);
        // Spread over the job phase (a clean run's length), a little different in each round.
        const at = Math.round((phaseMs * (i + 0.5)) / LOOPS + ((i * 37) % 11));
        await new Promise((r) => setTimeout(r, at));
        cli.child.kill('SIGKILL');
        await exited(cli.child);

        const res = await scion(['run', OBJECTS, DISK, '--repo', dir, '--json'], { cwd: dir });
        const report = JSON.parse(res.stdout) as RunReport;
        const failed = report.jobs
          .filter((j) => j.status === 'failed')
          .map((j) => `${j.recipe}/${j.name}: ${j.errors.map((e) => `${e.kind} ${e.message}`).join('; ')}`);
        // The round and the kill's moment go with a failure, to find it again.
        const seen = { round: i, killedAtMs: at, failed, stderr: res.stderr };
        expect(seen).toEqual({ round: i, killedAtMs: at, failed: [], stderr: expect.not.stringContaining('internal error') });
        expect(res.code).toBe(0);
        expect(branches(dir)).toBe(expected);
        expect(leftovers(dir)).toEqual([]);
        expect(runGit(dir, 'worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
        expect(runGit(dir, 'status', '--porcelain')).toBe('');
        runGit(dir, 'fsck', '--strict');
      }
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  }, 600_000);
});
