// Behaviours 1, 4, 5 and 7: matching, uniqueness, replace_all, deletion, sequences, creation.
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../src/core/index.js';
import { changed, expectFailure, file, text } from './helpers.js';

describe('one edit', () => {
  it('replaces the one exact occurrence and nothing else', () => {
    const c = changed(applyEdits(file('a.ts', 'const a = 1;\nconst b = 2;\n'), [{ old_string: 'b = 2', new_string: 'b = 3' }]));
    expect(text(c.after)).toBe('const a = 1;\nconst b = 3;\n');
    expect(c.changed).toBe(true);
    expect(c.path).toBe('a.ts');
    expect(c.skipped).toEqual([]);
  });

  it("fails 'not-found' (8) when the model remembers a name that is gone: handleError vs processError", () => {
    const src = 'function processError(e) {\n  log(e);\n}\n';
    const f = expectFailure(applyEdits(file('err.ts', src), [{ old_string: 'function handleError(e) {', new_string: 'function handle(e) {' }]), 'not-found', 8);
    expect(f.message).toContain('function handleError(e) {');
    expect(f.data?.oldString).toBe('function handleError(e) {');
  });

  it("fails 'not-unique' (9) with the count when old_string occurs more than once", () => {
    const f = expectFailure(
      applyEdits(file('a.ts', 'return null;\nreturn null;\nreturn null;\n'), [{ old_string: 'return null;', new_string: 'return 0;' }]),
      'not-unique',
      9,
    );
    expect(f.data?.count).toBe(3);
    expect(f.message).toContain('3 matches');
    expect(f.message).toContain('add more context to identify one occurrence, or set replace_all');
  });

  it('replace_all replaces every occurrence', () => {
    const c = changed(
      applyEdits(file('a.ts', 'legacyLog(1);\nlegacyLog(2);\nx.legacyLog(3);\n'), [{ old_string: 'legacyLog(', new_string: 'log(', replace_all: true }]),
    );
    expect(text(c.after)).toBe('log(1);\nlog(2);\nx.log(3);\n');
    expect(c.patch).toMatchObject({ added: 3, removed: 3 });
  });

  it('writes $&, $1 and $$ in new_string literally', () => {
    const c = changed(applyEdits(file('a.ts', 'price = X;\nother = X;\n'), [{ old_string: 'X', new_string: "'$&$1$$`'", replace_all: true }]));
    expect(text(c.after)).toBe("price = '$&$1$$`';\nother = '$&$1$$`';\n");
  });

  it('finds old_string across CRLF lines through the LF view', () => {
    const c = changed(applyEdits(file('a.ts', 'a\r\nb\r\n'), [{ old_string: 'a\nb', new_string: 'x\ny' }]));
    expect(text(c.after)).toBe('x\r\ny\r\n');
  });
});

describe('deletion', () => {
  it('takes the line\'s newline along: line1\\nline2\\nline3\\n minus "line2" is line1\\nline3\\n', () => {
    const c = changed(applyEdits(file('a.txt', 'line1\nline2\nline3\n'), [{ old_string: 'line2', new_string: '' }]));
    expect(text(c.after)).toBe('line1\nline3\n');
  });

  it('deletes only old_string when no newline follows it', () => {
    const c = changed(applyEdits(file('a.txt', 'keep this; drop this'), [{ old_string: ' drop this', new_string: '' }]));
    expect(text(c.after)).toBe('keep this;');
  });

  it('does not take a second newline when old_string already ends in one', () => {
    const c = changed(applyEdits(file('a.txt', 'a\nb\n\nc\n'), [{ old_string: 'b\n', new_string: '' }]));
    expect(text(c.after)).toBe('a\n\nc\n');
  });

  it("with replace_all, takes each deleted line's newline", () => {
    const c = changed(applyEdits(file('a.ts', 'debugger\nrun()\ndebugger\nend()\n'), [{ old_string: 'debugger', new_string: '', replace_all: true }]));
    expect(text(c.after)).toBe('run()\nend()\n');
  });
});

