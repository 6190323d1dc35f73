// The run's linked worktrees, shared by its jobs: one per job that has files on disk at the same
// moment, for each base commit (so never more than --concurrency per base). The first job that needs
// one checks the base out in full. A job gives its worktree back clean under `git status`, detached
// at the head it committed (or reset to the base); the next job gets it reset to the base
// (git/worktree-reset.ts: only the paths that differ are written, and whatever else a command left,
// untracked files and ignored build output included, is removed). So N jobs over one base write
// the base tree once per job running at once instead of once per job.
//
// Each is a real linked worktree that native `git worktree list` shows, detached, and locked by
// git's `locked` marker with the run's owner line (naming the job using it last), so
// `git worktree prune` leaves it alone and `scion worktrees` tells a live run from a dead one. The
// run removes them when it ends; one killed with SIGKILL leaves some whose owner is gone, which the
// next run (sweepPools) or `scion worktrees --prune` removes.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import {
  addWorktree,
  listWorktrees,
  resetWorktree,
  setWorktreeHead,
  worktreeChanges,
  writeFileLocked,
  type Repo,
  type TreeEntry,
  type Worktree,
} from '../git/index.js';
import { isScionError } from '../errors.js';
import { DiskWorkspace } from '../workspace/disk.js';
import { headEntries } from '../workspace/worktree.js';
import { plural } from '../util/plural.js';
import { currentOwner, formatOwner, ownerAlive, worktreeOwner } from './job-lock.js';
import { clearWorktree, isInScionDir, scionWorktreesDir, WORKTREE_PREFIX } from './worktree-dirs.js';

/** Ids of pooled worktrees: `__` right after the prefix is never a job's worktree id (worktreeId). */
export const POOL_PREFIX = `${WORKTREE_PREFIX}__pool-`;

interface Slot {
  readonly wt: Worktree;
  readonly base: string;
}

export interface PoolRequest {
  readonly base: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  /** recipe/job, written into the worktree's `locked` marker while the job holds it. */
  readonly job: string;
  readonly log: (message: string) => void;
  /** Stops the checkout or reset (kind `interrupted`); what it half wrote is removed. */
  readonly signal?: AbortSignal;
}

export class WorktreePool {
  private readonly idle = new Map<string, Slot[]>();
  private readonly lists = new Map<string, TreeEntry[]>();
  private closed = false;

  /** `signal`: the run's; once it fired, a worktree given back is removed instead of made clean. */
  constructor(
    private readonly repo: Repo,
    private readonly signal?: AbortSignal,
  ) {}

  /** A worktree at `base` holding exactly the base tree, as a disk workspace; closing it gives it back. */
  async acquire(r: PoolRequest): Promise<DiskWorkspace> {
    const list = this.listOf(r.base, r.entries);
    let slot = await this.reused(r, list);
    if (slot === null) {
      r.log(`checking out ${plural(list.length, 'file')}`);
      const path = join(scionWorktreesDir(this.repo), `${POOL_PREFIX}${ownerPart()}-${randomBytes(4).toString('hex')}`);
      const lockedBy = formatOwner(currentOwner(), r.job);
      try {
        slot = { wt: await addWorktree(this.repo, { path, commit: r.base, entries: list, lockedBy, ...(r.signal ? { signal: r.signal } : {}) }), base: r.base };
      } catch (e) {
        // addWorktree removed the folder and git's admin folder it had made.
        if (isScionError(e, 'interrupted')) r.log(`${e.message} The worktree was removed.`);
        throw e;
      }
    }
    const held = slot;
    const ws: DiskWorkspace = new DiskWorkspace(
      held.wt.path,
      this.repo,
      r.entries,
      () => worktreeChanges(this.repo, held.wt, list),
      // The job's head tree is the base with the job's changes: the files on disk already hold it.
      async (o) => this.giveBack(held, o.head ? { commit: o.head.commit, entries: headEntries(r.entries, ws.changes()) } : null, list),
    );
    return ws;
  }

