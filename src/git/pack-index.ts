// A pack's .idx (version 2): the object names in order, then their offsets in the pack (format:
// Documentation/gitformat-pack.txt). A small index is read whole. A large one (a monorepo's: 17 MB
// for 600,000 objects) is read in pieces as lookups need them: the names under one first byte at a
// time, the offsets as one table. Reading a few objects (a 1-file job) then reads a few hundred KB
// of it instead of all; reading every object reads it all once, as before. The handle stays open,
// so an index `git repack -d` deleted meanwhile stays readable, like the pack itself. A scan's
// worker threads use the index in memory they share with the main thread (read whole then, once).
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { ScionError } from '../errors.js';
import { errnoCode, gitError } from './errors.js';
import { readAt } from './read-at.js';

const HEADER = 8 + 256 * 4;

/** The .pack (or its .idx) went away after it was first opened (`git repack -d` replaced it): kind `pack-gone`; rescan and retry. */
export function packGone(path: string, cause: unknown): ScionError {
  return gitError('pack-gone', `${path} was removed while scion was reading it`, { path }, cause);
}

export class PackIndex {
  readonly count: number;
  private readonly offStart: number;
  private readonly largeStart: number;
  /** The object names under each first byte, as read. */
  private readonly names: (Buffer | undefined)[] = new Array<Buffer | undefined>(256);
  private offsets: Buffer | null = null;
  private large: Buffer | null = null;

  private constructor(
    readonly path: string,
    private readonly header: Buffer,
    private readonly size: number,
    /** The whole file, when it was read whole. */
    private whole: Buffer | null,
    private fd: number | null,
  ) {
    if (size < HEADER + 40 || header.readUInt32BE(0) !== 0xff744f63 || header.readUInt32BE(4) !== 2) {
      throw gitError('unsupported', `${path} is not a version 2 pack index; run \`git gc\`.`);
    }
    this.count = header.readUInt32BE(8 + 255 * 4);
    this.offStart = HEADER + this.count * 24;
    this.largeStart = this.offStart + this.count * 4;
    if (this.largeStart + 40 > size) throw this.truncated();
  }

  /** The index at `path`: read whole up to `wholeIndexLimit` bytes, else in pieces. */
  static open(path: string, wholeIndexLimit: number): PackIndex {
    const fd = openSync(path, 'r');
    let kept = false;
    try {
      const size = fstatSync(fd).size;
      if (size <= wholeIndexLimit) {
        const whole = readFileSync(fd);
        return new PackIndex(path, whole, whole.length, whole, null);
      }
      const header = Buffer.alloc(HEADER);
      // A file shorter than the header leaves zeros in it, which the constructor refuses.
      readAt(fd, header, 0);
      const index = new PackIndex(path, header, size, null, fd);
      kept = true;
      return index;
    } finally {
      if (!kept) closeSync(fd);
    }
  }

  /** The index another thread reads: `sab` holds the whole file (what `share()` gave). */
  static fromShared(path: string, sab: SharedArrayBuffer): PackIndex {
    const whole = Buffer.from(sab);
    return new PackIndex(path, whole, whole.length, whole, null);
  }

  /**
   * The whole index in memory other threads can share (read whole now, once, if it was read in
   * pieces; the pieces are dropped for it).
   */
  share(): SharedArrayBuffer {
    if (this.whole !== null && this.whole.buffer instanceof SharedArrayBuffer) return this.whole.buffer;
    const shared = Buffer.from(new SharedArrayBuffer(this.size));
    if (this.whole !== null) this.whole.copy(shared);
    else if (readAt(this.handle(), shared, 0) < this.size) throw this.truncated();
    this.whole = shared;
    this.names.fill(undefined);
    this.offsets = null;
    this.large = null;
    this.close();
    return shared.buffer as SharedArrayBuffer;
  }

  /** Position of `oid` (20 raw bytes) in the index, or -1. */
  indexOf(oid: Buffer): number {
    const first = oid[0] as number;
    const start = this.first(first);
    const names = this.namesOf(first);
    let lo = 0;
    let hi = names.length / 20;
    // Compared a 32-bit word at a time in JavaScript: Buffer.compare's call into C++ cost more than the comparison.
    const w0 = oid.readUInt32BE(0);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = mid * 20;
      let c = names.readUInt32BE(at) - w0;
      for (let k = 4; c === 0 && k < 20; k += 4) c = names.readUInt32BE(at + k) - oid.readUInt32BE(k);
      if (c === 0) return start + mid;
      // > 0: the idx entry sorts after the oid we look for.
      if (c > 0) hi = mid;
      else lo = mid + 1;
    }
    return -1;
  }

  /** Full oids in this pack that start with `hex` (at most `limit`). */
  findPrefix(hex: string, limit: number): string[] {
    const names = this.namesOf(parseInt(hex.slice(0, 2), 16));
    const out: string[] = [];
    for (let at = 0; at < names.length && out.length < limit; at += 20) {
      const s = names.toString('hex', at, at + 20);
      if (s.startsWith(hex)) out.push(s);
      else if (out.length > 0) break;
    }
    return out;
  }

  /** The pack offset of the object at position `i`. */
  offsetAt(i: number): number {
    this.offsets ??= this.piece(this.offStart, this.count * 4);
    const off = this.offsets.readUInt32BE(i * 4);
    if (!(off & 0x80000000)) return off;
    this.large ??= this.piece(this.largeStart, this.size - 40 - this.largeStart);
    const at = (off & 0x7fffffff) * 8;
    if (at + 8 > this.large.length) throw this.truncated();
    return Number(this.large.readBigUInt64BE(at));
  }

  /** The pack's own checksum, as the index recorded it (the pack must end with the same 20 bytes). */
  packChecksum(): Buffer {
    return this.piece(this.size - 40, 20);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** The position of the first object whose name starts with byte `b`. */
  private first(b: number): number {
    return b === 0 ? 0 : this.header.readUInt32BE(8 + (b - 1) * 4);
  }

  private namesOf(b: number): Buffer {
    const known = this.names[b];
    if (known !== undefined) return known;
    const start = this.first(b);
    const end = this.header.readUInt32BE(8 + b * 4);
    if (end < start || end > this.count) throw gitError('corrupt', `${this.path} is damaged (its fan-out table is out of order); run \`git fsck\`.`);
    return (this.names[b] = this.piece(HEADER + start * 20, (end - start) * 20));
  }

  /** `length` bytes at `at`: a view of the whole file, or read from the handle (opened again after close()). */
  private piece(at: number, length: number): Buffer {
    if (this.whole !== null) return this.whole.subarray(at, at + length);
    const buf = Buffer.allocUnsafe(length);
    if (readAt(this.handle(), buf, at) < length) throw this.truncated();
    return buf;
  }

  /** The open handle (opened again after close()). */
  private handle(): number {
    if (this.fd === null) {
      try {
        this.fd = openSync(this.path, 'r');
      } catch (err) {
        if (errnoCode(err) === 'ENOENT') throw packGone(this.path, err);
        throw err;
      }
    }
    return this.fd;
  }

  private truncated(): ScionError {
    return gitError('corrupt', `${this.path} is shorter than its object count says; run \`git fsck\`.`);
  }
}
