// One job's new objects, written together so that native git beside scion cannot lose them.
// A loose object nothing reaches yet is fair game for `git gc --prune=now` / `git prune
// --expire=now`, which delete unreachable loose objects whatever their age, and for `git repack -a
// -d`, which drops unreachable objects of the packs it replaces. git's own answer for objects that
// arrive before their ref (receive-pack, fetch) is a pack with a .keep file: prune never deletes
// packs and repack leaves kept packs alone. The batch does the same: objects stay in memory while
// the job builds them, `persist()` writes them as one kept pack, the caller moves the ref, and
// `release()` drops the .keep (the ref now reaches every object).
import { rmSync } from 'node:fs';
import { commitBytes, type NewCommit } from './commit.js';
import { gitError } from './errors.js';
import { hashObject } from './hash.js';
import { writeKeptPack } from './pack-write.js';
import { assertWritable, repoState, type Repo } from './repo.js';
import { writeTreeWith, type DryRunObjects, type TreeChange } from './write-tree.js';

export class ObjectBatch {
  private readonly objects: DryRunObjects = new Map();
  private keepPath: string | null = null;

  constructor(private readonly repo: Repo) {}

  blob(bytes: Uint8Array): string {
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const oid = hashObject('blob', data);
    this.objects.set(oid, { type: 'blob', data });
    return oid;
  }

  async tree(baseTree: string, changes: ReadonlyMap<string, TreeChange>): Promise<string> {
    return writeTreeWith(this.repo, baseTree, changes, { dryRun: this.objects });
  }

  commit(c: NewCommit): string {
    const store = repoState(this.repo).store;
    for (const oid of [c.tree, ...c.parents]) {
      if (!this.objects.has(oid) && !store.has(oid)) throw gitError('missing-object', `Cannot commit: object ${oid} is not in the repository.`, { oid });
    }
    const data = commitBytes(c);
    const oid = hashObject('commit', data);
    this.objects.set(oid, { type: 'commit', data });
    return oid;
  }

  /** Writes the objects as one pack kept by a .keep file; they are readable through the repo at once. */
  persist(reason: string): void {
    if (this.objects.size === 0 || this.keepPath !== null) return;
    assertWritable(this.repo);
    const written = writeKeptPack(repoState(this.repo).store.objectsDir, this.objects, reason);
    this.keepPath = written.keepPath;
    repoState(this.repo).store.refresh();
  }

  /** Lets `git gc` treat the pack like any other (call once a ref reaches its objects, or to give up). */
  release(): void {
    if (this.keepPath === null) return;
    rmSync(this.keepPath, { force: true });
    this.keepPath = null;
  }
}
