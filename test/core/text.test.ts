// Behaviour 8: encodings and line endings are detected from bytes and written back unchanged.
import { describe, expect, it } from 'vitest';
import { applyEdits, decodeText, encodeText, writeContent } from '../../src/core/index.js';
import { changed, expectFailure, failed, file, hex, text, utf8 } from './helpers.js';

const utf16 = (s: string): Uint8Array => encodeText(s, 'utf16le', 'LF');

describe('decodeText', () => {
  it('reads plain UTF-8 with LF, and an empty file as UTF-8', () => {
    const d = decodeText(utf8('a\nb\n'));
    expect(d).toEqual({ ok: true, value: { text: 'a\nb\n', encoding: 'utf8', lineEndings: 'LF' } });
    expect(decodeText(new Uint8Array())).toEqual({ ok: true, value: { text: '', encoding: 'utf8', lineEndings: 'LF' } });
  });

  it('recognises the UTF-8 BOM and leaves it out of the text', () => {
    const d = decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]));
    expect(d).toEqual({ ok: true, value: { text: 'hi', encoding: 'utf8-bom', lineEndings: 'LF' } });
  });

  it('recognises UTF-16LE by its FF FE BOM', () => {
    const d = decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00, 0x0a, 0x00]));
    expect(d).toEqual({ ok: true, value: { text: 'hé\n', encoding: 'utf16le', lineEndings: 'LF' } });
  });

  it('picks CRLF when CRLF lines outnumber lone LF lines, and gives LF text', () => {
    expect(decodeText(utf8('a\r\nb\r\nc\n'))).toEqual({ ok: true, value: { text: 'a\nb\nc\n', encoding: 'utf8', lineEndings: 'CRLF' } });
    expect(decodeText(utf8('a\r\nb\nc\n'))).toMatchObject({ ok: true, value: { lineEndings: 'LF' } });
    // A tie is LF.
    expect(decodeText(utf8('a\r\nb\n'))).toMatchObject({ ok: true, value: { lineEndings: 'LF' } });
  });

  it('votes on the first 4096 code units only', () => {
    const head = 'x\n'.repeat(2048); // 4096 code units of LF lines
    const d = decodeText(utf8(head + 'y\r\n'.repeat(5000)));
    expect(d).toMatchObject({ ok: true, value: { lineEndings: 'LF' } });
  });

  it("refuses invalid UTF-8 as 'encoding' instead of replacing bytes", () => {
    const f = failed(decodeText(new Uint8Array([0x61, 0xc3, 0x28])));
    expect(f.kind).toBe('encoding');
  });

  it('refuses invalid UTF-16: odd length and lone surrogates', () => {
    expect(failed(decodeText(new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x62]))).kind).toBe('encoding');
    expect(failed(decodeText(new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x61, 0x00]))).kind).toBe('encoding');
  });

  it("calls a UTF-8 file with NUL bytes 'binary'", () => {
    expect(failed(decodeText(new Uint8Array([0x61, 0x00, 0x62]))).kind).toBe('binary');
  });
});

describe('encodeText', () => {
  it('writes each encoding with its BOM and the chosen line endings', () => {
    expect(hex(encodeText('a\n', 'utf8', 'CRLF'))).toBe('61 0d 0a');
    expect(hex(encodeText('a\n', 'utf8-bom', 'LF'))).toBe('ef bb bf 61 0a');
    expect(hex(encodeText('a\n', 'utf16le', 'CRLF'))).toBe('ff fe 61 00 0d 00 0a 00');
    expect(hex(encodeText('😀', 'utf16le', 'LF'))).toBe('ff fe 3d d8 00 de');
  });
});

describe('edits keep the encoding and line endings of the file', () => {
  it('round-trips UTF-16LE with CRLF: edited internally as LF, written back as UTF-16LE + CRLF', () => {
    const before = encodeText('one\ntwo\nthree\n', 'utf16le', 'CRLF');
    const c = changed(applyEdits(file('legacy.txt', before), [{ old_string: 'two\nthree', new_string: 'TWO\nTHREE' }]));
    expect(c.oldText).toBe('one\ntwo\nthree\n');
    expect(c.newText).toBe('one\nTWO\nTHREE\n');
    expect(c.after).toEqual(encodeText('one\nTWO\nTHREE\n', 'utf16le', 'CRLF'));
    expect(hex(c.after.subarray(0, 2))).toBe('ff fe');
  });

  it('keeps the UTF-8 BOM', () => {
    const before = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('let a = 1;\n')]);
    const c = changed(applyEdits(file('a.ts', before), [{ old_string: 'a = 1', new_string: 'a = 2' }]));
    expect(hex(c.after)).toBe(hex(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('let a = 2;\n')])));
  });

  it('keeps CRLF in UTF-8, and inserted lines get CRLF too', () => {
    const c = changed(applyEdits(file('a.ts', 'a\r\nb\r\n'), [{ old_string: 'a\n', new_string: 'a\nnew\n' }]));
    expect(text(c.after)).toBe('a\r\nnew\r\nb\r\n');
  });

  it('never rewrites a file that is not valid in its encoding', () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café" in Latin-1
    expectFailure(applyEdits(file('a.txt', latin1), [{ old_string: 'caf', new_string: 'CAF' }]), 'encoding');
    expectFailure(writeContent(file('a.txt', latin1), 'new'), 'encoding');
  });

  it("refuses to edit a binary file ('binary')", () => {
    expectFailure(applyEdits(file('a.bin', new Uint8Array([0x61, 0x00, 0x62])), [{ old_string: 'a', new_string: 'b' }]), 'binary');
  });

  it('edits UTF-16LE without a change to anything else, including characters outside the BMP', () => {
    const before = utf16('x 😀 y\n');
    const c = changed(applyEdits(file('a.txt', before), [{ old_string: 'y', new_string: 'z' }]));
    expect(c.after).toEqual(utf16('x 😀 z\n'));
  });
});

describe('files with mixed line endings', () => {
  it('keep the endings of lines the edit did not touch', () => {
    // Mostly LF, with one CRLF line far from the edit: the seed would turn it into LF.
    const before = 'one\ntwo\r\nthree\nfour\nfive\n';
    const c = changed(applyEdits(file('a.txt', before), [{ old_string: 'four', new_string: 'FOUR' }]));
    expect(text(c.after)).toBe('one\ntwo\r\nthree\nFOUR\nfive\n');
    expect(c.patch.added).toBe(1);
  });

  it('write the edited lines in the majority style', () => {
    const before = 'a\r\nb\r\nc\nd\r\n';
    const c = changed(applyEdits(file('a.txt', before), [{ old_string: 'a\nb', new_string: 'A\nX\nB' }]));
    expect(text(c.after)).toBe('A\r\nX\r\nB\r\nc\nd\r\n');
  });
});
