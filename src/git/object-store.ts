// Every object of one repository: its packs, its loose objects and those of its alternates.
// One store per opened repository keeps pack indexes, pack data and a delta-base cache loaded
// across all the jobs of a run (the role isomorphic-git's `cache` object would have played).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { GitError, errnoCode } from './errors.js';
import { EMPTY_TREE, hashObject, objectHeader, type ObjectType } from './hash.js';
import { ByteLru } from './lru.js';
import { Pack, type RawObject } from './pack.js';

const CACHE_BYTES = 96 * 1024 * 1024;
const CACHE_MAX_ITEM = 8 * 1024 * 1024;
const EMPTY: RawObject = { type: 'tree', data: Buffer.alloc(0) };

export class ObjectStore {
  /** Own objects dir first, then alternates (objects/info/alternates), as git searches them. */
  private readonly dirs: string[];
  private readonly packs = new Map<string, Pack>();
  private readonly cache = new ByteLru<RawObject>(CACHE_BYTES, CACHE_MAX_ITEM);
  private scanned = false;

  constructor(readonly objectsDir: string) {
    this.dirs = [objectsDir, ...alternates(objectsDir, 0)];
  }

  /** The object, or throws `missing-object`. */
  read(oid: string): RawObject {
    const found = this.tryRead(oid);
    if (found === null) {
      throw new GitError('missing-object', `Object ${oid} is not in the repository at ${this.objectsDir}; run \`git fsck\`.`, { oid });
    }
    return found;
  }

  tryRead(oid: string): RawObject | null {
    if (oid === EMPTY_TREE) return EMPTY;
    const raw = Buffer.from(oid, 'hex');
    return this.fromPacks(raw) ?? this.fromLoose(oid) ?? (this.rescan() ? this.fromPacks(raw) : null);
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
   * Writes a loose object (zlib level 1, git's core.looseCompression default) through a temp file
   * and a rename, so a concurrent reader never sees half an object. Skips objects already present.
   */
  write(type: ObjectType, content: Uint8Array): string {
    const oid = hashObject(type, content);
    if (this.has(oid, false)) return oid;
    const dir = join(this.objectsDir, oid.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    // git's own temp-file prefix: `git prune` removes stale ones.
    const tmp = join(dir, `tmp_obj_${process.pid}_${randomBytes(6).toString('hex')}`);
    const body = deflateSync(Buffer.concat([objectHeader(type, content.length), content]), { level: 1 });
    writeFileSync(tmp, body, { mode: 0o444, flag: 'wx' });
    renameSync(tmp, join(dir, oid.slice(2)));
    return oid;
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

  /** Drops loaded packs and cached objects (memory goes back to the pack's size, about). */
  close(): void {
    for (const pack of this.packs.values()) pack.close();
    this.packs.clear();
    this.cache.clear();
    this.scanned = false;
  }

  private fromPacks(raw: Buffer): RawObject | null {
    for (const pack of this.allPacks()) {
      const i = pack.indexOf(raw);
      if (i >= 0) return pack.readIndex(i, (base) => this.read(base));
    }
    return null;
  }

  private fromLoose(oid: string): RawObject | null {
    for (const d of this.dirs) {
      let file: Buffer;
      try {
        file = readFileSync(join(d, oid.slice(0, 2), oid.slice(2)));
      } catch (err) {
        if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') continue;
        throw err;
      }
      return parseLoose(oid, inflateLoose(oid, file));
    }
    return null;
  }

  private allPacks(): IterableIterator<Pack> {
    if (!this.scanned) this.rescan();
    return this.packs.values();
  }

  /** Picks up packs written since the last look (a concurrent `git gc` or fetch). True if any. */
  private rescan(): boolean {
    this.scanned = true;
    let added = false;
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
        if (this.packs.has(path) || !existsSync(path.replace(/\.idx$/, '.pack'))) continue;
        this.packs.set(path, Pack.open(path, this.packs.size, this.cache));
        added = true;
      }
    }
    return added;
  }
}

function inflateLoose(oid: string, file: Buffer): Buffer {
  try {
    return inflateSync(file);
  } catch (err) {
    throw new GitError('corrupt', `Loose object ${oid} is damaged (${(err as Error).message}); run \`git fsck\`.`, { oid });
  }
}

function parseLoose(oid: string, buf: Buffer): RawObject {
  const nul = buf.indexOf(0);
  const [type, size] = buf.toString('latin1', 0, Math.max(nul, 0)).split(' ');
  const data = buf.subarray(nul + 1);
  if (nul < 0 || !['commit', 'tree', 'blob', 'tag'].includes(type ?? '') || Number(size) !== data.length) {
    throw new GitError('corrupt', `Loose object ${oid} has a bad header; run \`git fsck\`.`, { oid });
  }
  return { type: type as ObjectType, data };
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
