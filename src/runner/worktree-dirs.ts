// Where scion's linked worktrees live and how one is cleared: their folders under
// <common>/scion-worktrees/, git's admin folders under <common>/worktrees/, each id starting `scion-`.
// Clearing removes folders only there: a worktree git lists elsewhere is never scion's to delete,
// whatever its id says (a hand-made `git worktree add /tmp/scion-x`, or one a moved repository left).
import { existsSync, realpathSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ScionError } from '../errors.js';
import { listWorktrees, removeWorktree, worktreeAdminRoot, type Repo } from '../git/index.js';

export const WORKTREE_PREFIX = 'scion-';

/** Where scion puts its jobs' linked worktrees (their files); git's admin folders are under `.git/worktrees`. */
export function scionWorktreesDir(repo: Repo): string {
  return join(repo.commonDir, 'scion-worktrees');
}

/**
 * Clears the worktree `id`: scion's folder of that name and every worktree git lists in it go, admin
 * folder and all, as does a half-made admin folder `id` (no `gitdir` file yet). A worktree listed
 * under that id whose folder is anywhere else keeps its folder and files: only its admin folder goes,
 * and only once that folder is gone (as `git worktree prune` would judge it).
 */
export async function clearWorktree(repo: Repo, id: string): Promise<void> {
  if (!isScionName(id)) throw new ScionError('invalid-argument', `${JSON.stringify(id)} is not the name of one of scion's worktrees.`, { data: { id } });
  const folder = join(scionWorktreesDir(repo), id);
  let adminTaken = false;
  for (const w of await listWorktrees(repo)) {
    const ours = isInScionDir(repo, w.path);
    if (w.id === id && !ours) {
      // Not scion's folder: at most git's record of it goes, once the folder itself is gone.
      adminTaken = true;
      if (!w.exists) await rm(join(worktreeAdminRoot(repo), w.id), { recursive: true, force: true });
      continue;
    }
    if (w.id !== id && !(ours && basename(w.path) === id)) continue;
    await unlink(join(worktreeAdminRoot(repo), w.id, 'locked')).catch(() => undefined);
    // A folder whose .git file points elsewhere is left where it is (removeWorktree refuses it);
    // its admin folder and scion's folder of this name go below either way.
    await removeWorktree(repo, w.id).catch(() => undefined);
    await rm(join(worktreeAdminRoot(repo), w.id), { recursive: true, force: true });
    if (ours) await rm(w.path, { recursive: true, force: true });
  }
  if (!adminTaken) await rm(join(worktreeAdminRoot(repo), id), { recursive: true, force: true });
  await rm(folder, { recursive: true, force: true });
}

/** Whether `path` is a folder directly under scion's worktrees folder, named as scion names them. */
export function isInScionDir(repo: Repo, path: string): boolean {
  return isScionName(basename(path)) && sameFolder(dirname(path), scionWorktreesDir(repo));
}

/** One path component starting `scion-`: never `..`, never a separator. */
function isScionName(name: string): boolean {
  return name.startsWith(WORKTREE_PREFIX) && !name.includes('/') && !name.includes('\\') && name !== '.' && name !== '..';
}

function sameFolder(a: string, b: string): boolean {
  return a === b || (existsSync(a) && existsSync(b) && realpathSync(a) === realpathSync(b));
}
