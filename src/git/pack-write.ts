// Writing a pack (version 2) and its .idx (version 2) from objects held in memory, the way
// `git index-pack --keep` leaves a pushed pack: a .keep file first, then the .pack, then the .idx
// (readers find packs by their .idx). The .keep and the temporary files name their writer, so what a
// killed writer left is found and cleared by a later run (kept-packs.ts). Objects are stored whole
// (no deltas): a job's new objects are few and mostly unlike each other; `git gc` deltifies them later.
//
// A pack is never written under a name that exists. A pack's name is the hash of its bytes, so the
// same objects encoded the same way give the same name, and a pack of this name may be there
// unkept (a job given up, a killed run's pack whose .keep a later run cleared, commits made again
// with the same dates): a `git repack -a -d` that listed it before this write deletes it by name
// when it is done, whatever it holds by then, and the branch moved meanwhile would point at nothing.
// The same objects are then encoded again (other zlib levels: the stream's header differs) under a
// new name, and each file is linked into place, refused when it exists. Where the filesystem has no
// hard links (FAT, some network and FUSE mounts: EPERM, ENOTSUP, EXDEV, …) the file is renamed into
// place after a look that the name is free, as git's finalize_object_file falls back to rename: a
// writer that takes the name between the look and the rename is the one race left, as in git.
// Format: Documentation/gitformat-pack.txt.
import { createHash } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { errnoCode, gitError, onDisk } from './errors.js';
import { keepText, tempNames } from './kept-packs.js';
import type { ObjectType } from './hash.js';
import type { RawObject } from './pack.js';

const TYPE_NO: Readonly<Record<ObjectType, number>> = { commit: 1, tree: 2, blob: 3, tag: 4 };
/** zlib levels whose streams begin with different headers (FLEVEL 0, 2, 3, 1), whatever the data. */
const LEVELS = [1, 6, 9, 2] as const;
/** Encodings tried before giving up: the first two objects' levels, 4 × 4. */
const VARIANTS = 16;

/** The one file operation a test may replace: a filesystem without hard links refuses `link`. */
export interface PackWriteOptions {
  /** Makes `to` a new name of `from`, throwing EEXIST when `to` exists (default: fs.linkSync). */
  readonly link?: (from: string, to: string) => void;
}

export interface WrittenPack {
  readonly idxPath: string;
  readonly keepPath: string;
}

interface EncodedPack {
  readonly name: string;
  readonly bytes: Buffer;
  readonly idx: Buffer;
}

/** Writes `objects` (oid → object) as objects/pack/pack-<sha>.{keep,pack,idx}, under a name no file has yet. */
export function writeKeptPack(objectsDir: string, objects: ReadonlyMap<string, RawObject>, keepReason: string, opts: PackWriteOptions = {}): WrittenPack {
  const link = opts.link ?? linkSync;
  const packDir = join(objectsDir, 'pack');
  const oids = [...objects.keys()].sort();
  return onDisk(packDir, 'write a pack in', () => {
    mkdirSync(packDir, { recursive: true });
    for (let variant = 0; variant < VARIANTS; variant++) {
      const written = writeNew(packDir, encode(oids, objects, variant), keepReason, link);
      if (written !== null) return written;
    }
    throw gitError('in-use', `${packDir} holds packs of these same objects under every name scion tries; run \`git gc\` there and run again.`, {
      path: packDir,
    });
  });
}

/** The pack and its index; `variant` picks the zlib levels of the first objects (0: level 1 throughout). */
function encode(oids: readonly string[], objects: ReadonlyMap<string, RawObject>, variant: number): EncodedPack {
  const chunks: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(oids.length, 8);
  chunks.push(header);
  let offset = 12;
  const offsets = new Map<string, number>();
  const crcs = new Map<string, number>();
  oids.forEach((oid, i) => {
    const obj = objects.get(oid) as RawObject;
    const head = objectHeader(TYPE_NO[obj.type], obj.data.length);
    const level = i < 2 ? LEVELS[Math.floor(variant / 4 ** i) % 4]! : LEVELS[0];
    const body = deflateSync(obj.data, { level });
    offsets.set(oid, offset);
    crcs.set(oid, crc32(body, crc32(head)));
    chunks.push(head, body);
    offset += head.length + body.length;
  });
  const packSha = sha1(chunks);
  chunks.push(packSha);
  return { name: `pack-${packSha.toString('hex')}`, bytes: Buffer.concat(chunks), idx: indexBytes(oids, offsets, crcs, packSha) };
}

