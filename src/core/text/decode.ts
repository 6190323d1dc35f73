// Bytes to LF text, remembering how to write it back: encoding (BOM) and line endings.
import { failure, fail, ok, type Result } from '../../errors.js';
import type { DecodedText, Encoding } from '../types.js';
import { detectLineEndings, toLF } from './line-endings.js';

/** The engine's fuller view of a decoded file: the raw text too, to map offsets back to bytes. */
export interface DecodedFile extends DecodedText {
  /** The decoded text with its original line endings (BOM removed). */
  readonly raw: string;
}

export function decodeText(bytes: Uint8Array): Result<DecodedText> {
  const d = decodeFile(bytes);
  return d.ok ? ok({ text: d.value.text, encoding: d.value.encoding, lineEndings: d.value.lineEndings }) : d;
}

export function detectEncoding(bytes: Uint8Array): Encoding {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8-bom';
  return 'utf8';
}

export function decodeFile(bytes: Uint8Array): Result<DecodedFile> {
  const encoding = detectEncoding(bytes);
  // NUL never occurs in UTF-8 text; in UTF-16 it is half of every ASCII character.
  if (encoding !== 'utf16le' && bytes.indexOf(0) !== -1) {
    return fail(failure('binary', 'The file holds NUL bytes: it is binary, not text, and is left alone.'));
  }
  const body = bytes.subarray(encoding === 'utf8' ? 0 : encoding === 'utf8-bom' ? 3 : 2);
  let raw: string;
  try {
    // fatal: an invalid sequence must refuse the file, never be replaced by U+FFFD and written back.
    raw = new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const name = encoding === 'utf16le' ? 'UTF-16LE' : 'UTF-8';
    return fail(
      failure('encoding', `The file is not valid ${name}; it is never rewritten, so nothing is lost. Convert it to UTF-8 first.`, {
        encoding,
      }),
    );
  }
  return ok({ text: toLF(raw), encoding, lineEndings: detectLineEndings(raw), raw });
}
