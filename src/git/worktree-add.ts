// `git worktree add` without git: the admin files, the checkout, and an index with stat data.
// Order follows git's: the admin dir is claimed with mkdir (atomic, so parallel jobs and a native
// git never share an id) and marked `locked` until the worktree is complete, so a concurrent
// `git worktree prune` leaves the half-made one alone (and what a prune took anyway is made again:
// worktree-claim.ts).
import { mkdirSync, readdirSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkoutEntries } from './checkout.js';
import { readCommitSync } from './commit.js';
import { errnoCode, gitError } from './errors.js';
import { isOid } from './hash.js';
import { writeIndexFile } from './index-file.js';
import { listTreeSync, type TreeEntry } from './list-tree.js';
import { isValidRefName, readRefSync } from './refs.js';
import type { Repo } from './repo.js';
import { branchCheckedOutSync, type Worktree } from './worktree-admin.js';
import { dropAdminDir, isWhole, makeAdminDir, type AdminDir, type AdminFiles } from './worktree-claim.js';

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
  /** Stops the checkout (kind `interrupted`): the folder and the admin folder made so far are removed. */
  signal?: AbortSignal;
}

export async function addWorktree(repo: Repo, o: AddWorktreeOptions): Promise<Worktree> {
  if (!isOid(o.commit)) throw gitError('invalid-argument', `"${o.commit}" is not a full commit id.`);
  const tree = readCommitSync(repo, o.commit).tree;
  const head = o.branch === undefined ? `${o.commit}\n` : `ref: ${branchRef(repo, o.branch, o.commit)}\n`;
  const path = claimFolder(resolve(o.path));
  const files: AdminFiles = { path, head, locked: o.lockedBy ?? 'initializing\n' };
  let admin: AdminDir | null = null;
  try {
    admin = makeAdminDir(repo, files);
    const entries = o.entries ?? listTreeSync(repo, tree);
    const index = await checkoutEntries(repo, path, entries, o.signal ? { signal: o.signal } : {});
    const writeIndex = (dir: string) => writeIndexFile(join(dir, 'index'), index);
    try {
      writeIndex(admin.adminDir);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
    // A prune that judged before the folder was marked may have removed it during the checkout.
    if (!isWhole(admin.adminDir, ['index'])) {
      dropAdminDir(admin.adminDir, files);
      admin = makeAdminDir(repo, { ...files, more: writeIndex }, ['index']);
    }
    if (o.lockedBy === undefined) unlinkSync(join(admin.adminDir, 'locked'));
  } catch (err) {
    rmSync(path, { recursive: true, force: true });
    if (admin !== null) dropAdminDir(admin.adminDir, files);
    throw err;
  }
  return { path, id: admin.id, adminDir: admin.adminDir };
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
