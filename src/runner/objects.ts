// From planned commits to git objects. The sinks decide whether objects are written (a run) or only
// hashed (a dry run: `.git` must stay byte-identical); everything else is the same code.
import { failure, fail, ok, type Result } from '../errors.js';
import { isGitError, hashBlob, ObjectBatch, updateRef, writeTreeWith, type DryRunObjects, type Identity, type Repo, type Signatures } from '../git/index.js';
import { parseTrailers } from '../branch/trailers.js';
import type { PlannedCommit } from './commit-plan.js';
import { yieldToSignals } from './interrupt.js';

type Changes = ReadonlyMap<string, { oid: string; mode: string } | null>;

/** Where one job's blobs and trees go. */
export interface JobObjects {
  blob(bytes: Uint8Array): Promise<string>;
  tree(base: string, changes: Changes): Promise<string>;
  /** A run's objects, written as one kept pack by `writeCommits`; null in a dry run. */
  readonly batch: ObjectBatch | null;
}

/** A run's choice of where objects go (written or only hashed), not git's object store (git/object-store.ts). */
export interface ObjectSinks {
  /** A sink for one job's objects. */
  open(): JobObjects;
}

/**
 * A run: each job's objects stay in memory until `writeCommits` writes them as one kept pack, so a
 * `git gc --prune=now` beside scion cannot delete them before the branch reaches them (and a job
 * that ends unchanged or diverged writes nothing at all).
 */
export function writingSinks(repo: Repo): ObjectSinks {
  return {
    open: () => {
      const batch = new ObjectBatch(repo);
      return { blob: async (bytes) => batch.blob(bytes), tree: (base, changes) => batch.tree(base, changes), batch };
    },
  };
}

export function hashingSinks(repo: Repo): ObjectSinks {
  const memory: DryRunObjects = new Map();
  const sink: JobObjects = {
    blob: async (bytes) => hashBlob(bytes),
    tree: (base, changes) => writeTreeWith(repo, base, changes, { dryRun: memory }),
    batch: null,
  };
  return { open: () => sink };
}

export interface PlannedTree extends PlannedCommit {
  readonly tree: string;
  /** Where the tree's objects wait to be written (a run). */
  readonly objects?: ObjectBatch | null;
}

export interface BuiltTrees {
  readonly commits: readonly PlannedTree[];
}

/** Each group's tree, built on the previous group's: the chain of trees the commits will carry. */
export async function buildTrees(sinks: ObjectSinks, baseTree: string, plan: readonly PlannedCommit[]): Promise<BuiltTrees> {
  const store = sinks.open();
  const commits: PlannedTree[] = [];
  let tree = baseTree;
  for (const p of plan) {
    const changes = new Map<string, { oid: string; mode: string } | null>();
    for (const [path, state] of p.changes) {
      if (state === null) {
        changes.set(path, null);
        continue;
      }
      changes.set(path, { oid: await store.blob(state.bytes), mode: state.mode });
    }
    tree = await store.tree(tree, changes);
    commits.push({ ...p, tree, objects: store.batch });
  }
  return { commits };
}

/**
 * Writes the commits (one kept pack with the job's blobs and trees) and moves the branch, with a
 * reflog entry `scion: <recipe>/<job>` as git's own commands leave one. `identity` may carry the
 * committer and dates the environment gave (GIT_COMMITTER_*, GIT_*_DATE: see commitSignatures);
 * what it leaves undated is dated `now`, in UTC.
 */
export async function writeCommits(
  repo: Repo,
  o: {
    ref: string;
    base: string;
    commits: readonly PlannedTree[];
    expectedOld: string | null;
    identity: Identity | Signatures;
    now: Date;
    /** The run's interrupt: looked at before anything is written, and under the ref's lock. */
    signal?: AbortSignal;
  },
): Promise<Result<{ head: string; shas: string[] }>> {
  const branch = o.ref.replace('refs/heads/', '');
  const stopped = () => fail(failure('interrupted', `The run was interrupted before ${branch} was written; it is as it was. Run again.`, { ref: o.ref }));
  // An interrupt already sent is seen here (one turn of the event loop), before any object is written.
  await yieldToSignals();
  if (o.signal?.aborted) return stopped();
  const seconds = Math.floor(o.now.getTime() / 1000);
  const dated = (who: Identity): Identity => ({
    name: who.name,
    email: who.email,
    timestamp: who.timestamp ?? seconds,
    timezoneOffset: who.timestamp === undefined ? 0 : (who.timezoneOffset ?? 0),
  });
  const author = dated(o.identity);
  const committer = 'committer' in o.identity ? dated(o.identity.committer) : author;
  const shas: string[] = [];
  let parent = o.base;
  const batch = o.commits[0]?.objects ?? new ObjectBatch(repo);
  for (const c of o.commits) {
    parent = batch.commit({ tree: c.tree, parents: [parent], message: c.message, author, committer });
    shas.push(parent);
  }
  const trailers = parseTrailers(o.commits[0]?.message ?? '');
  const message = `scion: ${trailers['Scion-Recipe'] ?? '?'}/${trailers['Scion-Job'] ?? '?'}`;
  try {
    batch.persist(`scion ${process.pid}: ${o.ref}`);
    await updateRef(repo, o.ref, parent, o.expectedOld, { log: { who: committer, message }, ...(o.signal ? { signal: o.signal } : {}) });
  } catch (e) {
    if (isGitError(e, 'interrupted')) return stopped();
    if (isGitError(e, 'environment')) return fail(failure('environment', e.message, { ...e.data }));
    if (isGitError(e, 'locked')) {
      // A lock nothing proves stale (native git's, or one a killed git left): the fix is the user's.
      const command = typeof e.data['command'] === 'string' ? e.data['command'] : null;
      const hint =
        command === null
          ? undefined
          : `If no git process is running in this repository, the lock was left by one that was killed: remove it (\`${command}\`) and run again.`;
      return fail(failure('locked', `Could not move ${branch}: ${e.message}`, { ref: o.ref, ...(e.data['lock'] ? { lock: e.data['lock'] } : {}) }, hint));
    }
    const why = e instanceof Error ? e.message : String(e);
    return fail(failure('branch-diverged', `Could not move ${branch}: ${why}`, { ref: o.ref }));
  } finally {
    // Reached by the ref now (or given up): the pack is git gc's like any other.
    batch.release();
  }
  return ok({ head: parent, shas });
}