describe('a sequence of edits', () => {
  it('applies them in order, each on the result of the one before', () => {
    const c = changed(
      applyEdits(file('a.ts', 'import { log } from "./legacy";\nlegacyLog(1);\n'), [
        { old_string: 'from "./legacy"', new_string: 'from "./logger"' },
        { old_string: 'legacyLog(', new_string: 'log(' },
      ]),
    );
    expect(text(c.after)).toBe('import { log } from "./logger";\nlog(1);\n');
  });

  it('is all or nothing: a failing later edit leaves no change at all', () => {
    const r = applyEdits(file('a.ts', 'a\nb\n'), [
      { old_string: 'a', new_string: 'A' },
      { old_string: 'missing', new_string: 'x' },
    ]);
    const f = expectFailure(r, 'not-found', 8);
    expect(f.data?.edit).toBe(1);
    expect(f.message).toContain('edit 2 of 2');
  });

  it("refuses an old_string found inside an earlier edit's new_string ('cascade'): the foo()/bar() example", () => {
    const r = applyEdits(file('a.ts', 'foo();\nbar();\n'), [
      { old_string: 'foo()', new_string: 'foo() // calls bar()' },
      { old_string: 'bar()', new_string: 'baz()' },
    ]);
    const f = expectFailure(r, 'cascade');
    expect(f.data).toMatchObject({ edit: 1, previous: 0 });
  });

  it('strips trailing newlines of old_string before the cascade check', () => {
    const r = applyEdits(file('a.ts', 'x\ny\nz\n'), [
      { old_string: 'x', new_string: 'x = y' },
      { old_string: 'y\n', new_string: 'w\n' },
    ]);
    expectFailure(r, 'cascade');
  });

  it('allows edits whose old_string is unrelated to earlier new_strings', () => {
    const c = changed(
      applyEdits(file('a.ts', 'foo();\nbar();\n'), [
        { old_string: 'foo()', new_string: 'foo2()' },
        { old_string: 'bar()', new_string: 'baz()' },
      ]),
    );
    expect(text(c.after)).toBe('foo2();\nbaz();\n');
  });

  it("fails 'no-op' (1) when an edit's old_string equals its new_string, before anything else", () => {
    const f = expectFailure(applyEdits(file('missing.ts', null), [{ old_string: 'a', new_string: 'a' }]), 'no-op', 1);
    expect(f.data?.edit).toBe(0);
  });

  it("fails when an edit would change nothing once new_string's trailing whitespace is stripped", () => {
    expectFailure(applyEdits(file('a.ts', 'x\n'), [{ old_string: 'x', new_string: 'x   ' }]), 'not-found', 8);
  });
});

describe('creating files', () => {
  it('an empty old_string creates a missing file', () => {
    const c = changed(applyEdits(file('new.ts', null), [{ old_string: '', new_string: 'export {}\n' }]));
    expect(c.before).toBeNull();
    expect(text(c.after)).toBe('export {}\n');
    expect(c.changed).toBe(true);
    expect(c.patch).toMatchObject({ added: 1, removed: 0 });
  });

  it('an empty old_string fills a file that holds only whitespace', () => {
    const c = changed(applyEdits(file('new.ts', '  \n\n'), [{ old_string: '', new_string: 'export {}\n' }]));
    expect(text(c.after)).toBe('export {}\n');
  });

  it("an empty old_string on a file with content is refused: 'file-exists' (3)", () => {
    expectFailure(applyEdits(file('a.ts', 'content\n'), [{ old_string: '', new_string: 'other\n' }]), 'file-exists', 3);
  });

  it("a non-empty old_string on a missing file is 'file-missing' (4), with suggestions", () => {
    const f = expectFailure(
      applyEdits(file('src/lgo.ts', null), [{ old_string: 'a', new_string: 'b' }], { suggestPaths: () => ['src/log.ts'] }),
      'file-missing',
      4,
    );
    expect(f.message).toContain('src/log.ts');
    expect(f.data?.suggestions).toEqual(['src/log.ts']);
  });

  it('text a creating edit just wrote is protected from later edits in the sequence (cascade)', () => {
    const r = applyEdits(file('new.ts', null), [
      { old_string: '', new_string: 'const a = 1;\nconst b = 2;\n' },
      { old_string: 'const b', new_string: 'let b' },
    ]);
    expectFailure(r, 'cascade');
  });
});

describe('the FileChange value', () => {
  it('reads like plain data: spread and JSON carry newText and the patch, built once', () => {
    const c = changed(applyEdits(file('a.ts', 'a\nb\n'), [{ old_string: 'b', new_string: 'c' }]));
    const copy = { ...c };
    expect(copy.newText).toBe('a\nc\n');
    expect(copy.patch).toMatchObject({ added: 1, removed: 1 });
    expect(c.patch).toBe(c.patch);
    const json = JSON.parse(JSON.stringify(c)) as { newText: string; patch: { hunks: unknown[] } };
    expect(json.newText).toBe('a\nc\n');
    expect(json.patch.hunks).toHaveLength(1);
  });
});
