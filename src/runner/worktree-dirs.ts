// Where scion's linked worktrees live and how one is cleared: their folders under
// <common>/scion-worktrees/, git's admin folders under <common>/worktrees/, each id starting `scion-`.
import { rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { listWorktrees, removeWorktree, type Repo } from '../git/index.js';

export const WORKTREE_PREFIX = 'scion-';

/** Where scion puts its jobs' linked worktrees (their files); git's admin folders are under `.git/worktrees`. */
export function scionWorktreesDir(repo: Repo): string {
  return join(repo.commonDir, 'scion-worktrees');
}

/** Removes the worktree `id` (listed or not: an admin dir without its gitdir file too) and its folder. */
export async function clearWorktree(repo: Repo, id: string, path: string): Promise<void> {
  for (const w of await listWorktrees(repo)) {
    if (w.id !== id && w.path !== path) continue;
    await unlink(join(repo.commonDir, 'worktrees', w.id, 'locked')).catch(() => undefined);
    // A folder whose .git file points elsewhere is left where it is (removeWorktree refuses it);
    // the admin dir and scion's own folder for this id go below either way.
    await removeWorktree(repo, w.id).catch(() => undefined);
  }
  await rm(join(repo.commonDir, 'worktrees', id), { recursive: true, force: true });
  await rm(path, { recursive: true, force: true });
}