/** Writes the pack under its name: the .keep, the .pack, the .idx, each refused when it exists (null: the name is taken). */
function writeNew(packDir: string, pack: EncodedPack, keepReason: string, link: (from: string, to: string) => void): WrittenPack | null {
  const base = join(packDir, pack.name);
  const { tmpPack, tmpIdx } = tempNames(packDir);
  const placed: string[] = [];
  const place = (to: string, put: () => void): boolean => {
    try {
      put();
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') return false;
      throw err;
    }
    placed.push(to);
    return true;
  };
  try {
    writeFileSync(tmpPack, pack.bytes, { mode: 0o444, flag: 'wx' });
    writeFileSync(tmpIdx, pack.idx, { mode: 0o444, flag: 'wx' });
    const whole =
      place(`${base}.keep`, () => writeFileSync(`${base}.keep`, keepText(keepReason), { flag: 'wx' })) &&
      place(`${base}.pack`, () => moveNew(link, tmpPack, `${base}.pack`)) &&
      place(`${base}.idx`, () => moveNew(link, tmpIdx, `${base}.idx`));
    if (whole) return { idxPath: `${base}.idx`, keepPath: `${base}.keep` };
    // Taken: what this attempt placed goes (newest first: the .idx, then the .pack, then the .keep).
    for (const f of placed.reverse()) rmSync(f, { force: true });
    return null;
  } catch (err) {
    for (const f of placed.reverse()) rmSync(f, { force: true });
    throw err;
  } finally {
    rmSync(tmpPack, { force: true });
    rmSync(tmpIdx, { force: true });
  }
}

/**
 * Gives the temporary file `from` the name `to`, refused (EEXIST) when `to` exists: a hard link, or
 * where the filesystem has none a rename after a look that `to` is free.
 */
function moveNew(link: (from: string, to: string) => void, from: string, to: string): void {
  try {
    link(from, to);
    return;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') throw err;
  }
  // lstat, not exists: a symlink at `to`, dangling or not, is a name taken too.
  if (lstatSync(to, { throwIfNoEntry: false }) !== undefined) throw Object.assign(new Error(`${to} exists`), { code: 'EEXIST' });
  renameSync(from, to);
}

/** A pack entry's header: type and inflated size, as git's variable-length encoding. */
export function objectHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let b = (type << 4) | (size & 15);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(b | 0x80);
    b = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(b);
  return Buffer.from(bytes);
}

/** The .idx (version 2) of a pack: `oids` sorted, with each object's offset and CRC-32. */
export function indexBytes(oids: readonly string[], offsets: ReadonlyMap<string, number>, crcs: ReadonlyMap<string, number>, packSha: Buffer): Buffer {
  const n = oids.length;
  const large = oids.filter((o) => (offsets.get(o) as number) >= 0x80000000);
  const buf = Buffer.alloc(8 + 256 * 4 + n * 28 + large.length * 8 + 20);
  buf.writeUInt32BE(0xff744f63, 0);
  buf.writeUInt32BE(2, 4);
  const fanout = new Array<number>(256).fill(0);
  for (const oid of oids) (fanout[parseInt(oid.slice(0, 2), 16)] as number)++;
  let sum = 0;
  for (let i = 0; i < 256; i++) {
    sum += fanout[i] as number;
    buf.writeUInt32BE(sum, 8 + i * 4);
  }
  const shaAt = 8 + 256 * 4;
  const crcAt = shaAt + n * 20;
  const offAt = crcAt + n * 4;
  const largeAt = offAt + n * 4;
  let k = 0;
  oids.forEach((oid, i) => {
    buf.write(oid, shaAt + i * 20, 'hex');
    buf.writeUInt32BE(crcs.get(oid) as number, crcAt + i * 4);
    const off = offsets.get(oid) as number;
    if (off < 0x80000000) {
      buf.writeUInt32BE(off, offAt + i * 4);
    } else {
      buf.writeUInt32BE((0x80000000 | k) >>> 0, offAt + i * 4);
      buf.writeBigUInt64BE(BigInt(off), largeAt + k * 8);
      k++;
    }
  });
  const end = largeAt + large.length * 8;
  packSha.copy(buf, end);
  return Buffer.concat([buf.subarray(0, end + 20), sha1([buf.subarray(0, end + 20)])]);
}

function sha1(chunks: readonly Buffer[]): Buffer {
  const h = createHash('sha1');
  for (const c of chunks) h.update(c);
  return h.digest();
}
