// The run's shared worktrees under faults: killed with SIGKILL while a job uses a worktree an
// earlier job gave back, the run leaves a worktree locked by a dead owner; `scion worktrees` calls it
// stale, and the next run clears it and converges (every job changed or unchanged, no worktree, job
// lock or folder left, fsck --strict clean). Interrupted (SIGINT) the same way, the run removes it itself.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { exited, isAlive, killGroup, pidsIn, spawnScion, waitFor } from '../support/processes.js';

const cleanups = cleanupAfterEach();

async function setup(): Promise<{ r: TestRepo; dir: string; recipe: string }> {
  const files: Record<string, string> = { '.gitignore': 'build/\n' };
  for (const j of ['p0', 'p1', 'p2']) files[`pkgs/${j}/index.ts`] = `legacy(${j});\n`;
  const r = await gitRepo(files);
  cleanups.push(r.cleanup);
  const dir = mkdtempSync(join(tmpdir(), 'scion-pool-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // The second job blocks in its verify (in the worktree the first job gave back) until `fast` exists.
  const block = `if [ "$SCION_JOB" = p1 ] && [ ! -f ${dir}/fast ]; then echo $$ > ${dir}/sh.pid; sleep 30; fi`;
  const recipe = recipeFile(`name: pooled
jobs:
  - each: "pkgs/*"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: 'mkdir -p build && touch build/$SCION_JOB && ${block}'
`);
  return { r, dir, recipe };
}

function leftovers(r: TestRepo): string[] {
  const locks = join(r.dir, '.git', 'scion', 'locks');
  const folders = join(r.dir, '.git', 'scion-worktrees');
  return [...(existsSync(locks) ? readdirSync(locks) : []), ...(existsSync(folders) ? readdirSync(folders) : [])];
}

/** `others`: `worktree <path>` lines of worktrees that are not scion's, expected to stay listed. */
async function converges(r: TestRepo, recipe: string, others: readonly string[] = []): Promise<void> {
  const res = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1', '--json'], { cwd: r.dir });
  expect(res.stderr).not.toContain('internal error');
  expect(res.code, res.stderr).toBe(0);
  const statuses = (JSON.parse(res.stdout) as RunReport).jobs.map((j) => j.status);
  expect(statuses.every((s) => s === 'changed' || s === 'unchanged')).toBe(true);
  for (const j of ['p0', 'p1', 'p2']) expect(r.git('show', `scion/pooled/${j}:pkgs/${j}/index.ts`)).toBe(`modern(${j});`);
  const listed = r.git('worktree', 'list', '--porcelain').split('\n\n');
  expect(listed.map((w) => w.split('\n')[0]).slice(1)).toEqual(others);
  expect(leftovers(r)).toEqual([]);
  expect(r.git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe('');
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
    await converges(r, recipe, [`worktree ${away}`]);
    expect(readFileSync(join(away, 'mine.txt'), 'utf8')).toBe('work in progress\n');
    expect(readFileSync(join(away, 'pkgs/p0/index.ts'), 'utf8')).toBe('legacy(p0);\n');
  }, 90_000);

  it('a reused worktree gets its new owner line by a rename: the marker a reader opened before stays whole', async () => {
    const { r, dir } = await setup();
    // Each job's verify links the marker it sees (git's `locked` file in the worktree's admin folder)
    // to a name of its own: a rewrite in place would change what the earlier link holds.
    const recipe = recipeFile(`name: marker
jobs:
  - each: "pkgs/*"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: 'ln "$(git rev-parse --git-dir)/locked" ${dir}/marker-$SCION_JOB'
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1'], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.split('\n').filter((l) => l.includes('reusing a worktree of the base'))).toHaveLength(2);
    for (const j of ['p0', 'p1', 'p2']) {
      expect(readFileSync(join(dir, `marker-${j}`), 'utf8')).toMatch(new RegExp(`^scion pid=\\d+ start=\\S+ host=\\S+ job=marker/${j}\n$`));
    }
  }, 90_000);

  it('SIGINT while a job verifies in a reused worktree: exit 130, and the run leaves no worktree behind', async () => {
    const { r, dir, recipe } = await setup();
    const child = spawnScion(['run', recipe, '--repo', r.dir, '--concurrency', '1'], r.dir);
    await pidsIn(dir, ['sh.pid']);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(130);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    expect(leftovers(r)).toEqual([]);
    writeFileSync(join(dir, 'fast'), '');
    await converges(r, recipe);
  }, 90_000);
});
