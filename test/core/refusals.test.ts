// Behaviour 9: every refusal has its kind and seed code, and the checks run in the seed's order.
import { describe, expect, it } from 'vitest';
import { applyEdits, checkPath, editNotebook, replaceRegex, writeContent } from '../../src/core/index.js';
import { changed, expectFailure, failed, fakeSecrets, file, text, utf8 } from './helpers.js';

const edit = (old_string: string, new_string: string) => [{ old_string, new_string }];
const denyLocks = { isDenied: (p: string) => p.endsWith('.lock') };

describe('checkPath', () => {
  it('takes the path literally, as git stores it (a backslash is a byte like any other on POSIX)', () => {
    expect(checkPath('src/b.ts')).toEqual({ ok: true, value: 'src/b.ts' });
    expect(checkPath('src\\win\\c.ts')).toEqual({ ok: true, value: 'src\\win\\c.ts' });
  });

  it("refuses UNC paths ('unc-path') in both spellings", () => {
    expect(failed(checkPath('\\\\server\\share\\a.ts')).kind).toBe('unc-path');
    expect(failed(checkPath('//server/share/a.ts')).kind).toBe('unc-path');
  });

  it("refuses paths that leave the repository ('outside'): .., absolute, drive letters, the root itself", () => {
    for (const p of ['../a.ts', 'src/../../a.ts', '/etc/passwd', 'C:\\x.ts', 'c:/x.ts', '.', '']) {
      expect(failed(checkPath(p)).kind, p).toBe('outside');
    }
  });

  it("refuses denied paths ('denied'), and git's own folder as 'outside'", () => {
    expect(failed(checkPath('yarn.lock', denyLocks))).toMatchObject({ kind: 'denied', code: 2 });
    expect(failed(checkPath('sub/.git/config'))).toMatchObject({ kind: 'outside' });
  });
});

