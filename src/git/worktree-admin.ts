// git's linked-worktree layout: <common>/worktrees/<id>/{HEAD,commondir,gitdir,index,locked} and,
// in the worktree folder, a `.git` file "gitdir: <common>/worktrees/<id>".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { configValue } from './config.js';
import { readLooseRef, readRefSync } from './refs.js';
import { repoState, type Repo } from './repo.js';
import { compareCodeUnits } from '../util/compare.js';

export interface Worktree {
  /** Absolute path of the worktree folder. */
  readonly path: string;
  /** Its name under <common>/worktrees/. */
  readonly id: string;
  /** <common>/worktrees/<id>. */
  readonly adminDir: string;
}

export interface WorktreeInfo {
  readonly path: string;
  readonly id: string;
  /** The commit its HEAD points at (through the branch), or null (unborn or unreadable). */
  readonly head: string | null;
  /** Full ref name (refs/heads/x) when HEAD is on a branch; null when detached. */
  readonly branch: string | null;
  /** Its folder is still there (git would otherwise call it prunable). */
  readonly exists: boolean;
  /** A `locked` file protects it from prune and remove. */
  readonly locked: boolean;
}

/** Where git keeps its linked worktrees' admin folders (`.git/worktrees/<id>`), not their files. */
export function worktreeAdminRoot(repo: Repo): string {
  return join(repo.commonDir, 'worktrees');
}

/** Reads one admin dir; null when it is not a worktree's (no gitdir file). */
export function readWorktreeAdmin(repo: Repo, id: string): WorktreeInfo | null {
  const adminDir = join(worktreeAdminRoot(repo), id);
  let gitdir: string;
  try {
    gitdir = readFileSync(join(adminDir, 'gitdir'), 'utf8').trim();
  } catch {
    return null;
  }
  const { head, branch } = headOf(repo, adminDir);
  return { path: dirname(gitdir), id, head, branch, exists: existsSync(gitdir), locked: existsSync(join(adminDir, 'locked')) };
}

/** Linked worktrees only (not the main checkout), read from the admin dirs, sorted by path. */
export async function listWorktrees(repo: Repo): Promise<WorktreeInfo[]> {
  return listWorktreesSync(repo);
}

export function listWorktreesSync(repo: Repo): WorktreeInfo[] {
  let ids: string[];
  try {
    ids = readdirSync(worktreeAdminRoot(repo));
  } catch {
    return [];
  }
  const out: WorktreeInfo[] = [];
  for (const id of ids) {
    const info = readWorktreeAdmin(repo, id);
    if (info) out.push(info);
  }
  return out.sort((a, b) => compareCodeUnits(a.path, b.path));
}

function headOf(repo: Repo, gitDir: string): { head: string | null; branch: string | null } {
  let head: ReturnType<typeof readLooseRef>;
  try {
    head = readLooseRef(join(gitDir, 'HEAD'));
  } catch {
    return { head: null, branch: null };
  }
  if (!head) return { head: null, branch: null };
  if ('oid' in head) return { head: head.oid, branch: null };
  return { head: readRefSync(repo, head.symbolic), branch: head.symbolic };
}

/**
 * The checkout (main or linked) that has `ref` checked out, or null. Moving such a branch under a
 * checkout would leave its files out of step with its HEAD.
 */
export async function branchCheckedOut(repo: Repo, ref: string): Promise<string | null> {
  return branchCheckedOutSync(repo, ref);
}

export function branchCheckedOutSync(repo: Repo, ref: string): string | null {
  const bare = configValue(repoState(repo).config, 'core', 'bare');
  const isBare = bare === true || /^(true|yes|on|1)$/i.test(bare ?? '');
  if (!isBare && basename(repo.commonDir) === '.git') {
    if (headOf(repo, repo.commonDir).branch === ref) return dirname(repo.commonDir);
  }
  for (const wt of listWorktreesSync(repo)) if (wt.branch === ref && wt.exists) return wt.path;
  return null;
}
