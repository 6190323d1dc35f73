// A job's real linked worktree as its workspace: the whole base tree on disk, what commands
// change found by git's own scan. The workspace owns the worktree to its end: `close` moves a kept
// one to the job's new head (clean under `git status`) or removes it, and drops git's `locked` marker.
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { addWorktree, removeWorktree, setWorktreeHead, hashBlob, worktreeChanges, type Repo, type TreeEntry, type Worktree } from '../git/index.js';
import { DiskWorkspace } from './disk.js';
import type { Changes, CloseOptions } from './types.js';
import { compareCodeUnits } from '../util/compare.js';

export interface OpenWorktree {
  readonly path: string;
  /** The base commit it is checked out at (detached). */
  readonly commit: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  /** Content of git's `locked` marker while the job runs (native `git worktree prune` leaves it alone). */
  readonly lockedBy: string;
}

export async function openWorktree(repo: Repo, o: OpenWorktree, onClosed: () => void): Promise<WorktreeWorkspace> {
  const list = [...o.entries.values()];
  const wt = await addWorktree(repo, { path: o.path, commit: o.commit, entries: list, lockedBy: o.lockedBy });
  return new WorktreeWorkspace(repo, wt, o.entries, list, onClosed);
}

export class WorktreeWorkspace extends DiskWorkspace {
  constructor(
    repo: Repo,
    readonly worktree: Worktree,
    base: ReadonlyMap<string, TreeEntry>,
    list: readonly TreeEntry[],
    private readonly onClosed: () => void,
  ) {
    super(worktree.path, repo, base, () => worktreeChanges(repo, worktree, list));
  }

  override async close(o: CloseOptions): Promise<void> {
    let keep = o.keep;
    try {
      if (keep && o.head) {
        try {
          await setWorktreeHead(this.repo, this.worktree, { branch: o.head.branch, commit: o.head.commit, entries: headEntries(this.base, this.changes()) });
        } catch (e) {
          // A worktree that cannot reach the head is not left behind half moved.
          keep = false;
          throw e;
        }
      }
    } finally {
      try {
        await unlink(join(this.worktree.adminDir, 'locked')).catch(() => undefined);
        if (!keep) await removeWorktree(this.repo, this.worktree);
      } finally {
        this.onClosed();
      }
    }
  }
}

/** The head tree's entries: the base with the job's changes applied (each blob id as the commit stored it). */
export function headEntries(base: ReadonlyMap<string, TreeEntry>, changes: Changes): TreeEntry[] {
  const out = new Map(base);
  for (const [path, state] of changes) {
    if (state === null) out.delete(path);
    else out.set(path, { path, oid: hashBlob(state.bytes), mode: state.mode });
  }
  return [...out.values()].sort((a, b) => compareCodeUnits(a.path, b.path));
}
