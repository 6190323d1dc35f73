// `worktrees`: scion's linked worktrees and what each is doing; with prune, those of finished jobs
// and of jobs whose run is gone (killed, crashed) are removed, and job locks whose owner is gone are
// cleared. A job is running only while the owner named in its worktree's `locked` marker is alive.
import { resolve } from 'node:path';
import { closeRepo, listWorktrees, openRepo } from '../git/index.js';
import { pruneLocks, worktreeOwner } from '../runner/job-lock.js';
import { clearWorktree, isInScionDir, WORKTREE_PREFIX } from '../runner/worktree-dirs.js';

export interface WorktreesOptions {
  /** Any folder inside the repository. Default: `cwd`. */
  readonly repo?: string;
  /** Remove the worktrees of jobs that are not running. */
  readonly prune?: boolean;
  readonly cwd?: string;
}

export interface WorktreeEntry {
  readonly path: string;
  /** The branch it is on, else its commit (12 digits). */
  readonly at: string;
  readonly state: 'running' | 'stale' | 'finished' | 'missing';
  /** The process running it (state `running`). */
  readonly pid: number | null;
  /** Removed by this call (prune). */
  readonly removed: boolean;
}

export async function worktrees(o: WorktreesOptions = {}): Promise<WorktreeEntry[]> {
  const repo = await openRepo(resolve(o.cwd ?? process.cwd(), o.repo ?? '.'));
  try {
    if (o.prune) pruneLocks(repo);
    const out: WorktreeEntry[] = [];
    // scion's are those in its own folder: a worktree elsewhere is someone else's, whatever its name.
    for (const w of (await listWorktrees(repo)).filter((x) => x.id.startsWith(WORKTREE_PREFIX) && isInScionDir(repo, x.path))) {
      const owner = worktreeOwner(repo, w.id);
      const running = owner !== null && owner !== 'stale';
      const state = running ? 'running' : owner === 'stale' ? 'stale' : w.exists ? 'finished' : 'missing';
      const at = w.branch ?? (w.head ? w.head.slice(0, 12) : '?');
      const removed = o.prune === true && !running;
      // A stale marker is the lock of a run that is gone: cleared with its worktree.
      if (removed) await clearWorktree(repo, w.id);
      out.push({ path: w.path, at, state, pid: running ? owner.pid : null, removed });
    }
    return out;
  } finally {
    closeRepo(repo);
  }
}
