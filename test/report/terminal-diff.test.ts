// The plan's coloured diff, read back as a terminal would draw it (tests/report/ansi-parse.ts):
// syntax styles per token, the changed words set apart from their neighbours, wrapping that keeps
// every row's escapes whole and ends it with a reset, the gutter dropped on a narrow terminal, big
// diffs cut with a count, binary and UTF-16 files named.
import { describe, expect, it } from 'vitest';
import { planDiffRenderer, renderPlanDiff, type PlanDiffOptions } from '../../src/report/terminal-diff.js';
import type { FileReport } from '../../src/model/types.js';
import { brokenEscapes, endState, isReset, parseAnsi, plainText, styleOf, visibleWidth } from './ansi-parse.js';
import { fileReport } from './sample.js';

const TERM256 = { TERM: 'xterm-256color' };
const before = [
  'import { legacyLog } from "./legacy";',
  '',
  'export function main(): number {',
  '  const total = compute(1, 2);',
  '  legacyLog("start", total);',
  '  return total;',
  '}',
  '',
].join('\n');
const after = before.replace('{ legacyLog }', '{ log }').replace('legacyLog("start"', 'log("start"');
const ts = fileReport('src/main.ts', before, after);

async function render(files: readonly FileReport[], o: Partial<PlanDiffOptions> = {}): Promise<string[]> {
  const draw = await planDiffRenderer(files, { color: true, env: TERM256, ...o });
  return draw(files).split('\n');
}

const lineWith = (lines: readonly string[], text: string): string => {
  const found = lines.find((l) => plainText(l).includes(text));
  if (found === undefined) throw new Error(`no line with ${text}`);
  return found;
};

describe('syntax highlighting', () => {
  it('gives a keyword and an identifier different styles, by the language of the path', async () => {
    const lines = await render([ts]);
    const ctx = lineWith(lines, 'const total = compute');
    expect(styleOf(ctx, 'const').fg).toBe('35');
    expect(styleOf(ctx, 'total')).toMatchObject({ fg: null, bg: null });
    expect(styleOf(ctx, 'const')).not.toEqual(styleOf(ctx, 'total'));
    // A string is coloured on a removed line too, over the line's background.
    const del = lineWith(lines, '-  legacyLog("start"');
    expect(styleOf(del, '"start"').fg).toBe('33');
    expect(styleOf(del, '"start"').bg).toBe(styleOf(del, 'total').bg);
  });

  it('leaves a file of unknown language uncoloured apart from the diff colours', async () => {
    const f = fileReport('notes.unknown-ext', 'const a = 1\n', 'const b = 1\n');
    const lines = await render([f]);
    const add = lineWith(lines, '+const b');
    expect(styleOf(add, 'const').fg).toBe(styleOf(add, '= 1').fg);
  });

  it('reads a script without an extension by its #! line', async () => {
    const f = fileReport('bin/deploy', '#!/usr/bin/env bash\nif true; then echo old; fi\n', '#!/usr/bin/env bash\nif true; then echo new; fi\n');
    const line = lineWith(await render([f]), '+if true');
    expect(styleOf(line, 'if').fg).toBe('35');
    expect(styleOf(line, 'new').fg).not.toBe('35');
  });
});

describe('changed words', () => {
  it('sets the changed word apart from its unchanged neighbours on both lines', async () => {
    const lines = await render([ts]);
    const del = lineWith(lines, '-  legacyLog("start"');
    const add = lineWith(lines, '+  log("start"');
    for (const neighbour of ['(', ', total);']) {
      expect(styleOf(del, 'legacyLog').bg).not.toBe(styleOf(del, neighbour).bg);
      expect(styleOf(add, 'log').bg).not.toBe(styleOf(add, neighbour).bg);
    }
    expect(styleOf(del, 'legacyLog').bold).toBe(true);
    expect(styleOf(del, ', total);').bold).toBe(false);
    // Removed and added lines are told apart by their background.
    expect(styleOf(del, 'total').bg).not.toBe(styleOf(add, 'total').bg);
    const imp = lineWith(lines, '+import { log }');
    expect(styleOf(imp, 'log').bg).not.toBe(styleOf(imp, ' } ').bg);
  });

  it('marks changed words in reverse video on a terminal of 16 colours', async () => {
    const lines = await render([ts], { env: { TERM: 'xterm' } });
    const add = lineWith(lines, '+  log("start"');
    expect(styleOf(add, 'log').reverse).toBe(true);
    expect(styleOf(add, '("start"').reverse).toBe(false);
    expect(styleOf(add, '("start"').fg).toBe('32');
  });

  it('makes a whitespace-only change visible', async () => {
    const f = fileReport('src/a.ts', 'if (a) {\n\tgo();\n}\n', 'if (a) {\n    go();\n}\n');
    const lines = await render([f]);
    const del = lineWith(lines, 'go();');
    const add = lines.find((l) => plainText(l).includes('····go();'))!;
    expect(add).toBeDefined();
    expect(plainText(del)).toContain('→   go();');
    expect(styleOf(add, '····').bg).not.toBe(styleOf(add, 'go').bg);
    expect(styleOf(del, '→').bg).not.toBe(styleOf(del, 'go').bg);
  });

  it('does not mark words when the whole line changed', async () => {
    const f = fileReport('src/a.ts', 'alpha beta gamma;\n', 'delta epsilon zeta;\n');
    const add = lineWith(await render([f]), '+delta');
    expect(styleOf(add, 'delta epsilon zeta').bg).toBe(styleOf(add, ';').bg);
  });
});

