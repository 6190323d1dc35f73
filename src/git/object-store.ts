// Every object of one repository: its packs, its loose objects and those of its alternates.
// One store per opened repository keeps pack indexes, pack data and a delta-base cache loaded
// across all the jobs of a run (the role isomorphic-git's `cache` object would have played).
import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { gitError, errnoCode, isGitError } from './errors.js';
import { EMPTY_TREE, hashObject, type ObjectType } from './hash.js';
import { readLoose, writeLoose } from './loose-object.js';
import { ByteLru } from './lru.js';
import { Pack, type RawObject, type SharedPack } from './pack.js';
import { PACK_READING, type PackReading } from './read-settings.js';

const CACHE_BYTES = 96 * 1024 * 1024;
const CACHE_MAX_ITEM = 8 * 1024 * 1024;
const EMPTY: RawObject = { type: 'tree', data: Buffer.alloc(0) };

export class ObjectStore {
  /** Own objects dir first, then alternates (objects/info/alternates), as git searches them. */
  private readonly dirs: string[];
  private readonly packs = new Map<string, Pack>();
  private readonly cache = new ByteLru<RawObject>(CACHE_BYTES, CACHE_MAX_ITEM);
  private scanned = false;
  /** Pack numbers key the shared cache, so a number is never reused for another pack. */
  private nextPackNo = 0;

  constructor(
    readonly objectsDir: string,
    /** The promisor remote when the repository is a partial clone (`git clone --filter`). */
    private readonly promisor: string | null = null,
    /** How packs and their indexes are read (worker threads of a scan read them the same way). */
    readonly reading: PackReading = PACK_READING,
  ) {
    this.dirs = [objectsDir, ...alternates(objectsDir, 0)];
  }

  /**
   * The object, or throws `missing-object`; in a partial clone, where missing objects are expected
   * (the promisor remote has them), `environment` with how to make them local.
   */
  read(oid: string, owned = false): RawObject {
    const found = this.tryRead(oid, owned);
    if (found !== null) return found;
    if (this.promisor !== null) {
      const gitDir = dirname(this.objectsDir);
      throw gitError(
        'environment',
        `Object ${oid} is not in ${gitDir}: the repository is a partial clone (git clone --filter) and scion reads only objects that are local; ` +
          `run scion in a clone made without --filter, or fetch the objects first ` +
          `(\`git --git-dir=${gitDir} cat-file -p ${oid}\` fetches this one from ${this.promisor}).`,
        { oid, path: gitDir, remote: this.promisor },
      );
    }
    throw gitError('missing-object', `Object ${oid} is not in the repository at ${this.objectsDir}; run \`git fsck\`.`, { oid });
  }

  /**
   * Packs first, then loose objects; when neither has it, look for packs written since the last
   * look (a concurrent `git gc` may have packed the loose object and pruned it between our two
   * looks) and try once more, as git's `read_object` re-scans objects/pack before giving up.
   */
  tryRead(oid: string, owned = false): RawObject | null {
    if (oid === EMPTY_TREE) return owned ? { type: 'tree', data: Buffer.alloc(0) } : EMPTY;
    const raw = Buffer.from(oid, 'hex');
    return this.fromPacks(raw, owned) ?? readLoose(this.dirs, oid) ?? (this.rescan() ? (this.fromPacks(raw, owned) ?? readLoose(this.dirs, oid)) : null);
  }

  /**
   * Every pack known now, in the order reads search them, as worker threads open them (see
   * Pack.share). A pack whose index is gone meanwhile is left out: its objects are read here.
   */
  sharedPacks(): SharedPack[] {
    const out: SharedPack[] = [];
    for (const pack of this.allPacks()) {
      try {
        out.push(pack.share());
      } catch (err) {
        if (!isGitError(err, 'pack-gone')) throw err;
      }
    }
    return out;
  }

  /** Whether the object exists. `rescan: false` skips looking for packs written since the last look. */
  has(oid: string, rescan = true): boolean {
    if (oid === EMPTY_TREE) return true;
    const raw = Buffer.from(oid, 'hex');
    const inPacks = (): boolean => {
      for (const pack of this.allPacks()) if (pack.indexOf(raw) >= 0) return true;
      return false;
    };
    if (inPacks()) return true;
    if (this.dirs.some((d) => existsSync(join(d, oid.slice(0, 2), oid.slice(2))))) return true;
    return rescan && this.rescan() && inPacks();
  }

