// One packfile and its .idx (version 2), read without loading the whole pack when it is large.
// Format: Documentation/gitformat-pack.txt. isomorphic-git reads packs too, but measured on a
// 30k-file repository it took 14 s to read every blob (pako inflate, one readdir + one failed
// loose-object open per read); this reader does it in about 1 s with node:zlib and a base cache.
import type { ScionError } from '../errors.js';
import { applyDelta } from './delta.js';
import { gitError, isGitError } from './errors.js';
import { inflateSized } from './inflate.js';
import type { ObjectType } from './hash.js';
import type { ByteLru } from './lru.js';
import { PackBytes } from './pack-bytes.js';
import { PackIndex } from './pack-index.js';
import type { PackReading } from './read-settings.js';

export interface RawObject {
  readonly type: ObjectType;
  readonly data: Buffer;
}

/** A pack as it crosses to a worker thread: its index stays in memory both threads share. */
export interface SharedPack {
  readonly packPath: string;
  readonly idxPath: string;
  readonly idx: SharedArrayBuffer;
}

/** Reads a REF_DELTA base that may live in another pack or loose. */
export type ExternalReader = (oid: string) => RawObject;

/** Larger than any buffer Node can make: a size beyond it is a damaged header. */
const MAX_OBJECT = 2 ** 31 - 1;
const TYPES: readonly (ObjectType | null)[] = [null, 'commit', 'tree', 'blob', 'tag'];
/** Read first at an object's offset: its header and, for most objects (trees, small blobs), all of its data. */
const FIRST_READ = 1024;
const OFS_DELTA = 6;
const REF_DELTA = 7;

export class Pack {
  /** The .pack file's bytes, opened on the first read. */
  private bytes: PackBytes | null = null;
  private ends: Float64Array | null = null;

  private constructor(
    readonly packPath: string,
    private readonly idx: PackIndex,
    /** Small per-store number of this pack: cache keys are packNo * 2^40 + offset. */
    private readonly packNo: number,
    private readonly cache: ByteLru<RawObject>,
    private readonly reading: PackReading,
  ) {}

  static open(idxPath: string, packNo: number, cache: ByteLru<RawObject>, reading: PackReading): Pack {
    return new Pack(idxPath.replace(/\.idx$/, '.pack'), PackIndex.open(idxPath, reading.wholeIndexLimit), packNo, cache, reading);
  }

  /** The same pack in another thread: `shared` is what `share()` gave there. */
  static fromShared(shared: SharedPack, packNo: number, cache: ByteLru<RawObject>, reading: PackReading): Pack {
    return new Pack(shared.packPath, PackIndex.fromShared(shared.idxPath, shared.idx), packNo, cache, reading);
  }

  /** What another thread needs to open this pack: its path, and its index in memory both share (read whole now if it was read in pieces). */
  share(): SharedPack {
    return { packPath: this.packPath, idxPath: this.idx.path, idx: this.idx.share() };
  }

  get count(): number {
    return this.idx.count;
  }

  /** Position of `oid` (20 raw bytes) in the index, or -1. */
  indexOf(oid: Buffer): number {
    return this.idx.indexOf(oid);
  }

  /** Full oids in this pack that start with `hex` (at most `limit`). */
  findPrefix(hex: string, limit: number): string[] {
    return this.idx.findPrefix(hex, limit);
  }

  /**
   * The object at index position `i`. `owned`: the caller may keep and change the buffer, so an
   * object the cache holds comes back as a copy (a blob read for itself is never cached: no copy).
   */
  readIndex(i: number, external: ExternalReader, owned = false): RawObject {
    return this.readOffset(this.offsetAt(i), external, owned);
  }

  /** The object that starts at `offset` (a position `offsetAt` gave); `owned` as for `readIndex`. */
  readOffset(offset: number, external: ExternalReader, owned = false): RawObject {
    const hit = this.cache.get(this.keyOf(offset));
    if (hit) return owned ? { type: hit.type, data: Buffer.from(hit.data) } : hit;
    const obj = this.readAt(offset, external, false);
    return owned && obj.type !== 'blob' ? { type: obj.type, data: Buffer.from(obj.data) } : obj;
  }

  /** Where the object at index position `i` starts in the .pack file. */
  offsetAt(i: number): number {
    return this.idx.offsetAt(i);
  }

  close(): void {
    this.bytes?.close();
    this.bytes = null;
    this.idx.close();
  }

  /** Numbers hash faster than strings; offsets stay below 2^40 (1 TiB packs). */
  private keyOf(offset: number): number {
    return this.packNo * 2 ** 40 + offset;
  }

  /**
   * `asBase`: the object is wanted to resolve a delta. Like git's delta-base cache, only those (and
   * trees and commits, which listing and tree rewriting read again and again) are kept: caching
   * every blob of a 30k-file checkout only churns memory.
   */
  private readAt(offset: number, external: ExternalReader, asBase: boolean): RawObject {
    const key = this.keyOf(offset);
    const hit = this.cache.get(key);
    if (hit) return hit;
    this.bytes ??= PackBytes.open(this.packPath, this.idx.packChecksum(), this.reading);
    if (offset < 12 || offset >= this.bytes.end) throw this.corrupt(offset, 'offset outside the pack');
    try {
      return this.parseAt(offset, key, external, asBase);
    } catch (err) {
      // Damaged bytes must end as `corrupt`, whatever part of the parse trips over them.
      if (isGitError(err)) throw err;
      throw this.corrupt(offset, (err as Error).message);
    }
  }

