// A file's text with its own line endings (what the cache stores): decodeText gives LF text only, and
// a replay must reproduce the exact bytes, CRLF and mixed endings included.
import { decodeText } from '../core/index.js';

export function rawText(bytes: Uint8Array): string | null {
  const d = decodeText(bytes);
  if (!d.ok) return null;
  const enc = d.value.encoding;
  const body = bytes.subarray(enc === 'utf8-bom' ? 3 : enc === 'utf16le' ? 2 : 0);
  return new TextDecoder(enc === 'utf16le' ? 'utf-16le' : 'utf-8', { ignoreBOM: true }).decode(body);
}
