// The rerun rules of scheduled jobs, judged by native git.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

const RECIPE = 'name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n';

async function setup() {
  const r = await gitRepo({ 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n' });
  cleanups.push(r.cleanup);
  const recipe = recipeFile(RECIPE);
  const run = async (...extra: string[]) => {
    const res = await scion(['run', recipe, '--repo', r.dir, '--json', ...extra], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    return { code: res.code, report: JSON.parse(res.stdout) as RunReport };
  };
  return { r, run };
}

describe('reruns', () => {
  it('a rerun with nothing new is unchanged and writes no ref', async () => {
    const { r, run } = await setup();
    const first = await run();
    expect(first.report.jobs[0]!.status).toBe('changed');
    const head = r.git('rev-parse', 'scion/bump');
    const refFile = r.git('rev-parse', '--git-path', 'refs/heads/scion/bump');
    const second = await run();
    expect(second.code).toBe(0);
    expect(second.report.jobs[0]!.status).toBe('unchanged');
    expect(second.report.jobs[0]!.head).toBe(head);
    expect(r.git('rev-parse', 'scion/bump')).toBe(head);
    expect(refFile).toBeTruthy();
  });

  it('rewrites its own branch when the base moved', async () => {
    const { r, run } = await setup();
    await run();
    writeFileSync(join(r.dir, 'c.txt'), 'new v1 file\n');
    r.git('add', 'c.txt');
    r.git('commit', '-qm', 'more');
    const newBase = r.head();
    const again = await run();
    expect(again.report.jobs[0]!.status).toBe('changed');
    expect(r.git('rev-parse', 'scion/bump^')).toBe(newBase);
    expect(r.git('show', 'scion/bump:c.txt')).toBe('new v2 file');
    r.git('fsck', '--strict');
  });

  it("protects a human's commit on the branch, and --force overrides", async () => {
    const { r, run } = await setup();
    await run();
    const tree = r.git('rev-parse', 'scion/bump^{tree}');
    const human = r.git('commit-tree', tree, '-p', 'scion/bump', '-m', 'fixup by a reviewer');
    r.git('update-ref', 'refs/heads/scion/bump', human);

    const refused = await run();
    expect(refused.code).toBe(1);
    const job = refused.report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => e.kind)).toEqual(['branch-diverged']);
    expect(job.head).toBeNull();
    expect(r.git('rev-parse', 'scion/bump')).toBe(human);

    const forced = await run('--force');
    expect(forced.code).toBe(0);
    expect(forced.report.jobs[0]!.status).toBe('changed');
    expect(r.git('rev-parse', 'scion/bump^')).toBe(r.head());
  });

  it("never overwrites a branch scion never wrote (a user's release), --force or not", async () => {
    const r = await gitRepo({ 'a.txt': 'uses v1\n' });
    cleanups.push(r.cleanup);
    r.git('branch', 'release');
    r.git('commit', '-q', '--allow-empty', '-m', 'release notes');
    r.git('branch', '-f', 'release', 'HEAD');
    const mine = r.git('rev-parse', 'release');
    const recipe = recipeFile(`${RECIPE}branch: release\n`.replace('name: bump\n', 'name: bump\n'));
    for (const extra of [[], ['--force']]) {
      const res = await scion(['run', recipe, '--repo', r.dir, '--json', ...extra], { cwd: r.dir });
      expect(res.code).toBe(1);
      const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
      expect(job.errors.map((e) => e.kind)).toEqual(['branch-diverged']);
      expect(job.errors[0]!.message).toContain('scion never overwrites it');
      expect(job.errors[0]!.hint).not.toContain('--force');
      expect(r.git('rev-parse', 'release')).toBe(mine);
    }
    // The human summary gives the advice that fits, not --force.
    const human = await scion(['run', recipe, '--repo', r.dir, '--force'], { cwd: r.dir });
    expect(human.stdout).toContain("change the recipe's `branch`");
    expect(r.git('reflog', 'show', '--format=%gs', 'release').split('\n')).not.toContain(expect.stringContaining('scion'));
  });

  it('a ref in the way of the branch (scion/r when writing scion/r/a) fails with advice that is not --force', async () => {
    const r = await gitRepo({ 'a/x.txt': 'v1\n', 'b/x.txt': 'v1\n' });
    cleanups.push(r.cleanup);
    r.git('branch', 'scion/r');
    const recipe = recipeFile('name: r\njobs: [{ each: "*" }]\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json', '--force'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.errors.map((e) => e.kind)).toEqual(['branch-diverged']);
    expect(job.errors[0]!.hint).toMatch(/Another ref is in the way.*--force does not change this/);
    r.git('fsck', '--strict');
  });

  it('a job with no change is empty and writes no ref; an edit already merged is skipped', async () => {
    const r = await gitRepo({ 'a.txt': 'uses v2\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile('name: merged\nsteps:\n  - edit:\n      file: a.txt\n      edits: [{ old_string: "uses v1", new_string: "uses v2" }]\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('empty');
    expect(job.head).toBeNull();
    expect(job.skipped).toEqual([{ step: 0, file: 'a.txt', reason: 'already-applied' }]);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });
});

describe('a branch someone has checked out', () => {
  it('is never moved under them', async () => {
    const { r, run } = await setup();
    await run();
    const wt = `${r.dir}-review`;
    r.git('worktree', 'add', '-q', wt, 'scion/bump');
    cleanups.push(async () => {
      r.git('worktree', 'remove', '--force', wt);
    });
    const head = r.git('rev-parse', 'scion/bump');
    writeFileSync(join(r.dir, 'c.txt'), 'v1 again\n');
    r.git('add', 'c.txt');
    r.git('commit', '-qm', 'base moves');
    const res = await run();
    expect(res.code).toBe(1);
    expect(res.report.jobs[0]!.errors[0]).toMatchObject({ kind: 'branch-diverged' });
    expect(res.report.jobs[0]!.errors[0]!.message).toContain(wt);
    expect(r.git('rev-parse', 'scion/bump')).toBe(head);
    expect(r.git('-C', wt, 'status', '--porcelain')).toBe('');
  });
});