  /** Removes the idle worktrees now, and each one still in use when its job gives it back. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = [...this.idle.values()].flat();
    this.idle.clear();
    for (const slot of idle) await this.remove(slot);
  }

  /** An idle worktree of the base, reset for this job; null when there is none (or it could not be reset: it is dropped). */
  private async reused(r: PoolRequest, list: readonly TreeEntry[]): Promise<Slot | null> {
    const slot = this.idle.get(r.base)?.pop();
    if (slot === undefined) return null;
    try {
      // Written beside and renamed over: `scion worktrees --prune` or another run's sweep reading the
      // marker meanwhile sees the old owner line or the new one, never an empty file (taken for stale).
      writeFileLocked(join(slot.wt.adminDir, 'locked'), formatOwner(currentOwner(), r.job));
      const done = await resetWorktree(this.repo, slot.wt, list, { commit: r.base, ...(r.signal ? { signal: r.signal } : {}) });
      r.log(`reusing a worktree of the base (${plural(done.written, 'file')} written again, ${plural(done.removed, 'path')} removed)`);
      return slot;
    } catch (e) {
      await this.remove(slot);
      if (isScionError(e, 'interrupted')) {
        r.log(`${e.message} The worktree was removed.`);
        throw e;
      }
      r.log(`could not reset a worktree of the base for reuse (${e instanceof Error ? e.message : String(e)}); checking out a new one`);
      return null;
    }
  }

  /**
   * Back to the pool, clean under `git status` while it waits, detached: at the head its job
   * committed (HEAD and index moved; only paths whose content differs from the disk are written,
   * and the files on disk already are the job's result), else reset to the base, whatever a command
   * left removed. Ignored build output a committed job's commands made waits there until the next
   * job's reset. One that cannot be made clean, or given back once the run is closing or
   * interrupted, is removed.
   */
  private async giveBack(
    slot: Slot,
    head: { readonly commit: string; readonly entries: readonly TreeEntry[] } | null,
    base: readonly TreeEntry[],
  ): Promise<void> {
    if (this.closed || this.signal?.aborted) return this.remove(slot);
    try {
      if (head !== null) await setWorktreeHead(this.repo, slot.wt, head);
      else await resetWorktree(this.repo, slot.wt, base, { commit: slot.base, ...(this.signal ? { signal: this.signal } : {}) });
    } catch {
      return this.remove(slot);
    }
    if (this.closed) return this.remove(slot);
    const idle = this.idle.get(slot.base) ?? [];
    idle.push(slot);
    this.idle.set(slot.base, idle);
  }

  /** Best effort: a worktree that cannot be removed is left locked by this (soon gone) run, for the next run to clear. */
  private async remove(slot: Slot): Promise<void> {
    await clearWorktree(this.repo, slot.wt.id).catch(() => undefined);
  }

  private listOf(base: string, entries: ReadonlyMap<string, TreeEntry>): TreeEntry[] {
    let list = this.lists.get(base);
    if (list === undefined) {
      list = [...entries.values()];
      this.lists.set(base, list);
    }
    return list;
  }
}

/**
 * Removes the pooled worktrees of runs that are gone (killed, crashed): those whose `locked` marker
 * names an owner no longer alive, or none, and folders a run made before it could write git's admin
 * files (named after their owner, so one is judged even then). A live run's are left alone, and so
 * is any worktree outside scion's worktrees folder, whatever its name.
 */
export async function sweepPools(repo: Repo): Promise<void> {
  const listed = new Set<string>();
  for (const w of await listWorktrees(repo)) {
    if (!w.id.startsWith(POOL_PREFIX) || !isInScionDir(repo, w.path)) continue;
    listed.add(basename(w.path));
    const owner = worktreeOwner(repo, w.id);
    if (owner !== null && owner !== 'stale') continue;
    await clearWorktree(repo, w.id).catch(() => undefined);
  }
  const dir = scionWorktreesDir(repo);
  for (const name of namesIn(dir).filter((n) => n.startsWith(POOL_PREFIX))) {
    const m = /^(\d+)-(\d+|x)-/.exec(name.slice(POOL_PREFIX.length));
    if (listed.has(name) || m === null) continue;
    if (ownerAlive({ pid: Number(m[1]), start: m[2] === 'x' ? null : m[2]!, host: hostname() })) continue;
    await clearWorktree(repo, name).catch(() => undefined);
  }
}

/** pid and start time of this process, as a folder name part. */
function ownerPart(): string {
  const me = currentOwner();
  return `${me.pid}-${me.start ?? 'x'}`;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
