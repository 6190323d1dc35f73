// `scion worktrees [--prune]`: scion's linked worktrees; --prune removes those of finished jobs and
// of jobs whose run is gone (killed, crashed), and clears job locks whose owner is gone. A job is
// running only while the owner named in its worktree's `locked` marker is alive (job-lock.ts).
import { readFile, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { listWorktrees, openRepo, removeWorktree } from '../../git/index.js';
import { markerOwner, pruneLocks } from '../../runner/job-lock.js';
import { WORKTREE_PREFIX } from '../../runner/workspaces.js';
import type { CliIo } from '../io.js';

export async function worktreesCmd(io: CliIo, o: { repo: string; prune: boolean }): Promise<number> {
  const repo = await openRepo(resolve(io.cwd, o.repo));
  if (o.prune) pruneLocks(repo);
  const ours = (await listWorktrees(repo)).filter((w) => w.id.startsWith(WORKTREE_PREFIX));
  if (ours.length === 0) {
    io.stdout.write('No scion worktrees.\n');
    return 0;
  }
  for (const w of ours) {
    const marker = join(repo.commonDir, 'worktrees', w.id, 'locked');
    const owner = markerOwner(await readFile(marker, 'utf8').catch(() => null));
    const running = owner !== null && owner !== 'stale';
    const state = running ? 'running' : owner === 'stale' ? 'stale' : w.exists ? 'finished' : 'missing';
    const at = w.branch ?? (w.head ? w.head.slice(0, 12) : '?');
    if (o.prune && !running) {
      // A stale marker is the lock of a run that is gone: cleared with its worktree.
      if (owner === 'stale') await unlink(marker).catch(() => undefined);
      await removeWorktree(repo, w.id);
      io.stdout.write(`removed  ${w.path}  ${at}\n`);
    } else {
      io.stdout.write(`${state.padEnd(8)} ${w.path}  ${at}${running ? `  (pid ${owner.pid})` : ''}\n`);
    }
  }
  return 0;
}
