// Git's delta format (pack OFS_DELTA / REF_DELTA payloads): two varint sizes, then copy-from-base and
// insert-literal instructions. See Documentation/gitformat-pack.txt, "Deltified representation".
import { gitError } from './errors.js';
import type { ScionError } from '../errors.js';

/**
 * Copies shorter than this go byte by byte in JavaScript: most of a delta's copies and every insert
 * (at most 127 bytes) are short, and Buffer#copy's call costs more than such a copy (measured on
 * babel/babel's blobs: half the time of copying everything with Buffer#copy).
 */
const SMALL_COPY = 256;

export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let p = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[p++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const baseSize = varint();
  const resultSize = varint();
  if (baseSize !== base.length) throw corrupt(`delta expects a ${baseSize}-byte base, got ${base.length}`);
  const out = Buffer.allocUnsafe(resultSize);
  let o = 0;
  while (p < delta.length) {
    const op = delta[p++] as number;
    if (op & 0x80) {
      // Copy: the low 4 bits say which offset bytes follow, the next 3 which size bytes.
      let offset = 0;
      let size = 0;
      if (op & 0x01) offset |= delta[p++] as number;
      if (op & 0x02) offset |= (delta[p++] as number) << 8;
      if (op & 0x04) offset |= (delta[p++] as number) << 16;
      if (op & 0x08) offset += (delta[p++] as number) * 0x1000000;
      if (op & 0x10) size |= delta[p++] as number;
      if (op & 0x20) size |= (delta[p++] as number) << 8;
      if (op & 0x40) size |= (delta[p++] as number) << 16;
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || o + size > resultSize) throw corrupt('delta copy runs past its buffers');
      if (size < SMALL_COPY) for (let k = 0; k < size; k++) out[o + k] = base[offset + k] as number;
      else base.copy(out, o, offset, offset + size);
      o += size;
    } else if (op > 0) {
      if (p + op > delta.length || o + op > resultSize) throw corrupt('delta insert runs past its buffers');
      for (let k = 0; k < op; k++) out[o + k] = delta[p + k] as number;
      p += op;
      o += op;
    } else {
      throw corrupt('delta holds the reserved opcode 0');
    }
  }
  if (o !== resultSize) throw corrupt(`delta produced ${o} bytes, expected ${resultSize}`);
  return out;
}

function corrupt(what: string): ScionError {
  return gitError('corrupt', `A packed object is damaged (${what}); run \`git fsck\` on the repository.`);
}
