// Choosing and making a job's workspace: objects only when nothing needs files on disk, a real
// linked worktree when commands run or the user keeps worktrees, a scratch copy in a dry run.
import { rm, writeFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { addWorktree, listWorktrees, removeWorktree, worktreeChanges, type Repo, type TreeEntry } from '../git/index.js';
import { DiskWorkspace } from '../workspace/disk.js';
import { ObjectWorkspace } from '../workspace/objects.js';
import { createScratchWorkspace } from '../workspace/scratch.js';
import type { Workspace } from '../workspace/types.js';

export const WORKTREE_PREFIX = 'scion-';

export function worktreesDir(repo: Repo): string {
  return join(repo.commonDir, 'scion-worktrees');
}

export function worktreeId(recipe: string, job: string): string {
  const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-');
  return recipe === job ? `${WORKTREE_PREFIX}${slug(recipe)}` : `${WORKTREE_PREFIX}${slug(recipe)}--${slug(job)}`;
}

export interface MadeWorkspace {
  readonly ws: Workspace;
  /** Set when the workspace is a real linked worktree. */
  readonly worktree: { readonly path: string; readonly id: string; readonly adminDir: string } | null;
}

export async function makeWorkspace(
  repo: Repo,
  o: { base: string; entries: ReadonlyMap<string, TreeEntry>; needsDisk: boolean; keep: boolean; dryRun: boolean; id: string },
): Promise<MadeWorkspace> {
  if (o.dryRun) {
    return { ws: o.needsDisk ? await createScratchWorkspace(repo, o.entries) : new ObjectWorkspace(repo, o.entries), worktree: null };
  }
  if (!o.needsDisk && !o.keep) return { ws: new ObjectWorkspace(repo, o.entries), worktree: null };

  const path = join(worktreesDir(repo), o.id);
  // A worktree kept by an earlier run of this job is ours to replace.
  const old = (await listWorktrees(repo)).find((w) => w.id === o.id || w.path === path);
  if (old) await removeWorktree(repo, old.path);
  await rm(path, { recursive: true, force: true });

  const list = [...o.entries.values()];
  const wt = await addWorktree(repo, { path, commit: o.base, entries: list });
  // git's own `locked` marker: `git worktree prune` and `scion worktrees --prune` leave a running job alone.
  const lock = join(wt.adminDir, 'locked');
  await writeFile(lock, `scion job running (pid ${process.pid})\n`);
  const ws = new DiskWorkspace(
    wt.path,
    repo,
    o.entries,
    () => worktreeChanges(repo, wt, list),
    async (keep) => {
      await unlink(lock).catch(() => undefined);
      if (!keep) await removeWorktree(repo, wt);
    },
  );
  return { ws, worktree: wt };
}
