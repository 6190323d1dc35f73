// From planned commits to git objects. The store decides whether objects are written (a run) or only
// hashed (a dry run: `.git` must stay byte-identical); everything else is the same code.
import { failure, fail, ok, type Result } from '../errors.js';
import { hashBlob, updateRef, writeBlob, writeCommit, writeTreeWith, type DryRunObjects, type Identity, type Repo } from '../git/index.js';
import type { PlannedCommit } from './commit-plan.js';

export interface ObjectStore {
  blob(bytes: Uint8Array): Promise<string>;
  tree(base: string, changes: ReadonlyMap<string, { oid: string; mode: string } | null>): Promise<string>;
}

export function writingStore(repo: Repo): ObjectStore {
  return {
    blob: (bytes) => writeBlob(repo, bytes),
    tree: (base, changes) => writeTreeWith(repo, base, changes),
  };
}

export function hashingStore(repo: Repo): ObjectStore {
  const memory: DryRunObjects = new Map();
  return {
    blob: async (bytes) => hashBlob(bytes),
    tree: (base, changes) => writeTreeWith(repo, base, changes, { dryRun: memory }),
  };
}

export interface PlannedTree extends PlannedCommit {
  readonly tree: string;
}

export interface BuiltTrees {
  readonly commits: readonly PlannedTree[];
  /** Blob id of every changed path that still exists. */
  readonly oids: ReadonlyMap<string, string>;
}

/** Each group's tree, built on the previous group's: the chain of trees the commits will carry. */
export async function buildTrees(store: ObjectStore, baseTree: string, plan: readonly PlannedCommit[]): Promise<BuiltTrees> {
  const commits: PlannedTree[] = [];
  const oids = new Map<string, string>();
  let tree = baseTree;
  for (const p of plan) {
    const changes = new Map<string, { oid: string; mode: string } | null>();
    for (const [path, state] of p.changes) {
      if (state === null) {
        changes.set(path, null);
        continue;
      }
      const oid = await store.blob(state.bytes);
      oids.set(path, oid);
      changes.set(path, { oid, mode: state.mode });
    }
    tree = await store.tree(tree, changes);
    commits.push({ ...p, tree });
  }
  return { commits, oids };
}

export async function writeCommits(
  repo: Repo,
  o: { ref: string; base: string; commits: readonly PlannedTree[]; expectedOld: string | null; identity: Identity; now: Date },
): Promise<Result<{ head: string; shas: string[] }>> {
  const who: Identity = { name: o.identity.name, email: o.identity.email, timestamp: Math.floor(o.now.getTime() / 1000), timezoneOffset: 0 };
  const shas: string[] = [];
  let parent = o.base;
  for (const c of o.commits) {
    parent = await writeCommit(repo, { tree: c.tree, parents: [parent], message: c.message, author: who, committer: who });
    shas.push(parent);
  }
  try {
    await updateRef(repo, o.ref, parent, o.expectedOld);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return fail(failure('branch-diverged', `Could not move ${o.ref.replace('refs/heads/', '')}: ${why}`, { ref: o.ref }));
  }
  return ok({ head: parent, shas });
}
