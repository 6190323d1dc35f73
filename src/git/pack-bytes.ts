// The bytes of one .pack file: read into memory whole when it is small, else read at offsets through
// an open handle (which also keeps a pack `git repack -d` deleted readable) and a read-ahead window.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { errnoCode, gitError } from './errors.js';
import { packGone } from './pack-index.js';
import { readAt } from './read-at.js';
import type { PackReading } from './read-settings.js';

export class PackBytes {
  /** Where the object data ends: the pack's trailer (its checksum) follows. */
  readonly end: number;
  /** The last bytes read ahead (in `windowBuffer`), and where they start. */
  private window: Buffer | null = null;
  private windowBuffer: Buffer | null = null;
  private windowStart = 0;
  /** Where the read before this one started: reads going forward from it are read ahead. */
  private lastStart = -1;

  private constructor(
    private data: Buffer | null,
    private fd: number | null,
    size: number,
    /** The read-ahead window (PackReading.readAhead). */
    private readonly readAhead: number,
  ) {
    this.end = size - 20;
  }

  /**
   * Opens the pack at `path`, which must end with `trailer` (the checksum its .idx names); a pack cut
   * short is `corrupt`. `reading` says whether it is read whole and how far ahead otherwise.
   */
  static open(path: string, trailer: Buffer, reading: Pick<PackReading, 'wholePackLimit' | 'readAhead'>): PackBytes {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') throw packGone(path, err);
      throw err;
    }
    let kept = false;
    try {
      const size = fstatSync(fd).size;
      const found = Buffer.alloc(20);
      // The smallest pack is its 12-byte header and its 20-byte trailer.
      if (size < 12 + 20 || readAt(fd, found, size - 20) < 20 || !found.equals(trailer)) {
        throw gitError('corrupt', `${path} does not match its .idx file (cut short or replaced); run \`git fsck\`.`, { path });
      }
      if (size > reading.wholePackLimit) {
        kept = true;
        return new PackBytes(null, fd, size, reading.readAhead);
      }
      const data = Buffer.allocUnsafe(size);
      if (readAt(fd, data, 0) < size) throw gitError('corrupt', `${path} became shorter while scion was reading it; run \`git fsck\`.`, { path });
      return new PackBytes(data, null, size, reading.readAhead);
    } finally {
      if (!kept) closeSync(fd);
    }
  }

  /** Whether the pack is in memory whole (else it is read at offsets). */
  get whole(): boolean {
    return this.data !== null;
  }

  /**
   * The pack's bytes from `start`, at least `len` of them where the pack has them; valid until the
   * next call. A pack in memory gives the rest of itself. A pack on disk is read through a window:
   * when reads go forward in small steps (objects read in pack order, as a scan or a tree listing
   * mostly reads them), a miss reads `readAhead` bytes and the objects after it cost no read at all;
   * any other miss (a jump, a delta's base behind) is read alone and leaves the window as it was.
   */
  view(start: number, len: number): Buffer {
    const end = Math.min(start + len, this.end);
    if (this.data !== null) return this.data.subarray(start, this.end);
    const last = this.lastStart;
    this.lastStart = start;
    const win = this.window;
    if (win !== null && start >= this.windowStart && end <= this.windowStart + win.length) {
      return win.subarray(start - this.windowStart, end - this.windowStart);
    }
    const forward = start >= last && start - last <= this.readAhead;
    if (!forward || end - start > this.readAhead) return this.readInto(Buffer.allocUnsafeSlow(end - start), start);
    // One buffer for every window: callers use a view's bytes before they ask for the next.
    this.windowBuffer ??= Buffer.allocUnsafeSlow(this.readAhead);
    const next = this.readInto(this.windowBuffer.subarray(0, Math.min(this.readAhead, this.end - start)), start);
    this.window = next;
    this.windowStart = start;
    return next.subarray(0, Math.min(next.length, end - start));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.data = null;
    this.window = null;
    this.windowBuffer = null;
  }

  /** Fills `buf` from the pack at `start`; what was read (less at the end of a truncated file). */
  private readInto(buf: Buffer, start: number): Buffer {
    const done = readAt(this.fd as number, buf, start);
    return done === buf.length ? buf : buf.subarray(0, done);
  }
}
