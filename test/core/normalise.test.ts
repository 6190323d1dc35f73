// Behaviours 2 and 3: trailing whitespace, API desanitisation, curly quotes and the file's quote style.
import { describe, expect, it } from 'vitest';
import { applyEdits, findActualString } from '../../src/core/index.js';
import { changed, expectFailure, file, text } from './helpers.js';

describe('trailing whitespace in new_string', () => {
  it('is stripped from each line outside Markdown', () => {
    const c = changed(applyEdits(file('a.ts', 'a\nb\nc\n'), [{ old_string: 'b', new_string: 'x  \ny\t' }]));
    expect(text(c.after)).toBe('a\nx\ny\nc\n');
  });

  it('is kept in .md and .mdx, where two spaces are a hard line break', () => {
    for (const path of ['README.md', 'docs/page.MDX']) {
      const c = changed(applyEdits(file(path, 'a\nb\n'), [{ old_string: 'a', new_string: 'line one  \nline two' }]));
      expect(text(c.after)).toBe('line one  \nline two\nb\n');
    }
  });

  it('is kept at the end of new_string when the match continues on the same line', () => {
    // "const x = " → "let x = ": the space is not trailing, stripping it would glue "=1".
    const c = changed(applyEdits(file('a.ts', 'const x = 1;\n'), [{ old_string: 'const x = ', new_string: 'let x = ' }]));
    expect(text(c.after)).toBe('let x = 1;\n');
  });
});

describe('API desanitisation', () => {
  const cases: [string, string][] = [
    ['<fnr>', '<function_results>'],
    ['<n>x</n>', '<name>x</name>'],
    ['<o>x</o>', '<output>x</output>'],
    ['<e>x</e>', '<error>x</error>'],
    ['<s>x</s>', '<system>x</system>'],
    ['<r>x</r>', '<result>x</result>'],
    ['< META_START >', '<META_START>'],
    ['< META_END >', '<META_END>'],
    ['< EOT >', '<EOT>'],
    ['< META >', '<META>'],
    ['< SOS >', '<SOS>'],
    ['intro\n\nH: hi', 'intro\n\nHuman: hi'],
    ['intro\n\nA: hi', 'intro\n\nAssistant: hi'],
  ];
  it.each(cases)("matches the short form %j against the file's %j and writes the long form", (short, long) => {
    const c = changed(applyEdits(file('prompt.txt', `before ${long} after\n`), [{ old_string: short, new_string: `${short}!` }]));
    expect(text(c.after)).toBe(`before ${long}! after\n`);
  });

  it('is tried only when the exact string is not in the file', () => {
    const c = changed(applyEdits(file('a.txt', 'literal <n> tag and <name>\n'), [{ old_string: '<n>', new_string: '<m>' }]));
    expect(text(c.after)).toBe('literal <m> tag and <name>\n');
  });
});

describe('curly quotes', () => {
  it("findActualString matches exactly first, then through curly quotes, returning the file's text", () => {
    expect(findActualString('say "hi"', 'say "hi"')).toBe('say "hi"');
    expect(findActualString('say \u201Chi\u201D and don\u2019t', 'say "hi" and don\'t')).toBe('say \u201Chi\u201D and don\u2019t');
    expect(findActualString('nothing here', '"hi"')).toBeNull();
  });

  it("an edit with straight quotes matches curly ones and writes new_string in the file's style (don't)", () => {
    const before = 'He said \u201Chello\u201D and don\u2019t stop.\n';
    const c = changed(applyEdits(file('story.txt', before), [{ old_string: 'He said "hello" and don\'t', new_string: 'She said "bye" and won\'t' }]));
    expect(text(c.after)).toBe('She said \u201Cbye\u201D and won\u2019t stop.\n');
  });

  it('opens a quote after start, space, bracket or dash, closes it elsewhere', () => {
    const before = 'x = \u2018a\u2019\n';
    const c = changed(applyEdits(file('a.txt', before), [{ old_string: "x = 'a'", new_string: "y = ('b'), 'c'—'d'" }]));
    expect(text(c.after)).toBe('y = (\u2018b\u2019), \u2018c\u2019\u2014\u2018d\u2019\n');
  });

  it('leaves straight quotes alone when the file used straight ones', () => {
    const c = changed(applyEdits(file('a.ts', "s = 'a';\n"), [{ old_string: "'a'", new_string: "'b'" }]));
    expect(text(c.after)).toBe("s = 'b';\n");
  });

  it('counts matches through curly quotes for uniqueness', () => {
    const twice = 'a \u201Cx\u201D b \u201Cx\u201D\n';
    expectFailure(applyEdits(file('a.txt', twice), [{ old_string: '"x"', new_string: '"y"' }]), 'not-unique', 9);
    const c = changed(applyEdits(file('a.txt', twice), [{ old_string: '"x"', new_string: '"y"', replace_all: true }]));
    expect(text(c.after)).toBe('a \u201Cy\u201D b \u201Cy\u201D\n');
  });
});