  /** Whether the pack was read into memory whole (else it is read at offsets). */
  get whole(): boolean {
    return this.bytes?.whole ?? false;
  }

  private parseAt(offset: number, key: number, external: ExternalReader, asBase: boolean): RawObject {
    // Packs store no lengths: read what the header says the object can take at most (a zlib
    // stream stops at its own end, so bytes of the next object after it are harmless).
    const bytes = this.bytes as PackBytes;
    let raw = bytes.view(offset, FIRST_READ);
    let p = 0;
    const next = (): number => {
      if (p >= raw.length) throw this.corrupt(offset, 'header runs past the pack');
      return raw[p++] as number;
    };
    let byte = next();
    const typeNo = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while (byte & 0x80) {
      byte = next();
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (size > MAX_OBJECT) throw this.corrupt(offset, `object size ${size} is not believable`);
    let back = 0;
    let baseOid: Buffer | null = null;
    if (typeNo === OFS_DELTA) {
      byte = next();
      back = byte & 0x7f;
      while (byte & 0x80) {
        byte = next();
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      if (back <= 0 || back > offset) throw this.corrupt(offset, 'delta base outside the pack');
    } else if (typeNo === REF_DELTA) {
      if (p + 20 > raw.length) throw this.corrupt(offset, 'header runs past the pack');
      baseOid = Buffer.from(raw.subarray(p, p + 20));
      p += 20;
    } else if (!TYPES[typeNo]) {
      throw this.corrupt(offset, `unknown object type ${typeNo}`);
    }
    const need = p + deflateBound(size);
    if (raw.length < need && offset + raw.length < bytes.end) raw = bytes.view(offset, need);
    // The delta is inflated before its base is read, so these bytes are not held across that read.
    const body = this.inflate(raw, p, size, offset);
    let result: RawObject;
    if (typeNo === OFS_DELTA) {
      const base = this.readAt(offset - back, external, true);
      result = { type: base.type, data: applyDelta(base.data, body) };
    } else if (baseOid !== null) {
      const i = this.indexOf(baseOid);
      const base = i >= 0 ? this.readAt(this.offsetAt(i), external, true) : external(baseOid.toString('hex'));
      result = { type: base.type, data: applyDelta(base.data, body) };
    } else {
      result = { type: TYPES[typeNo] as ObjectType, data: body };
    }
    if (asBase || result.type !== 'blob') this.cache.set(key, compact(result));
    return result;
  }

  /** Inflates the stream at `raw[p]` (`raw` starts at the object's `offset`); `size` is what it must give. */
  private inflate(raw: Buffer, p: number, size: number, offset: number): Buffer {
    let out: Buffer;
    try {
      // A damaged stream that inflates past its stated size stops there.
      out = inflateSized(raw.subarray(p), size);
    } catch (err) {
      // Cut short by the size bound (a stream some other packer wrote looser than zlib does):
      // inflate again from the exact extent of the object, which the index gives.
      const bytes = this.bytes as PackBytes;
      const short = (err as { code?: string }).code === 'Z_BUF_ERROR' && offset + raw.length < bytes.end;
      if (!short) throw this.corrupt(offset, (err as Error).message);
      try {
        out = inflateSized(bytes.view(offset, this.endOf(offset) - offset).subarray(p), size);
      } catch (again) {
        throw this.corrupt(offset, (again as Error).message);
      }
    }
    if (out.length !== size) throw this.corrupt(offset, `inflated to ${out.length} bytes, expected ${size}`);
    return out;
  }

  /**
   * Where the object at `offset` ends: the next object's offset (packs store no lengths). Needed only
   * when an object's stream is longer than zlib's bound for its size, so it is built on first use.
   */
  private endOf(offset: number): number {
    if (this.ends === null) {
      const ends = new Float64Array(this.count);
      for (let i = 0; i < this.count; i++) ends[i] = this.offsetAt(i);
      ends.sort();
      this.ends = ends;
    }
    const ends = this.ends;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ends[mid] as number) <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < ends.length ? (ends[lo] as number) : (this.bytes as PackBytes).end;
  }

  private corrupt(offset: number, what: string): ScionError {
    return gitError('corrupt', `The object at offset ${offset} of ${this.packPath} is damaged (${what}); run \`git fsck\`.`);
  }
}

/**
 * The most a zlib stream of `size` bytes takes (zlib's deflateBound, rounded up generously: stored
 * blocks add 5 bytes per 64 KB, the wrapper 6, a flush a few). A stream that is longer anyway is
 * read again at its exact extent.
 */
export function deflateBound(size: number): number {
  return size + Math.floor(size / 32) + 64;
}

/** A cached object keeps only its own bytes: a small buffer cut from Node's shared pool would hold the whole 8 KB block. */
function compact(obj: RawObject): RawObject {
  const d = obj.data;
  if (d.buffer.byteLength <= d.byteLength * 2) return obj;
  const own = Buffer.allocUnsafeSlow(d.byteLength);
  d.copy(own);
  return { type: obj.type, data: own };
}
