// `git worktree add` without git: the admin files, the checkout, and an index with stat data.
// Order follows git's: the admin dir is claimed with mkdir (atomic, so parallel jobs and a native
// git never share an id) and marked `locked` until the worktree is complete, so a concurrent
// `git worktree prune` leaves the half-made one alone.
import { mkdirSync, readdirSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkoutEntries } from './checkout.js';
import { readCommitSync } from './commit.js';
import { errnoCode, gitError } from './errors.js';
import { isOid } from './hash.js';
import { writeIndexFile } from './index-file.js';
import { listTreeSync, type TreeEntry } from './list-tree.js';
import { isValidRefName, readRefSync } from './refs.js';
import type { Repo } from './repo.js';
import { branchCheckedOutSync, worktreeAdminRoot, type Worktree } from './worktree-admin.js';

export interface AddWorktreeOptions {
  /** Folder to create (or an empty one to fill). */
  path: string;
  /** The commit to check out. */
  commit: string;
  /** The commit's tree as listTree gives it, when the caller already has it. */
  entries?: TreeEntry[];
  /** Check out this branch (short name; it must already point at `commit`) instead of a detached HEAD. */
  branch?: string;
  /**
   * Text of git's `locked` marker, written first and left in place: the worktree stays locked (native
   * `git worktree prune` leaves it alone) until its owner unlocks it. Omitted: locked only while made.
   */
  lockedBy?: string;
}

export async function addWorktree(repo: Repo, o: AddWorktreeOptions): Promise<Worktree> {
  if (!isOid(o.commit)) throw gitError('invalid-argument', `"${o.commit}" is not a full commit id.`);
  const tree = readCommitSync(repo, o.commit).tree;
  const head = o.branch === undefined ? `${o.commit}\n` : `ref: ${branchRef(repo, o.branch, o.commit)}\n`;
  const path = claimFolder(resolve(o.path));
  const { id, adminDir } = claimAdminDir(repo, path);
  try {
    writeFileSync(join(adminDir, 'locked'), o.lockedBy ?? 'initializing\n');
    writeFileSync(join(path, '.git'), `gitdir: ${adminDir}\n`);
    writeFileSync(join(adminDir, 'commondir'), '../..\n');
    writeFileSync(join(adminDir, 'gitdir'), `${join(path, '.git')}\n`);
    writeFileSync(join(adminDir, 'HEAD'), head);
    const entries = o.entries ?? listTreeSync(repo, tree);
    const index = await checkoutEntries(repo, path, entries);
    writeIndexFile(join(adminDir, 'index'), index);
    if (o.lockedBy === undefined) unlinkSync(join(adminDir, 'locked'));
  } catch (err) {
    rmSync(path, { recursive: true, force: true });
    rmSync(adminDir, { recursive: true, force: true });
    throw err;
  }
  return { path, id, adminDir };
}

function branchRef(repo: Repo, branch: string, commit: string): string {
  const ref = `refs/heads/${branch}`;
  if (!isValidRefName(ref)) throw gitError('bad-ref', `"${branch}" is not a valid branch name.`, { ref });
  const at = readRefSync(repo, ref);
  if (at !== commit) {
    throw gitError('invalid-argument', `Branch ${branch} points at ${at ?? 'nothing'}, not ${commit}; move it first (updateRef).`, { ref });
  }
  const elsewhere = branchCheckedOutSync(repo, ref);
  if (elsewhere !== null) throw gitError('in-use', `Branch ${branch} is already checked out at ${elsewhere}.`, { ref, path: elsewhere });
  return ref;
}

/** Creates the folder (or accepts an empty one) and returns its real path, as git records it. */
function claimFolder(path: string): string {
  mkdirSync(path, { recursive: true });
  if (readdirSync(path).length > 0) throw gitError('in-use', `${path} already exists and is not empty; choose another worktree folder.`, { path });
  return realpathSync(path);
}

function claimAdminDir(repo: Repo, path: string): { id: string; adminDir: string } {
  const root = worktreeAdminRoot(repo);
  mkdirSync(root, { recursive: true });
  // Like git: the folder's name, made safe as a ref component, with a counter when taken.
  const base =
    basename(path)
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^\.+/, '')
      .replace(/\.lock$/, '') || 'worktree';
  for (let n = 0; ; n++) {
    const id = n === 0 ? base : `${base}${n}`;
    const adminDir = join(root, id);
    try {
      mkdirSync(adminDir);
      return { id, adminDir };
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
  }
}
