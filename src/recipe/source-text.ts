// The one decode of every file the recipe loader reads (recipes, module recipes, JSON Schema files,
// and any rule file to come): strict UTF-8. A byte that is not UTF-8 would otherwise be decoded to
// U+FFFD and end up in commits and branch names (a Latin-1 "café"), so it is refused where it
// stands, by line and column. A UTF-8 byte order mark is dropped, as editors on Windows add one.
import { err, ok, type Result } from '../errors.js';

/** Where a file stops being UTF-8, with a message that reads after the file's name. */
export interface NotUtf8 {
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

/** The text, or where it stops being UTF-8. */
export type SourceText = Result<string, NotUtf8>;

const BOM = [0xef, 0xbb, 0xbf];

export function decodeSource(bytes: Uint8Array): SourceText {
  const start = BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
  const bad = firstInvalidUtf8(bytes, start);
  if (bad === -1) return ok(Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.length - start).toString('utf8'));
  if (bad === 0 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return err({ line: 1, col: 1, message: 'is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8' });
  }
  // Everything before the bad byte is valid UTF-8: count its lines, and the characters on the last.
  const before = Buffer.from(bytes.buffer, bytes.byteOffset + start, bad - start).toString('utf8');
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = countNewlines(before) + 1;
  const col = before.length - lineStart + 1;
  const hex = (bytes[bad] as number).toString(16).toUpperCase().padStart(2, '0');
  return err({
    line,
    col,
    message: `is not valid UTF-8 (byte 0x${hex} at line ${line}, column ${col}; perhaps it was saved as Latin-1 or Windows-1252); save it as UTF-8`,
  });
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (the Unicode
 * standard's table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), or -1.
 */
export function firstInvalidUtf8(b: Uint8Array, from = 0): number {
  let i = from;
  while (i < b.length) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    let more: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) more = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      more = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      more = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    const second = b[i + 1];
    if (second === undefined || second < lo || second > hi) return i;
    for (let k = 2; k <= more; k++) {
      const next = b[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += more + 1;
  }
  return -1;
}