  /**
   * Writes a loose object (loose-object.ts: a temp file and a rename). An object already present is
   * only freshened (mtime set to now), as git's `freshen_loose_object` does, so a prune by age
   * keeps it. Loose objects are unreachable until a ref reaches them, and `git gc --prune=now`
   * deletes such objects whatever their age: commits of a job go through `ObjectBatch` (a kept
   * pack) instead.
   */
  write(type: ObjectType, content: Uint8Array): string {
    const oid = hashObject(type, content);
    if (!this.freshen(oid)) writeLoose(this.objectsDir, oid, type, content);
    return oid;
  }

  /** True when the object exists; a loose one gets its mtime set to now. */
  private freshen(oid: string): boolean {
    if (oid === EMPTY_TREE) return true;
    const raw = Buffer.from(oid, 'hex');
    for (const pack of this.allPacks()) if (pack.indexOf(raw) >= 0) return true;
    const now = new Date();
    for (const d of this.dirs) {
      try {
        utimesSync(join(d, oid.slice(0, 2), oid.slice(2)), now, now);
        return true;
      } catch (err) {
        const code = errnoCode(err);
        // An alternate (or a read-only loose file we do not own) still holds the object.
        if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return true;
      }
    }
    return false;
  }

  /** Full oids starting with the lower-case hex `prefix` (4..39 chars); up to `limit` of them. */
  expand(prefix: string, limit = 16): string[] {
    const found = new Set<string>();
    this.rescan();
    for (const pack of this.allPacks()) for (const oid of pack.findPrefix(prefix, limit)) found.add(oid);
    for (const d of this.dirs) {
      let names: string[];
      try {
        names = readdirSync(join(d, prefix.slice(0, 2)));
      } catch {
        continue;
      }
      const rest = prefix.slice(2);
      for (const n of names) if (n.length === 38 && n.startsWith(rest)) found.add(prefix.slice(0, 2) + n);
    }
    return [...found].slice(0, limit);
  }

  /** Looks for packs written since the last look (one this process wrote, for one). */
  refresh(): void {
    this.rescan();
  }

  /** Drops loaded packs and cached objects (memory goes back to the pack's size, about). */
  close(): void {
    for (const pack of this.packs.values()) pack.close();
    this.packs.clear();
    this.cache.clear();
    this.scanned = false;
  }

  private fromPacks(raw: Buffer, owned: boolean): RawObject | null {
    for (let attempt = 0; ; attempt++) {
      try {
        for (const pack of this.allPacks()) {
          const i = pack.indexOf(raw);
          if (i >= 0) return pack.readIndex(i, (base) => this.read(base), owned);
        }
        return null;
      } catch (err) {
        // `git repack -a -d` deleted a pack we knew only by its .idx: forget it, look again.
        if (!isGitError(err, 'pack-gone') || attempt > 0) throw isGitError(err, 'pack-gone') ? err.cause : err;
        this.rescan();
      }
    }
  }

  private allPacks(): IterableIterator<Pack> {
    if (!this.scanned) this.rescan();
    return this.packs.values();
  }

  /**
   * Picks up packs written since the last look (a concurrent `git gc` or fetch) and forgets packs
   * that are gone (`git repack -d`). True if anything changed.
   */
  private rescan(): boolean {
    this.scanned = true;
    let changed = false;
    const seen = new Set<string>();
    for (const d of this.dirs) {
      let names: string[];
      try {
        names = readdirSync(join(d, 'pack'));
      } catch {
        continue;
      }
      for (const n of names) {
        if (!n.endsWith('.idx')) continue;
        const path = join(d, 'pack', n);
        seen.add(path);
        if (this.packs.has(path) || !existsSync(path.replace(/\.idx$/, '.pack'))) continue;
        let pack: Pack;
        try {
          pack = Pack.open(path, this.nextPackNo++, this.cache, this.reading);
        } catch (err) {
          // Deleted between readdir and open: a repack is replacing it.
          if (errnoCode(err) === 'ENOENT') continue;
          throw err;
        }
        this.packs.set(path, pack);
        changed = true;
      }
    }
    for (const [path, pack] of this.packs) {
      if (seen.has(path)) continue;
      pack.close();
      this.packs.delete(path);
      changed = true;
    }
    return changed;
  }
}

function alternates(objectsDir: string, depth: number): string[] {
  if (depth > 5) return [];
  let text: string;
  try {
    text = readFileSync(join(objectsDir, 'info', 'alternates'), 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    const dir = isAbsolute(l) ? l : resolve(objectsDir, l);
    out.push(dir, ...alternates(dir, depth + 1));
  }
  return out;
}
