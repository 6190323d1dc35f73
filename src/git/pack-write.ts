// Writing a pack (version 2) and its .idx (version 2) from objects held in memory, the way
// `git index-pack --keep` leaves a pushed pack: a .keep file first, then the .pack, then the .idx
// (readers find packs by their .idx). The .keep and the temporary files name their writer, so what a
// killed writer left is found and cleared by a later run (kept-packs.ts). Objects are stored whole (no deltas): a job's new objects
// are few and mostly unlike each other; `git gc` deltifies them later.
// Format: Documentation/gitformat-pack.txt.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { onDisk } from './errors.js';
import { keepText, tempNames } from './kept-packs.js';
import type { ObjectType } from './hash.js';
import type { RawObject } from './pack.js';

const TYPE_NO: Readonly<Record<ObjectType, number>> = { commit: 1, tree: 2, blob: 3, tag: 4 };

export interface WrittenPack {
  readonly idxPath: string;
  readonly keepPath: string;
}

/** Writes `objects` (oid → object) as objects/pack/pack-<sha>.{keep,pack,idx}. */
export function writeKeptPack(objectsDir: string, objects: ReadonlyMap<string, RawObject>, keepReason: string): WrittenPack {
  const packDir = join(objectsDir, 'pack');
  const oids = [...objects.keys()].sort();
  const chunks: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(oids.length, 8);
  chunks.push(header);
  let offset = 12;
  const offsets = new Map<string, number>();
  const crcs = new Map<string, number>();
  for (const oid of oids) {
    const obj = objects.get(oid) as RawObject;
    const head = objectHeader(TYPE_NO[obj.type], obj.data.length);
    const body = deflateSync(obj.data, { level: 1 });
    offsets.set(oid, offset);
    crcs.set(oid, crc32(body, crc32(head)));
    chunks.push(head, body);
    offset += head.length + body.length;
  }
  const packSha = sha1(chunks);
  chunks.push(packSha);
  const idx = indexBytes(oids, offsets, crcs, packSha);
  const name = `pack-${packSha.toString('hex')}`;
  const { tmpPack, tmpIdx } = tempNames(packDir);
  const keepPath = join(packDir, `${name}.keep`);
  const idxPath = join(packDir, `${name}.idx`);
  onDisk(packDir, 'write a pack in', () => {
    mkdirSync(packDir, { recursive: true });
    try {
      writeFileSync(tmpPack, Buffer.concat(chunks), { mode: 0o444, flag: 'wx' });
      writeFileSync(tmpIdx, idx, { mode: 0o444, flag: 'wx' });
      writeFileSync(keepPath, keepText(keepReason));
      renameSync(tmpPack, join(packDir, `${name}.pack`));
      renameSync(tmpIdx, idxPath);
    } catch (err) {
      rmSync(tmpPack, { force: true });
      rmSync(tmpIdx, { force: true });
      rmSync(keepPath, { force: true });
      throw err;
    }
  });
  return { idxPath, keepPath };
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
      buf.writeUInt32BE(0x80000000 | k, offAt + i * 4);
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
