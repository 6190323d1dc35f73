// The recipe loader's one decode: strict UTF-8, judged against the platform's own fatal decoder.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSource, firstInvalidUtf8 } from '../../src/recipe/source-text.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const valid = (b: Uint8Array): boolean => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

describe('firstInvalidUtf8', () => {
  it('finds a bad byte exactly when a fatal UTF-8 decoder refuses the bytes', () => {
    // Bytes biased towards the edges of the UTF-8 table: lead bytes, continuation bytes, ASCII.
    const edges = fc.constantFrom(0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x9f, 0xa0, 0x8f, 0x90);
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), edges);
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 12 }), (arr) => {
        const b = Uint8Array.from(arr);
        expect(firstInvalidUtf8(b) === -1).toBe(valid(b));
      }),
      { numRuns: 20000 },
    );
  });

  it('refuses overlong forms, surrogates and code points past U+10FFFF', () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
    ]) {
      expect(firstInvalidUtf8(Uint8Array.from([0x61, ...bad])), bad.join(',')).toBe(1);
    }
  });
});

describe('decodeSource', () => {
  it('drops a UTF-8 byte order mark and keeps everything else', () => {
    expect(decodeSource(Buffer.from('\ufeffname: x\n\ufeff', 'utf8'))).toEqual({ ok: true, value: 'name: x\n\ufeff' });
  });

  it('places the first bad byte by line and character column', () => {
    const r = decodeSource(Buffer.concat([Buffer.from('a\n\u00e9\u00e9 \ud83d\ude00 x', 'utf8'), Buffer.from([0xff])]));
    // é é space, then an emoji (two UTF-16 units, as the YAML positions count), space, x: the bad byte is the 8th unit.
    expect(r).toMatchObject({ ok: false, error: { line: 2, col: 8 } });
  });
});