describe('refusals with their codes', () => {
  it("'denied' (2) through opts.isDenied", () => {
    expectFailure(applyEdits(file('pnpm.lock', 'a'), edit('a', 'b'), denyLocks), 'denied', 2);
    expectFailure(writeContent(file('pnpm.lock', 'a'), 'b', denyLocks), 'denied', 2);
    expectFailure(editNotebook(file('x.lock', '{}'), { source: 'x', mode: 'insert', type: 'code' }, denyLocks), 'denied', 2);
  });

  it("'unc-path' and 'outside' for the file's own path", () => {
    expectFailure(applyEdits(file('//host/share/a.ts', 'a'), edit('a', 'b')), 'unc-path');
    expectFailure(writeContent(file('../a.ts', 'a'), 'b'), 'outside');
  });

  it("'too-large' (10) on the byte length, before any decoding", () => {
    const f = expectFailure(applyEdits(file('big.txt', new Uint8Array([0xff, 0xff, 0xff, 0xff])), edit('a', 'b'), { maxBytes: 3 }), 'too-large', 10);
    expect(f.data).toMatchObject({ size: 4, maxBytes: 3 });
  });

  it("'too-large' (10) without maxBytes: a file one byte over 1 GiB, refused before a byte of it is read", () => {
    // Allocated but never touched (the pages stay unmapped): the size check comes before any decoding.
    const f = expectFailure(applyEdits(file('big.bin', new Uint8Array(2 ** 30 + 1)), edit('a', 'b')), 'too-large', 10);
    expect(f.data).toMatchObject({ size: 2 ** 30 + 1, maxBytes: 2 ** 30 });
  });

  it("'notebook' (5) when a notebook is given to an edit or a regex replace", () => {
    const nb = JSON.stringify({ cells: [], nbformat: 4, nbformat_minor: 5 });
    const f = expectFailure(applyEdits(file('nb/a.ipynb', nb), edit('cells', 'x')), 'notebook', 5);
    expect(f.message).toContain('notebook');
    expectFailure(replaceRegex(file('nb/A.IPYNB', nb), 'cells', 'x', false), 'notebook', 5);
  });

  it("'not-read' (6) when the file was never read, and for a write after a partial read", () => {
    expectFailure(applyEdits(file('a.ts', 'a'), edit('a', 'b'), { read: null }), 'not-read', 6);
    expectFailure(writeContent(file('a.ts', 'a'), 'b', { read: { text: 'a', partial: true } }), 'not-read', 6);
    expectFailure(writeContent(file('a.ts', 'a'), 'b', { read: null }), 'not-read', 6);
  });

  it('a partial read is enough for edits and notebook edits', () => {
    changed(applyEdits(file('a.ts', 'a\n'), edit('a', 'b'), { read: { text: 'a\n', partial: true } }));
    const nb = JSON.stringify({ cells: [], nbformat: 4, nbformat_minor: 4 });
    changed(editNotebook(file('a.ipynb', nb), { source: 'x', mode: 'insert', type: 'code' }, { read: { text: nb, partial: true } }));
  });

  it('creating a file needs no read', () => {
    changed(applyEdits(file('new.ts', null), edit('', 'x\n'), { read: null }));
    changed(writeContent(file('new.ts', null), 'x\n', { read: null }));
  });

  it("'stale' (7) when the file changed since it was read", () => {
    const read = { text: 'old\n', partial: false };
    expectFailure(applyEdits(file('a.ts', 'new\n'), edit('new', 'x'), { read }), 'stale', 7);
    expectFailure(writeContent(file('a.ts', 'new\n'), 'x', { read }), 'stale', 7);
    const nb = JSON.stringify({ cells: [] });
    expectFailure(editNotebook(file('a.ipynb', nb), { source: 'x', mode: 'insert', type: 'code' }, { read }), 'stale', 7);
    // The comparison is on the LF text: a CRLF file read as LF is not stale.
    changed(applyEdits(file('a.ts', 'a\r\nb\r\n'), edit('a', 'x'), { read: { text: 'a\nb\n', partial: false } }));
  });

  it("'invalid-result' when a JSON file that parsed would no longer parse", () => {
    const f = expectFailure(applyEdits(file('package.json', '{ "a": 1, "b": 2 }\n'), edit(', "b": 2', ' "b": 2')), 'invalid-result', 10);
    expect(f.code).toBe(10);
    // A file that did not parse before (JSON with comments) is not judged.
    changed(applyEdits(file('tsconfig.json', '{ // c\n "a": 1 }\n'), edit('"a": 1', '"a": 2,')));
  });

  it("'invalid-result' when opts.jsonSchema no longer holds", () => {
    const jsonSchema = { type: 'object', properties: { port: { type: 'number' } }, required: ['port'] };
    const f = expectFailure(applyEdits(file('cfg.json', '{ "port": 80 }\n'), edit('80', '"80"'), { jsonSchema }), 'invalid-result', 10);
    expect(f.message).toContain('/port');
    changed(applyEdits(file('cfg.json', '{ "port": 80 }\n'), edit('80', '8080'), { jsonSchema }));
    expectFailure(writeContent(file('cfg.json', '{ "port": 80 }\n'), '{}\n', { jsonSchema }), 'invalid-result', 10);
  });

  it("'encoding' for new text with a lone surrogate, which no encoding can write", () => {
    expectFailure(applyEdits(file('a.ts', 'a\n'), edit('a', 'b\uD800')), 'encoding');
  });
});

