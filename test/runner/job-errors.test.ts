// What one job meets fails that job, not the run: a damaged object only one job reads, a job's
// branch held by a checkout elsewhere. The other jobs go on, the report is written with the failed
// job's kind, and the CLI exits 1. Judged through the CLI and native git.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { pkgFiles, pkgRecipe, runPkgs } from '../support/pkg-jobs.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

describe('an error one job meets', () => {
  it('a damaged object only one job reads: that job fails with kind environment, the others commit, the report is written', async () => {
    const r = await repo(pkgFiles(['p0', 'p1', 'p2']));
    // The loose object of p1's file, made unreadable.
    const oid = r.git('rev-parse', 'HEAD:pkgs/p1/index.ts');
    const object = join(r.dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
    chmodSync(object, 0o644);
    writeFileSync(object, 'not zlib data');

    const res = await runPkgs(r, pkgRecipe('one'), ['--concurrency', '1']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.jobs.get('p1')).toMatchObject({ status: 'failed', head: null, errors: [{ kind: 'environment', message: expect.stringContaining(oid) }] });
    for (const j of ['p0', 'p2']) {
      expect(res.jobs.get(j)?.status).toBe('changed');
      expect(r.git('show', `scion/one/${j}:pkgs/${j}/index.ts`)).toBe(`modern(${j});`);
    }
    expect(r.git('branch', '--list', 'scion/one/p1')).toBe('');
  });

  it("a job whose branch is checked out elsewhere cannot keep its worktree there: that job fails with kind locked, the others don't", async () => {
    const r = await repo(pkgFiles(['p0', 'p1']));
    const recipe = pkgRecipe('one');
    const first = await runPkgs(r, recipe);
    expect(first.code, first.stderr).toBe(0);
    // Someone works on p1's branch in a worktree of their own.
    const dir = mkdtempSync(join(tmpdir(), 'scion-job-errors-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const theirs = join(dir, 'theirs');
    r.git('worktree', 'add', '-q', theirs, 'scion/one/p1');

    const res = await runPkgs(r, recipe, ['--concurrency', '1', '--keep-worktrees']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.jobs.get('p1')).toMatchObject({ status: 'failed', errors: [{ kind: 'locked', message: expect.stringContaining(theirs) }] });
    expect(res.jobs.get('p0')).toMatchObject({ status: 'unchanged', worktree: expect.any(String) });
    expect(r.git('-C', theirs, 'status', '--porcelain')).toBe('');
    expect(r.git('-C', theirs, 'symbolic-ref', 'HEAD')).toBe('refs/heads/scion/one/p1');
    r.git('fsck', '--strict');
  });
});
