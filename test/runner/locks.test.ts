// One lock per job (branch + worktree) holding pid and start time. A run killed with
// SIGKILL at any moment leaves nothing that blocks the next one; two live runs of one recipe: one
// works, the other's job ends `locked`, naming the first one's pid. Judged by native git.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

async function setup(files = 3) {
  const tree: Record<string, string> = { 'src/a.ts': 'const a = 1;\n' };
  for (let i = 0; i < files; i++) tree[`src/gen/f${i}.ts`] = `export const v${i} = ${i};\n`;
  const r = await gitRepo(tree);
  cleanups.push(r.cleanup);
  const dir = mkdtempSync(join(tmpdir(), 'scion-kill-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { r, dir };
}

/** A command that blocks (recording its shell's pid) until `dir/fast` exists. */
const blocking = (dir: string) => `if [ -f ${dir}/fast ]; then :; else echo $$ > ${dir}/sh.pid; sleep 30; fi`;

function lockFiles(r: TestRepo): string[] {
  const d = join(r.dir, '.git', 'scion', 'locks');
  return existsSync(d) ? readdirSync(d) : [];
}

function worktreeCount(r: TestRepo): number {
  return r.git('worktree', 'list', '--porcelain').split('\n\n').length;
}

async function converges(r: TestRepo, recipe: string, dir: string, branch: string) {
  writeFileSync(join(dir, 'fast'), '');
  const listed = await scion(['worktrees', '--repo', r.dir], { cwd: r.dir });
  expect(listed.stdout).not.toContain('running');
  const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
  expect(res.stderr).not.toContain('internal error');
  expect(res.code).toBe(0);
  expect((JSON.parse(res.stdout) as RunReport).jobs.map((j) => j.status)).toEqual(['changed']);
  expect(r.git('show', `${branch}:src/a.ts`)).toBe('let a = 1;');
  expect(worktreeCount(r)).toBe(1);
  expect(lockFiles(r)).toEqual([]);
  r.git('worktree', 'prune');
  expect(worktreeCount(r)).toBe(1);
  r.git('fsck', '--strict');
}

describe('kill -9 at several moments of a worktree job, then a rerun converges', () => {
  const moments: Record<string, { recipe: (dir: string) => string; files?: number; when: (r: TestRepo, dir: string) => Promise<void> }> = {
    'while the run step runs': {
      recipe: (dir) => `steps:\n  - replace: { old_string: "const a", new_string: "let a" }\n  - run: "${blocking(dir)}"\n`,
      when: async (_r, dir) => void (await pidsIn(dir, ['sh.pid'])),
    },
    'while verify runs': {
      recipe: (dir) => `steps:\n  - replace: { old_string: "const a", new_string: "let a" }\nverify:\n  - run: "${blocking(dir)}"\n`,
      when: async (_r, dir) => void (await pidsIn(dir, ['sh.pid'])),
    },
    'as soon as the job lock is taken': {
      recipe: (dir) => `steps:\n  - replace: { old_string: "const a", new_string: "let a" }\n  - run: "${blocking(dir)}"\n`,
      when: async (r) => waitFor(() => lockFiles(r).length > 0, 60_000),
    },
    'while the worktree is being made': {
      files: 400,
      recipe: (dir) => `steps:\n  - replace: { old_string: "const a", new_string: "let a" }\n  - run: "${blocking(dir)}"\n`,
      when: async (r) => waitFor(() => existsSync(join(r.dir, '.git', 'worktrees')) && readdirSync(join(r.dir, '.git', 'worktrees')).length > 0, 60_000),
    },
  };
  for (const [name, m] of Object.entries(moments)) {
    it(
      name,
      async () => {
        const { r, dir } = await setup(m.files);
        const recipe = recipeFile(`name: killed\n${m.recipe(dir)}`);
        const child = spawnScion(['run', recipe, '--repo', r.dir], r.dir);
        try {
          await m.when(r, dir);
        } finally {
          child.kill('SIGKILL');
        }
        expect(await exited(child)).toBe('SIGKILL');
        // kill -9 cannot end the command's own process group; a real user's shell would leave it too.
        if (existsSync(join(dir, 'sh.pid'))) {
          const [sh] = await pidsIn(dir, ['sh.pid']);
          killGroup(sh!);
          await waitFor(() => !isAlive(sh!));
        }
        await converges(r, recipe, dir, 'scion/killed');
      },
      90_000,
    );
  }

  it('scion worktrees shows a dead job as stale, not running; --prune clears its worktree and lock', async () => {
    const { r, dir } = await setup();
    const recipe = recipeFile(`name: pruned\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n  - run: "${blocking(dir)}"\n`);
    const child = spawnScion(['run', recipe, '--repo', r.dir], r.dir);
    const [sh] = await pidsIn(dir, ['sh.pid']);
    const live = await scion(['worktrees', '--repo', r.dir], { cwd: r.dir });
    expect(live.stdout).toContain('running');
    expect(live.stdout).toContain(`pid ${child.pid}`);
    child.kill('SIGKILL');
    await exited(child);
    killGroup(sh!);

    const listed = await scion(['worktrees', '--repo', r.dir], { cwd: r.dir });
    expect(listed.stdout).toContain('stale');
    expect(listed.stdout).not.toContain('running');
    // Native git still sees git's `locked` marker of the dead job…
    expect(r.git('worktree', 'list', '--porcelain')).toContain('locked scion pid=');
    const pruned = await scion(['worktrees', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('removed');
    // …and after --prune, nothing is left: no worktree, no lock.
    expect(worktreeCount(r)).toBe(1);
    expect(lockFiles(r)).toEqual([]);
    r.git('fsck', '--strict');
  }, 90_000);
});

describe('two runs of the same recipe at once', () => {
  it('one does the work; the other ends with kind locked, naming the first run’s pid', async () => {
    const { r, dir } = await setup();
    const recipe = recipeFile(`name: twice
steps:
  - replace: { old_string: "const a", new_string: "let a" }
  - run: "echo $$ > ${dir}/sh.pid; while [ ! -f ${dir}/go ]; do sleep 0.05; done"
`);
    const first = spawnScion(['run', recipe, '--repo', r.dir], r.dir);
    await pidsIn(dir, ['sh.pid']);
    const second = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    writeFileSync(join(dir, 'go'), '');
    expect(await exited(first)).toBe(0);

    expect(second.stderr).not.toContain('internal error');
    expect(second.code).toBe(1);
    const job = (JSON.parse(second.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.head).toBeNull();
    expect(job.errors.map((e) => e.kind)).toEqual(['locked']);
    expect(job.errors[0]!.message).toContain(`pid ${first.pid}`);

    expect(r.git('show', 'scion/twice:src/a.ts')).toBe('let a = 1;');
    expect(r.git('rev-list', '--count', 'main..scion/twice')).toBe('1');
    expect(worktreeCount(r)).toBe(1);
    expect(lockFiles(r)).toEqual([]);
    r.git('fsck', '--strict');
  }, 90_000);
});
