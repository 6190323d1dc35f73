// Packs written by hand into a test repository, for what `git pack-objects` never writes: a REF_DELTA
// whose base lives in another pack, a zlib stream longer than zlib would make it. Each entry comes
// encoded (its header and body, as the pack holds them); the .pack gets its trailer and the .idx is
// scion's own writer's (git/pack-write.ts, which git reads).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { indexBytes, objectHeader } from '../../src/git/pack-write.js';

/** One object as its pack holds it: its entry header, then its body (a zlib stream, after the base's oid for a REF_DELTA). */
export interface PackEntry {
  readonly oid: string;
  readonly head: Buffer;
  readonly body: Buffer;
}

/** The oid of a blob holding `data`. */
export function blobOid(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/** A blob entry of `data`, its body `stream` (default: zlib's own). */
export function blobEntry(data: Buffer, stream: Buffer = deflateSync(data)): PackEntry {
  return { oid: blobOid(data), head: objectHeader(3, data.length), body: stream };
}

/** Writes `entries`, in this order, as a pack and its index in the repository at `repoDir`; the pack's path without extension. */
export function writePack(repoDir: string, entries: readonly PackEntry[]): string {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const offsets = new Map<string, number>();
  const crcs = new Map<string, number>();
  let at = header.length;
  for (const e of entries) {
    offsets.set(e.oid, at);
    crcs.set(e.oid, crc32(e.body, crc32(e.head)));
    at += e.head.length + e.body.length;
  }
  const packNoTrailer = Buffer.concat([header, ...entries.flatMap((e) => [e.head, e.body])]);
  const sha = createHash('sha1').update(packNoTrailer).digest();
  const name = join(repoDir, '.git/objects/pack', `pack-${sha.toString('hex')}`);
  writeFileSync(`${name}.pack`, Buffer.concat([packNoTrailer, sha]));
  writeFileSync(`${name}.idx`, indexBytes(entries.map((e) => e.oid).sort(), offsets, crcs, sha));
  return name;
}

/**
 * Writes a pack holding one REF_DELTA object whose base (`baseOid`, `base`) lives elsewhere (another
 * pack, or loose): the new blob is `base` with `extra` (at most 127 bytes) appended. Returns its oid.
 */
export function refDeltaPack(repoDir: string, baseOid: string, base: Buffer, extra: Buffer): string {
  const target = Buffer.concat([base, extra]);
  const varint = (n: number) => {
    const out: number[] = [];
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
    return out;
  };
  // Copy the whole base (offset 0, size in up to 3 bytes), then insert `extra`.
  const copy = base.length === 0 ? [] : [0x80 | 0x10 | 0x20 | 0x40, base.length & 255, (base.length >> 8) & 255, (base.length >> 16) & 255];
  const delta = Buffer.concat([Buffer.from([...varint(base.length), ...varint(target.length), ...copy, extra.length]), extra]);
  const oid = blobOid(target);
  writePack(repoDir, [{ oid, head: objectHeader(7, delta.length), body: Buffer.concat([Buffer.from(baseOid, 'hex'), deflateSync(delta)]) }]);
  return oid;
}
