// `git worktree remove --force`: delete the folder and its admin dir. A folder is only deleted when
// its `.git` file points back at the admin dir, so a damaged admin file can never aim the removal
// at some other folder.
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GitError } from './errors.js';
import { gitFileTarget, type Repo } from './repo.js';
import { listWorktreesSync, readWorktreeAdmin, worktreeAdminRoot, type Worktree } from './worktree-admin.js';

/** `wt` is a Worktree, a worktree id, or the worktree's folder. */
export async function removeWorktree(repo: Repo, wt: Worktree | string): Promise<void> {
  const info = find(repo, wt);
  const adminDir = join(worktreeAdminRoot(repo), info.id);
  if (info.locked) {
    throw new GitError('in-use', `Worktree ${info.path} is locked; run \`git worktree unlock ${info.path}\` first if it may go.`, { path: info.path });
  }
  if (existsSync(info.path)) {
    const target = gitFileTarget(join(info.path, '.git'));
    if (target === null || !existsSync(target) || realpathSync(target) !== realpathSync(adminDir)) {
      throw new GitError('in-use', `${info.path} is not the worktree ${info.id} records (its .git file points elsewhere); left it in place.`, { path: info.path });
    }
    rmSync(info.path, { recursive: true, force: true });
  }
  rmSync(adminDir, { recursive: true, force: true });
}

function find(repo: Repo, wt: Worktree | string): { id: string; path: string; locked: boolean } {
  const byId = readWorktreeAdmin(repo, typeof wt === 'string' ? wt : wt.id);
  if (byId && (typeof wt === 'string' || byId.path === wt.path)) return byId;
  const wanted = typeof wt === 'string' ? wt : wt.path;
  const abs = resolve(wanted);
  const real = existsSync(abs) ? realpathSync(abs) : abs;
  const found = listWorktreesSync(repo).find((w) => w.path === abs || w.path === real);
  if (!found) throw new GitError('invalid-argument', `${wanted} is not a linked worktree of ${repo.commonDir}.`, { path: wanted });
  return found;
}
