// Writing an edited file back by splicing its original bytes: only the changed spans are encoded,
// in the file's encoding and detected line endings; every other byte is copied as it was. That is
// both the fast path (no multi-megabyte re-encode) and what keeps a file with mixed line endings from
// being converted wholesale: lines the edit did not touch keep their own endings.
import type { Change } from '../edit/regions.js';
import type { DecodedFile } from './decode.js';
import { fromLF, rawOffsets } from './line-endings.js';

export function spliceBytes(before: Uint8Array, d: DecodedFile, changes: readonly Change[]): Uint8Array {
  if (changes.length === 0) return before;
  const bom = d.encoding === 'utf8-bom' ? 3 : d.encoding === 'utf16le' ? 2 : 0;
  const bounds: number[] = [];
  for (const c of changes) bounds.push(c.oldStart, c.oldEnd);
  const raw = rawOffsets(d.raw, bounds);
  const bytesAt = byteOffsets(d, raw, before.length - bom === d.raw.length);
  const texts = changes.map((c) => fromLF(c.text, d.lineEndings));
  const sizes = texts.map((t) => (d.encoding === 'utf16le' ? 2 * t.length : utf8Length(t, 0, t.length)));
  let size = before.length;
  changes.forEach((_, k) => {
    size += (sizes[k] as number) - ((bytesAt[2 * k + 1] as number) - (bytesAt[2 * k] as number));
  });
  // One buffer, filled in order: unchanged bytes copied, changed spans encoded in place.
  const out = new Uint8Array(size);
  const encoder = new TextEncoder();
  let from = 0;
  let to = 0;
  changes.forEach((_, k) => {
    const start = bytesAt[2 * k] as number;
    out.set(before.subarray(from, start), to);
    to += start - from;
    const text = texts[k] as string;
    if (d.encoding === 'utf16le') writeUtf16le(text, out, to);
    else if (text.length === sizes[k] && text.length < 256) writeAscii(text, out, to);
    else encoder.encodeInto(text, out.subarray(to, to + (sizes[k] as number)));
    to += sizes[k] as number;
    from = bytesAt[2 * k + 1] as number;
  });
  out.set(before.subarray(from), to);
  return out;
}

/** Short ASCII text, written directly: cheaper than a TextEncoder call per change. */
function writeAscii(text: string, out: Uint8Array, at: number): void {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
}

function writeUtf16le(text: string, out: Uint8Array, at: number): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[at + 2 * i] = c & 0xff;
    out[at + 2 * i + 1] = c >> 8;
  }
}

/** Byte offsets of ascending offsets into the raw text. */
function byteOffsets(d: DecodedFile, raw: readonly number[], ascii: boolean): readonly number[] {
  if (d.encoding === 'utf16le') return raw.map((r) => 2 + 2 * r);
  const bom = d.encoding === 'utf8-bom' ? 3 : 0;
  if (ascii) return raw.map((r) => bom + r);
  const out: number[] = [];
  let at = 0;
  let bytes = bom;
  for (const r of raw) {
    bytes += utf8Length(d.raw, at, r);
    at = r;
    out.push(bytes);
  }
  return out;
}

function utf8Length(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      // A surrogate pair is one code point of four bytes (decoded text has no lone surrogates).
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
