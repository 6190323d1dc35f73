// The recipe's `replace` with regex: true.
import { describe, expect, it } from 'vitest';
import { replaceRegex } from '../../src/core/index.js';
import { changed, expectFailure, file, text } from './helpers.js';

describe('replaceRegex', () => {
  it('replaces a unique match, with $1 references', () => {
    const c = changed(replaceRegex(file('a.ts', 'legacyLog("a");\n'), String.raw`legacyLog\((".*?")\)`, 'log($1)', false));
    expect(text(c.after)).toBe('log("a");\n');
  });

  it('supports $&, $$, $<name> and two-digit groups as String.prototype.replace does', () => {
    const content = 'abcdefghijk\n';
    const re = String.raw`(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(?<last>k)`;
    const expected = content.replace(new RegExp(re), '[$11|$10|$1|$&|$$|$<last>|$0|$99]');
    const c = changed(replaceRegex(file('a.txt', content), re, '[$11|$10|$1|$&|$$|$<last>|$0|$99]', false));
    expect(text(c.after)).toBe(expected);
  });

  it("fails 'not-unique' (9) with the count when the pattern matches twice without replace_all", () => {
    const f = expectFailure(replaceRegex(file('a.ts', 'x1 x2\n'), String.raw`x\d`, 'y', false), 'not-unique', 9);
    expect(f.data?.count).toBe(2);
    expect(f.message).toContain('add more context to identify one occurrence, or set replace_all');
  });

  it('replaces every match with replace_all', () => {
    const c = changed(replaceRegex(file('a.ts', 'x1 x2\nx3\n'), String.raw`x(\d)`, 'y$1', true));
    expect(text(c.after)).toBe('y1 y2\ny3\n');
    expect(c.patch).toMatchObject({ added: 2, removed: 2 });
  });

  it("fails 'not-found' (8) when nothing matches, and 'no-op' when nothing changes", () => {
    expectFailure(replaceRegex(file('a.ts', 'abc\n'), 'z+', 'y', true), 'not-found', 8);
    expectFailure(replaceRegex(file('a.ts', 'abc\n'), 'b', '$&', true), 'no-op', 1);
  });

  it('matches on the LF text and writes CRLF back', () => {
    const c = changed(replaceRegex(file('a.ts', 'a\r\nb\r\n'), 'a\\nb', 'c\nd', false));
    expect(text(c.after)).toBe('c\r\nd\r\n');
  });

  it("fails 'unsupported' for a pattern that is not a regular expression (the engine throws no usage errors)", () => {
    expect(expectFailure(replaceRegex(file('a.ts', 'x'), '(', 'y', false), 'unsupported').message).toContain('not a valid regular expression');
  });

  it("fails 'file-missing' on a missing file", () => {
    expectFailure(replaceRegex(file('a.ts', null), 'x', 'y', false), 'file-missing', 4);
  });
});
