// Paths the model names: relative to the repository root, or absolute inside the job's worktree.
// Each is held to git's path rules (the one validator, core/check-path.ts) here, before the
// runner's guard judges the job's own rules (selection, deny, symlinks), so no runner can hand the
// model a guard that lets `.git.` or `git~1/hooks/x` through. The path is taken literally (not
// trimmed): a file name may end in a space or hold a newline.
import { checkPath } from '../../core/check-path.js';
import { fail, type Result } from '../../errors.js';
import type { AgentFiles } from '../types.js';

export function resolvePath(files: AgentFiles, raw: string): Result<string> {
  if (raw.trim() === '') return fail({ kind: 'outside', message: 'The path is empty; give a path relative to the repository root.' });
  const path = underRoot(files.root, raw) ?? raw;
  const checked = checkPath(path);
  if (!checked.ok) return checked;
  return files.guard(path);
}

/** An absolute path inside `root`, made relative; null when it is not one. */
function underRoot(root: string | null, p: string): string | null {
  if (root === null || !p.startsWith('/')) return null;
  const base = root.endsWith('/') ? root : `${root}/`;
  return p.startsWith(base) ? p.slice(base.length) : null;
}