describe('the order of the checks follows the seed', () => {
  const secret = `key = "${fakeSecrets.github}"`;

  it('secret before no-op', () => {
    expectFailure(applyEdits(file('a.ts', 'x'), edit(secret, secret)), 'secret', 0);
  });

  it('no-op before denied and path', () => {
    expectFailure(applyEdits(file('a.lock', 'x'), edit('x', 'x'), denyLocks), 'no-op', 1);
    expectFailure(applyEdits(file('../a.ts', 'x'), edit('x', 'x')), 'no-op', 1);
  });

  it('denied before too-large, too-large before encoding', () => {
    const bad = new Uint8Array([0xc3, 0x28, 0xc3, 0x28]);
    expectFailure(applyEdits(file('a.lock', bad), edit('a', 'b'), { ...denyLocks, maxBytes: 2 }), 'denied', 2);
    expectFailure(applyEdits(file('a.txt', bad), edit('a', 'b'), { maxBytes: 2 }), 'too-large', 10);
    expectFailure(applyEdits(file('a.txt', bad), edit('a', 'b')), 'encoding');
  });

  it('file-missing before notebook, notebook before not-read, not-read before not-found', () => {
    expectFailure(applyEdits(file('a.ipynb', null), edit('a', 'b'), { read: null }), 'file-missing', 4);
    expectFailure(applyEdits(file('a.ipynb', '{}'), edit('a', 'b'), { read: null }), 'notebook', 5);
    expectFailure(applyEdits(file('a.ts', 'x'), edit('a', 'b'), { read: null }), 'not-read', 6);
  });

  it('file-exists before notebook and read state', () => {
    expectFailure(applyEdits(file('a.ipynb', '{}'), edit('', 'b'), { read: null }), 'file-exists', 3);
  });

  it('stale before not-found, not-found before invalid-result', () => {
    expectFailure(applyEdits(file('a.json', '{}'), edit('a', 'b'), { read: { text: 'other', partial: false } }), 'stale', 7);
    expectFailure(applyEdits(file('a.json', '{}'), edit('a', 'b'), { jsonSchema: { type: 'string' } }), 'not-found', 8);
  });
});

describe('already applied (skipAlreadyApplied)', () => {
  const opts = { skipAlreadyApplied: true };

  it('skips an edit whose old_string is gone but whose new_string is there', () => {
    const c = changed(applyEdits(file('a.ts', "import { log } from './logger';\n"), edit("from './legacy'", "from './logger'"), opts));
    expect(c.changed).toBe(false);
    expect(c.skipped).toEqual([0]);
    expect(c.after).toEqual(c.before);
    expect(c.patch).toEqual({ hunks: [], added: 0, removed: 0 });
  });

  it('applies the rest and lists the skipped indexes', () => {
    const c = changed(
      applyEdits(
        file('a.ts', 'new1\nold2\n'),
        [
          { old_string: 'old1', new_string: 'new1' },
          { old_string: 'old2', new_string: 'new2' },
        ],
        opts,
      ),
    );
    expect(text(c.after)).toBe('new1\nnew2\n');
    expect(c.skipped).toEqual([0]);
    expect(c.changed).toBe(true);
  });

  it('still fails when neither string is there, or new_string is empty', () => {
    expectFailure(applyEdits(file('a.ts', 'x\n'), edit('old', 'new'), opts), 'not-found', 8);
    expectFailure(applyEdits(file('a.ts', 'x\n'), edit('old', ''), opts), 'not-found', 8);
  });

  it('is off by default', () => {
    expectFailure(applyEdits(file('a.ts', 'new\n'), edit('old', 'new')), 'not-found', 8);
  });

  it('treats a create whose content is already in the file as applied', () => {
    const c = changed(applyEdits(file('a.ts', 'export {}\n'), edit('', 'export {}\n'), opts));
    expect(c.skipped).toEqual([0]);
    expect(c.changed).toBe(false);
  });

  it('recognises new_string as it would have been written (trailing whitespace stripped)', () => {
    const c = changed(applyEdits(file('a.ts', 'let x = 1;\nrest\n'), edit('const x = 1;', 'let x = 1;   '), opts));
    expect(c.skipped).toEqual([0]);
  });
});

describe('sizes', () => {
  it('a file at exactly maxBytes is accepted', () => {
    changed(applyEdits(file('a.txt', utf8('abc')), edit('b', 'x'), { maxBytes: 3 }));
  });
});
