// Choosing and making a job's workspace: objects only when nothing needs files on disk, a real
// linked worktree when commands run or the user keeps worktrees, a scratch copy in a dry run.
// A job that writes (not a dry run) first takes its job lock (job-lock.ts); the lock is released
// when the workspace is closed, after its worktree is gone (or moved to the branch head and kept).
import { createHash } from 'node:crypto';
import { rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok, type Result } from '../errors.js';
import { listWorktrees, removeWorktree, type Repo, type TreeEntry } from '../git/index.js';
import { ObjectWorkspace } from '../workspace/objects.js';
import { createScratchWorkspace } from '../workspace/scratch.js';
import type { OwnedWorkspace } from '../workspace/types.js';
import { openWorktree } from '../workspace/worktree.js';
import { acquireJobLock, currentOwner, formatOwner, type JobLock } from './job-lock.js';

export const WORKTREE_PREFIX = 'scion-';

/** Where scion puts its jobs' linked worktrees (their files); git's admin folders are under `.git/worktrees`. */
export function scionWorktreesDir(repo: Repo): string {
  return join(repo.commonDir, 'scion-worktrees');
}

const MAX_NAME = 80;

/**
 * A worktree id per (recipe, job), injective: `a+b`, `a@b`, `a-b`, `a=b` each get their own. Letters
 * in lower case, digits and `-` stay; every other byte (upper case too, so a case-folding file
 * system keeps them apart, and `.`, so no id ends in git's `.lock`) becomes `_` + two hex digits.
 * `__` (which escaping never yields) separates recipe and job. Long names keep a prefix and a hash.
 */
export function worktreeId(recipe: string, job: string): string {
  const name = recipe === job ? escapeName(recipe) : `${escapeName(recipe)}__${escapeName(job)}`;
  if (name.length <= MAX_NAME) return `${WORKTREE_PREFIX}${name}`;
  const hash = createHash('sha1').update(`${recipe}\0${job}`).digest('hex').slice(0, 16);
  return `${WORKTREE_PREFIX}${name.slice(0, MAX_NAME - 18)}_h${hash}`;
}

function escapeName(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[a-z0-9-]/.test(c) ? c : `_${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export interface MadeWorkspace {
  readonly ws: OwnedWorkspace;
  /** Set when the workspace is a real linked worktree. */
  readonly worktree: { readonly path: string; readonly id: string; readonly adminDir: string } | null;
}

export async function makeWorkspace(
  repo: Repo,
  o: { base: string; entries: ReadonlyMap<string, TreeEntry>; needsDisk: boolean; keep: boolean; dryRun: boolean; id: string; branch: string; job: string },
): Promise<Result<MadeWorkspace>> {
  if (o.dryRun) {
    return ok({ ws: o.needsDisk ? await createScratchWorkspace(repo, o.entries) : new ObjectWorkspace(repo, o.entries), worktree: null });
  }
  const locked = acquireJobLock(repo, { branch: o.branch, job: o.job });
  if (!locked.ok) return fail(locked.error);
  const lock = locked.value;
  try {
    return ok(await makeWriting(repo, o, lock));
  } catch (e) {
    lock.release();
    throw e;
  }
}

async function makeWriting(
  repo: Repo,
  o: { base: string; entries: ReadonlyMap<string, TreeEntry>; needsDisk: boolean; keep: boolean; id: string; job: string },
  lock: JobLock,
): Promise<MadeWorkspace> {
  if (!o.needsDisk && !o.keep) return { ws: new ObjectWorkspace(repo, o.entries, async () => lock.release()), worktree: null };

  const path = join(scionWorktreesDir(repo), o.id);
  // Holding the job's lock, whatever worktree this job left (kept by an earlier run, or half made or
  // still locked by a run that was killed) is ours to replace.
  await clearWorktree(repo, o.id, path);

  // git's own `locked` marker, with the owner's pid and start time: native `git worktree prune`
  // leaves a running job alone, `scion worktrees` tells a live job from a dead one.
  const ws = await openWorktree(repo, { path, commit: o.base, entries: o.entries, lockedBy: formatOwner(currentOwner(), o.job) }, () => lock.release());
  return { ws, worktree: ws.worktree };
}

/** Removes the job's worktree (listed or not: an admin dir without its gitdir file too) and its folder. */
export async function clearWorktree(repo: Repo, id: string, path: string): Promise<void> {
  for (const w of await listWorktrees(repo)) {
    if (w.id !== id && w.path !== path) continue;
    await unlink(join(repo.commonDir, 'worktrees', w.id, 'locked')).catch(() => undefined);
    // A folder whose .git file points elsewhere is left where it is (removeWorktree refuses it);
    // the admin dir and scion's own folder for this id go below either way.
    await removeWorktree(repo, w.id).catch(() => undefined);
  }
  await rm(join(repo.commonDir, 'worktrees', id), { recursive: true, force: true });
  await rm(path, { recursive: true, force: true });
}
