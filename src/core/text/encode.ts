// LF text back to bytes in the file's own encoding and line endings.
import type { Encoding, LineEndings } from '../types.js';
import { fromLF } from './line-endings.js';

export function encodeText(text: string, encoding: Encoding, lineEndings: LineEndings): Uint8Array {
  return encodeRaw(fromLF(text, lineEndings), encoding);
}

/** Encodes text whose line endings are already final. */
export function encodeRaw(raw: string, encoding: Encoding): Uint8Array {
  if (encoding === 'utf16le') return encodeUtf16le(raw);
  const body = new TextEncoder().encode(raw);
  if (encoding === 'utf8') return body;
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}

function encodeUtf16le(raw: string): Uint8Array {
  const out = new Uint8Array(2 + raw.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    out[2 + 2 * i] = c & 0xff;
    out[3 + 2 * i] = c >> 8;
  }
  return out;
}

/** A lone surrogate cannot be written in any of our encodings without loss. */
export function hasLoneSurrogate(s: string): boolean {
  return /[\uD800-\uDFFF]/u.test(s);
}
