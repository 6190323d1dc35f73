// Paths the model names: relative to the repository root, or absolute inside the job's worktree.
// Everything else is for the runner's guard to refuse (outside, denied, not selected).
import { fail, type Result } from '../../errors.js';
import type { AgentFiles } from '../types.js';

export function resolvePath(files: AgentFiles, raw: string): Result<string> {
  const p = raw.trim();
  if (p === '') return fail({ kind: 'outside', message: 'The path is empty; give a path relative to the repository root.' });
  return files.guard(underRoot(files.root, p) ?? p);
}

/** An absolute path inside `root`, made relative; null when it is not one. */
function underRoot(root: string | null, p: string): string | null {
  if (root === null || !p.startsWith('/')) return null;
  const base = root.endsWith('/') ? root : `${root}/`;
  return p.startsWith(base) ? p.slice(base.length) : null;
}
