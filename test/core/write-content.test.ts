// FileWriteTool: content exactly as given, encoding kept, line endings the content's own.
import { describe, expect, it } from 'vitest';
import { encodeText, writeContent } from '../../src/core/index.js';
import { changed, hex, file, text } from './helpers.js';

describe('writeContent', () => {
  it('creates a file as UTF-8 with the content exactly', () => {
    const c = changed(writeContent(file('src/new.ts', null), 'export {}\n'));
    expect(c.before).toBeNull();
    expect(text(c.after)).toBe('export {}\n');
    expect(c.changed).toBe(true);
    expect(c.patch.added).toBe(1);
  });

  it('keeps the encoding of the file it overwrites', () => {
    const before = encodeText('old\n', 'utf16le', 'LF');
    const c = changed(writeContent(file('a.txt', before), 'new\n'));
    expect(c.after).toEqual(encodeText('new\n', 'utf16le', 'LF'));
    const bom = changed(writeContent(file('b.txt', new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), 'b'));
    expect(hex(bom.after)).toBe('ef bb bf 62');
  });

  it('writes LF content as LF even over a CRLF file: it never adds \\r', () => {
    const c = changed(writeContent(file('run.sh', 'echo a\r\necho b\r\n'), '#!/bin/sh\necho c\n'));
    expect(text(c.after)).toBe('#!/bin/sh\necho c\n');
  });

  it("keeps the content's own CRLF when it has some", () => {
    const c = changed(writeContent(file('a.bat', null), 'echo a\r\n'));
    expect(text(c.after)).toBe('echo a\r\n');
    expect(c.newText).toBe('echo a\n');
  });

  it('reports no change when the bytes would be the same', () => {
    const c = changed(writeContent(file('a.txt', 'same\n'), 'same\n'));
    expect(c.changed).toBe(false);
    expect(c.after).toEqual(c.before);
  });

  it('counts as a change when only the line endings differ', () => {
    const c = changed(writeContent(file('a.txt', 'same\r\n'), 'same\n'));
    expect(c.changed).toBe(true);
    expect(text(c.after)).toBe('same\n');
  });

  it('keeps $& and $1 in the content literally', () => {
    expect(text(changed(writeContent(file('a.txt', 'x'), 'cost: $& $1 $$\n')).after)).toBe('cost: $& $1 $$\n');
  });
});
