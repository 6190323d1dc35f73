// git's index file ("DIRC"), Documentation/gitformat-index.txt. Written as version 2 (what
// `git worktree add` writes by default); read as version 2, 3 or 4. Written through index.lock with
// O_EXCL and a rename, like git, so a concurrent git never reads half an index.
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import { createHash } from 'node:crypto';
import { writeFileLocked } from './lockfile.js';
import { comparePaths } from './paths.js';

/** The stat fields git caches per entry, each truncated to 32 bits as git stores them. */
export interface StatData {
  readonly ctimeSec: number;
  readonly ctimeNsec: number;
  readonly mtimeSec: number;
  readonly mtimeNsec: number;
  readonly dev: number;
  readonly ino: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
}

export interface IndexEntry {
  readonly path: string;
  readonly oid: string;
  /** 0o100644, 0o100755, 0o120000 or 0o160000. */
  readonly mode: number;
  readonly stat: StatData;
}

export const ZERO_STAT: StatData = { ctimeSec: 0, ctimeNsec: 0, mtimeSec: 0, mtimeNsec: 0, dev: 0, ino: 0, uid: 0, gid: 0, size: 0 };

const U32 = 0xffffffffn;
const NS = 1_000_000_000n;

export function statData(st: BigIntStats): StatData {
  return {
    ctimeSec: Number((st.ctimeNs / NS) & U32),
    ctimeNsec: Number(st.ctimeNs % NS),
    mtimeSec: Number((st.mtimeNs / NS) & U32),
    mtimeNsec: Number(st.mtimeNs % NS),
    dev: Number(st.dev & U32),
    ino: Number(st.ino & U32),
    uid: Number(st.uid & U32),
    gid: Number(st.gid & U32),
    size: Number(st.size & U32),
  };
}

export function serializeIndex(entries: readonly IndexEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => comparePaths(a.path, b.path));
  const names = sorted.map((e) => Buffer.from(e.path, 'utf8'));
  let total = 12;
  for (const n of names) total += entryLength(n.length);
  const buf = Buffer.alloc(total + 20);
  buf.write('DIRC', 0, 'latin1');
  buf.writeUInt32BE(2, 4);
  buf.writeUInt32BE(sorted.length, 8);
  let p = 12;
  sorted.forEach((e, i) => {
    const name = names[i] as Buffer;
    const s = e.stat;
    for (const v of [s.ctimeSec, s.ctimeNsec, s.mtimeSec, s.mtimeNsec, s.dev, s.ino, e.mode, s.uid, s.gid, s.size]) {
      buf.writeUInt32BE(v >>> 0, p);
      p += 4;
    }
    buf.write(e.oid, p, 'hex');
    buf.writeUInt16BE(Math.min(name.length, 0xfff), p + 20);
    name.copy(buf, p + 22);
    // The rest of the entry (1–8 NULs) is already zero.
    p += entryLength(name.length) - 40;
  });
  createHash('sha1').update(buf.subarray(0, total)).digest().copy(buf, total);
  return buf;
}

/** 62 fixed bytes, the name, then NULs up to a multiple of 8 (at least one). */
function entryLength(nameLength: number): number {
  return (62 + nameLength + 8) & ~7;
}

/** Entries at stage 0, or null when the index uses a feature this reader skips (split index). */
export function parseIndex(buf: Buffer): IndexEntry[] | null {
  if (buf.length < 32 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const out: IndexEntry[] = [];
  let p = 12;
  let prev: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    if (p + 62 > buf.length) return null;
    const u = (k: number): number => buf.readUInt32BE(p + k * 4);
    const stat: StatData = { ctimeSec: u(0), ctimeNsec: u(1), mtimeSec: u(2), mtimeNsec: u(3), dev: u(4), ino: u(5), uid: u(7), gid: u(8), size: u(9) };
    const mode = u(6);
    const oid = buf.toString('hex', p + 40, p + 60);
    const flags = buf.readUInt16BE(p + 60);
    let q = p + 62 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let name: Buffer;
    if (version === 4) {
      // Path compression: drop N bytes from the previous path, append a NUL-terminated suffix.
      let byte = buf[q++] as number;
      let strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = buf[q++] as number;
        strip = (strip + 1) * 128 + (byte & 0x7f);
      }
      const nul = buf.indexOf(0, q);
      if (nul < 0) return null;
      name = Buffer.concat([prev.subarray(0, prev.length - strip), buf.subarray(q, nul)]);
      p = nul + 1;
    } else {
      const nul = buf.indexOf(0, q);
      if (nul < 0) return null;
      name = buf.subarray(q, nul);
      p += (q - p + name.length + 8) & ~7;
    }
    prev = name;
    const stage = (flags >> 12) & 3;
    // Conflict stages and sparse-directory entries carry no file's stat data.
    if (stage === 0 && mode !== 0o40000) out.push({ path: name.toString('utf8'), oid, mode, stat });
  }
  // Extensions: 4-byte signature, 4-byte size. A split index keeps entries elsewhere.
  while (p + 8 <= buf.length - 20) {
    if (buf.toString('latin1', p, p + 4) === 'link') return null;
    p += 8 + buf.readUInt32BE(p + 4);
  }
  return out;
}

export interface IndexFile {
  readonly entries: ReadonlyMap<string, IndexEntry>;
  /** The index file's own mtime: entries modified at or after it are "racily clean" and must be hashed. */
  readonly mtimeNs: bigint;
}

/** The index at `path`, or null when missing or unreadable (callers then hash instead of trusting stat). */
export function readIndexFile(path: string): IndexFile | null {
  let buf: Buffer;
  let mtimeNs: bigint;
  try {
    mtimeNs = statSync(path, { bigint: true }).mtimeNs;
    buf = readFileSync(path);
  } catch {
    return null;
  }
  const entries = parseIndex(buf);
  if (!entries) return null;
  return { entries: new Map(entries.map((e) => [e.path, e])), mtimeNs };
}

export function writeIndexFile(path: string, entries: readonly IndexEntry[]): void {
  writeFileLocked(path, serializeIndex(entries), 'a git command is running in that worktree');
}
