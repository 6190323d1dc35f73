// Choosing and making a job's workspace: objects only when nothing needs files on disk; when a
// command may run, objects until one must really run (the step cache may replay them all), then a
// worktree from the run's pool (a scratch copy in a dry run); a worktree of the job's own, made at
// once, when the user keeps worktrees.
// A job that writes (not a dry run) first takes its job lock (job-lock.ts); the lock is released
// when the workspace is closed, once its worktree is done with: given back to the pool clean (at the
// job's head, or the base), moved to the branch head and kept, or removed.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fail, ok, type Result } from '../errors.js';
import type { Repo, TreeEntry } from '../git/index.js';
import { plural } from '../util/plural.js';
import { LazyWorkspace } from '../workspace/lazy.js';
import { ObjectWorkspace } from '../workspace/objects.js';
import { createScratchWorkspace } from '../workspace/scratch.js';
import type { OwnedWorkspace } from '../workspace/types.js';
import { openWorktree } from '../workspace/worktree.js';
import { acquireJobLock, currentOwner, formatOwner, type JobLock } from './job-lock.js';
import { clearWorktree, scionWorktreesDir, WORKTREE_PREFIX } from './worktree-dirs.js';
import type { WorktreePool } from './worktree-pool.js';

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

/** What a job's workspace must offer. */
export interface WorkspaceRequest {
  readonly base: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  /** A command may run (a `run` step or verify): the files may have to be on disk. */
  readonly needsDisk: boolean;
  /** --keep-worktrees: a worktree of the job's own, left at its branch head. */
  readonly keep: boolean;
  readonly dryRun: boolean;
  /** The job's worktree id (worktreeId) and branch, and recipe/job. */
  readonly id: string;
  readonly branch: string;
  readonly job: string;
  /**
   * Files on disk only when a command must run (LazyWorkspace): a worktree from the run's pool (null
   * in a dry run: a scratch copy), and where "checking out" is said. Absent: a worktree made at once.
   */
  readonly lazy?: { readonly pool: WorktreePool | null; readonly log: (message: string) => void };
}

export async function makeWorkspace(repo: Repo, o: WorkspaceRequest): Promise<Result<MadeWorkspace>> {
  if (o.dryRun) {
    const log = o.lazy?.log;
    if (!o.needsDisk) return ok({ ws: new ObjectWorkspace(repo, o.entries, { log }), worktree: null });
    if (log === undefined) return ok({ ws: await createScratchWorkspace(repo, o.entries), worktree: null });
    const scratch = async (signal?: AbortSignal) => {
      log(`checking out ${plural(o.entries.size, 'file')}`);
      return createScratchWorkspace(repo, o.entries, signal);
    };
    return ok({ ws: new LazyWorkspace(repo, o.entries, scratch, { log }), worktree: null });
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

async function makeWriting(repo: Repo, o: WorkspaceRequest, lock: JobLock): Promise<MadeWorkspace> {
  const release = async () => lock.release();
  if (!o.needsDisk && !o.keep) return { ws: new ObjectWorkspace(repo, o.entries, { release, log: o.lazy?.log }), worktree: null };

  const path = join(scionWorktreesDir(repo), o.id);
  // Holding the job's lock, whatever worktree this job left (kept by an earlier run, or half made or
  // still locked by a run that was killed) is ours to replace.
  await clearWorktree(repo, o.id);

  const pool = o.lazy?.pool;
  if (pool && !o.keep) {
    const log = o.lazy!.log;
    const open = (signal?: AbortSignal) => pool.acquire({ base: o.base, entries: o.entries, job: o.job, log, ...(signal ? { signal } : {}) });
    return { ws: new LazyWorkspace(repo, o.entries, open, { release, log }), worktree: null };
  }
  // A kept worktree is the job's own (it ends at the job's branch head), never a pooled one.
  o.lazy?.log(`checking out ${plural(o.entries.size, 'file')}`);
  // git's own `locked` marker, with the owner's pid and start time: native `git worktree prune`
  // leaves a running job alone, `scion worktrees` tells a live job from a dead one.
  const ws = await openWorktree(repo, { path, commit: o.base, entries: o.entries, lockedBy: formatOwner(currentOwner(), o.job) }, () => lock.release());
  return { ws, worktree: ws.worktree };
}
