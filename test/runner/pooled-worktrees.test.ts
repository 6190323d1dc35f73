// The run's shared worktrees under faults: killed with SIGKILL while a job uses a worktree an
// earlier job gave back, the run leaves a worktree locked by a dead owner; `scion worktrees` calls it
// stale, and the next run clears it and converges (every job changed or unchanged, no worktree, job
// lock or folder left, fsck --strict clean). Interrupted (SIGINT) the same way, the run removes it itself.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';
import { linkedWorktrees, nothingLeft, pkgFiles, pkgRecipe, runPkgs, scionLeftovers } from '../support/pkg-jobs.js';
import { exited, isAlive, killGroup, pidsIn, spawnScion, waitFor } from '../support/processes.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const JOBS = ['p0', 'p1', 'p2'];

async function setup(): Promise<{ r: TestRepo; dir: string; recipe: string }> {
  const r = await repo(pkgFiles(JOBS));
  const dir = mkdtempSync(join(tmpdir(), 'scion-pool-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // The second job blocks in its verify (in the worktree the first job gave back) until `fast` exists.
  const block = `if [ "$SCION_JOB" = p1 ] && [ ! -f ${dir}/fast ]; then echo $$ > ${dir}/sh.pid; sleep 30; fi`;
  const recipe = pkgRecipe('pooled', { verify: [`mkdir -p build && touch build/$SCION_JOB && ${block}`] });
  return { r, dir, recipe };
}

/** `others`: worktrees that are not scion's, expected to stay listed. */
async function converges(r: TestRepo, recipe: string, others: readonly string[] = []): Promise<void> {
  const res = await runPkgs(r, recipe, ['--concurrency', '1']);
  expect(res.code, res.stderr).toBe(0);
  expect([...res.jobs.values()].every((j) => j.status === 'changed' || j.status === 'unchanged')).toBe(true);
  for (const j of JOBS) expect(r.git('show', `scion/pooled/${j}:pkgs/${j}/index.ts`)).toBe(`modern(${j});`);
  nothingLeft(r, others);
  r.git('fsck', '--strict');
}

describe('shared worktrees under faults', () => {
  it('kill -9 while a job verifies in a reused worktree: shown stale, then the rerun clears it and converges', async () => {
    const { r, dir, recipe } = await setup();
    const child = spawnScion(['run', recipe, '--repo', r.dir, '--concurrency', '1'], r.dir);
    const [sh] = await pidsIn(dir, ['sh.pid']);
    // Native git lists the worktree while the job runs, locked by the run.
    const listed = r.git('worktree', 'list', '--porcelain');
    expect(listed).toContain('scion-worktrees/scion-__pool-');
    expect(listed).toContain(`locked scion pid=${child.pid} `);
    child.kill('SIGKILL');
    expect(await exited(child)).toBe('SIGKILL');
    killGroup(sh!);
    await waitFor(() => !isAlive(sh!));

    const shown = await scion(['worktrees', '--repo', r.dir], { cwd: r.dir });
    expect(shown.stdout).toContain('stale');
    expect(shown.stdout).not.toContain('running');
    writeFileSync(join(dir, 'fast'), '');
    await converges(r, recipe);
  }, 90_000);

  it('a worktree named like a pooled one but outside scion-worktrees survives a run, its files and git’s record of it', async () => {
    const { r, dir, recipe } = await setup();
    writeFileSync(join(dir, 'fast'), '');
    // Made by hand (or left by a repository that moved): git lists it under a pool's id, unlocked,
    // its .git file pointing back at that admin folder.
    const away = join(dir, 'elsewhere', 'scion-__pool-1-x-0000beef');
    r.git('worktree', 'add', '-q', '--detach', away);
    writeFileSync(join(away, 'mine.txt'), 'work in progress\n');
    await converges(r, recipe, [away]);
    expect(readFileSync(join(away, 'mine.txt'), 'utf8')).toBe('work in progress\n');
    expect(readFileSync(join(away, 'pkgs/p0/index.ts'), 'utf8')).toBe('legacy(p0);\n');
  }, 90_000);

  it('a reused worktree gets its new owner line by a rename: the marker a reader opened before stays whole', async () => {
    const { r, dir } = await setup();
    // Each job's verify links the marker it sees (git's `locked` file in the worktree's admin folder)
    // to a name of its own: a rewrite in place would change what the earlier link holds.
    const recipe = pkgRecipe('marker', { verify: [`ln "$(git rev-parse --git-dir)/locked" ${dir}/marker-$SCION_JOB`] });
    const res = await runPkgs(r, recipe, ['--concurrency', '1']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.lines('reusing a worktree of the base')).toHaveLength(2);
    for (const j of JOBS) {
      expect(readFileSync(join(dir, `marker-${j}`), 'utf8')).toMatch(new RegExp(`^scion pid=\\d+ start=\\S+ host=\\S+ job=marker/${j}\n$`));
    }
  }, 90_000);

  it('SIGINT while a job verifies in a reused worktree: exit 130, and the run leaves no worktree behind', async () => {
    const { r, dir, recipe } = await setup();
    const child = spawnScion(['run', recipe, '--repo', r.dir, '--concurrency', '1'], r.dir);
    await pidsIn(dir, ['sh.pid']);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(130);
    expect(linkedWorktrees(r)).toEqual([]);
    expect(scionLeftovers(r)).toEqual([]);
    writeFileSync(join(dir, 'fast'), '');
    await converges(r, recipe);
  }, 90_000);
});