describe('wrapping to the terminal width', () => {
  const long = `  const message = ${Array.from({ length: 12 }, (_, i) => `"part ${i} of a very long line"`).join(' + ')};`;
  const f = fileReport('src/long.ts', `start();\n${long}\nend();\n`, `start();\n${long.replace('part 7', 'piece 7')}\nend();\n`);

  it('keeps every row within the width, every escape whole, and ends each row with a reset', async () => {
    for (const width of [50, 63, 80]) {
      const lines = await render([f], { width });
      const text = lines.join('\n');
      expect(brokenEscapes(text)).toBe(0);
      for (const l of lines) {
        expect(visibleWidth(l)).toBeLessThan(width);
        expect(isReset(endState(l))).toBe(true);
        if (l.includes('\x1b')) expect(l.endsWith('\x1b[0m')).toBe(true);
        parseAnsi(l);
      }
      // The wrapped rows carry the whole line: joined again (gutter and marker column removed), it is the line.
      const rows = lines.map(plainText);
      const first = rows.findIndex((r) => r.includes('+  const message'));
      const gutter = rows[first]!.indexOf('│ ') + 2;
      let joined = rows[first]!.slice(gutter + 1);
      for (let k = first + 1; rows[k]!.slice(0, gutter).trim() === '│'; k++) joined += rows[k]!.slice(gutter + 1);
      expect(joined).toBe(long.replace('part 7', 'piece 7'));
    }
  });

  it('keeps the changed word marked on the row it wrapped to', async () => {
    const lines = await render([f], { width: 50 });
    const row = lineWith(lines, 'piece');
    expect(styleOf(row, 'piece').bg).not.toBe(styleOf(row, '"').bg);
  });

  it('drops the gutter on a terminal narrower than the gutter plus 20 columns', async () => {
    const small = fileReport('src/a.ts', 'let a = 1;\n', 'let a = 2;\n');
    // Gutter "1 1 │ " is 6 columns: 26 keeps it, 25 drops it.
    expect((await render([small], { width: 26 })).map(plainText)).toContain('1   │ -let a = 1;');
    const narrow = (await render([small], { width: 25 })).map(plainText);
    expect(narrow).toContain('-let a = 1;');
    expect(narrow).toContain('+let a = 2;');
    expect(narrow.join('\n')).not.toContain('│');
  });

  it('wraps wide characters whole', async () => {
    const cjk = fileReport('src/t.ts', 'x\n', `const s = "${'漢字'.repeat(30)}";\n`);
    const lines = await render([cjk], { width: 40 });
    for (const l of lines) expect(visibleWidth(l)).toBeLessThan(40);
    expect(lines.map(plainText).join('')).toContain('漢字漢字');
  });

  it('cuts a line longer than ten rows and says how much is left out', async () => {
    const minified = fileReport('src/m.ts', 'a\n', `${'x = 1; '.repeat(200)}\n`);
    const rows = (await render([minified], { width: 60 })).map(plainText);
    expect(rows.filter((r) => r.includes('x = 1')).length).toBe(10);
    expect(rows.join('\n')).toMatch(/… [\d,]+ more columns of this line not shown/);
  });

  it('gives plain text and no escape at all without colour', () => {
    const out = renderPlanDiff([f, ts], { color: false, width: 50 });
    expect(out).not.toContain('\x1b');
    for (const l of out.split('\n')) expect(visibleWidth(l)).toBeLessThan(50);
  });
});

describe('big changes and files that are not UTF-8 text', () => {
  it('cuts a 5,000-line change with a line saying how much was left out', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const f = fileReport('src/huge.ts', 'x\n', lines);
    const out = renderPlanDiff([f], { color: false }).split('\n');
    expect(out.filter((l) => l.includes('+line ')).length).toBe(99);
    expect(out).toContain('… 4,901 more lines of this diff not shown (5,001 in all); `scion plan --patch` prints it all');
    const coloured = renderPlanDiff([f], { color: true, env: TERM256 }).split('\n').map(plainText);
    expect(coloured).toEqual(out);
  });

  it('leaves out the diff of a lock file, with its counts', () => {
    const lock = fileReport('package-lock.json', '{}\n', `${Array.from({ length: 60 }, (_, i) => `"dep${i}": "1.0.${i}",`).join('\n')}\n`);
    const out = renderPlanDiff([lock], { color: false });
    expect(out).toBe('package-lock.json  +60 -1\n  (lock file: diff of 61 lines not shown; `scion plan --patch` prints it)\n');
    // A small change to a lock file is still shown.
    const small = fileReport('yarn.lock', 'a\n', 'b\n');
    expect(renderPlanDiff([small], { color: false })).toContain('+b');
  });

  it('names binary and UTF-16 files', () => {
    const binary: FileReport = { path: 'logo.png', group: 'rest', added: 0, removed: 0 };
    const utf16: FileReport = { ...fileReport('notes.txt', 'hello\n', 'hallo\n'), encoding: 'utf16le' };
    const out = renderPlanDiff([binary, utf16], { color: false });
    expect(out).toContain('logo.png  +0 -0\n  (binary file, or text in an encoding other than UTF-8/UTF-16: no text diff)');
    expect(out).toContain('notes.txt (UTF-16 text: git shows it as binary)  +1 -1');
    expect(out).toContain('+hallo');
  });
});
