// Clearing scion's worktrees never reaches outside its own folder: a worktree git lists under a name
// scion uses (a pool's or a job's id) whose folder is anywhere else keeps its folder and files,
// through the start-of-run sweep and through clearWorktree itself; scion's own stale ones go.
// Judged by native git (`worktree list`) and the files on disk.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/index.js';
import { clearWorktree, scionWorktreesDir } from '../../src/runner/worktree-dirs.js';
import { POOL_PREFIX, sweepPools } from '../../src/runner/worktree-pool.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

/** A folder outside the repository, removed after the test. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scion-outside-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real worktree made by native git at `path` (its admin id is the folder's name), holding one file of its own. */
function foreignWorktree(r: TestRepo, path: string, marker?: string): void {
  r.git('worktree', 'add', '-q', '--detach', path);
  writeFileSync(join(path, 'mine.txt'), 'work in progress\n');
  if (marker !== undefined) r.git('worktree', 'lock', '--reason', marker, path);
}

function listed(r: TestRepo): string {
  return r.git('worktree', 'list', '--porcelain');
}

// The owner line of a run on this machine that is gone.
const STALE = `scion pid=999999 start=1 host=${hostname()} job=gone/gone`;

describe('sweeping and clearing scion worktrees', () => {
  it('the sweep removes a stale pooled worktree in scion-worktrees and leaves alone one named like it anywhere else', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    const away = outside();
    const unmarked = join(away, `${POOL_PREFIX}1-x-00000001`);
    const marked = join(away, `${POOL_PREFIX}999999-1-00000002`);
    foreignWorktree(r, unmarked);
    foreignWorktree(r, marked, STALE);
    // One of scion's own, left by a run that is gone.
    const own = join(scionWorktreesDir(g), `${POOL_PREFIX}999999-1-00000003`);
    mkdirSync(scionWorktreesDir(g), { recursive: true });
    foreignWorktree(r, own, STALE);

    await sweepPools(g);
    for (const path of [unmarked, marked]) {
      expect(readFileSync(join(path, 'mine.txt'), 'utf8')).toBe('work in progress\n');
      expect(readFileSync(join(path, 'a.txt'), 'utf8')).toBe('a\n');
      expect(listed(r)).toContain(`worktree ${path}\n`);
    }
    expect(existsSync(own)).toBe(false);
    expect(listed(r)).not.toContain(own);
    r.git('worktree', 'unlock', marked);
    r.git('fsck', '--strict');
  });

  it('clearWorktree of an id whose worktree is elsewhere keeps its folder; once that folder is gone, only git’s record goes', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    const path = join(outside(), 'scion-recipe__job');
    foreignWorktree(r, path);

    await clearWorktree(g, 'scion-recipe__job');
    expect(readFileSync(join(path, 'mine.txt'), 'utf8')).toBe('work in progress\n');
    expect(listed(r)).toContain(`worktree ${path}\n`);

    rmSync(path, { recursive: true, force: true });
    await clearWorktree(g, 'scion-recipe__job');
    expect(listed(r)).not.toContain(path);
    expect(existsSync(join(r.dir, '.git', 'worktrees', 'scion-recipe__job'))).toBe(false);
  });

  it('clearWorktree refuses a name that is not one of its folder’s', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    for (const bad of ['../x', 'scion-a/../../b', 'other', '..']) {
      await expect(clearWorktree(g, bad)).rejects.toMatchObject({ kind: 'invalid-argument' });
    }
  });

  it('`scion worktrees --prune` leaves alone a worktree named like scion’s outside its folder, and does not list it', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const path = join(outside(), 'scion-recipe__job');
    foreignWorktree(r, path);
    const listedByScion = await scion(['worktrees', '--repo', r.dir], { cwd: r.dir });
    expect(listedByScion.stdout).not.toContain(path);
    const pruned = await scion(['worktrees', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(readFileSync(join(path, 'mine.txt'), 'utf8')).toBe('work in progress\n');
    expect(listed(r)).toContain(`worktree ${path}\n`);
  });
});
