// `scion worktrees [--prune]`: scion's linked worktrees; --prune removes those of finished jobs
// (a running job holds git's `locked` marker on its worktree).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listWorktrees, openRepo, removeWorktree } from '../../git/index.js';
import { WORKTREE_PREFIX } from '../../runner/workspaces.js';
import type { CliIo } from '../io.js';

export async function worktreesCmd(io: CliIo, o: { repo: string; prune: boolean }): Promise<number> {
  const repo = await openRepo(resolve(io.cwd, o.repo));
  const ours = (await listWorktrees(repo)).filter((w) => w.id.startsWith(WORKTREE_PREFIX));
  if (ours.length === 0) {
    io.stdout.write('No scion worktrees.\n');
    return 0;
  }
  for (const w of ours) {
    const running = existsSync(join(repo.commonDir, 'worktrees', w.id, 'locked'));
    const state = running ? 'running' : w.exists ? 'finished' : 'missing';
    const at = w.branch ?? (w.head ? w.head.slice(0, 12) : '?');
    if (o.prune && !running) {
      await removeWorktree(repo, w.path);
      io.stdout.write(`removed  ${w.path}  ${at}\n`);
    } else {
      io.stdout.write(`${state.padEnd(8)} ${w.path}  ${at}\n`);
    }
  }
  return 0;
}
