// Where scion must do better than the ast-grep CLI: every byte a fix does not change is kept. Each
// case states scion's result exactly and, where the CLI runs, that the CLI's differs (so the case is
// one the CLI gets wrong, not one that happens to agree).
import { describe, expect, it } from 'vitest';
import { changedOutcome, cliRun, cliScan, engine, engineBytes, fromUtf8, utf8 } from './oracle.js';
import type { AstgrepSource } from '../../src/structural/load.js';

const step = (pattern: string, fix: string, extra: Record<string, unknown> = {}): AstgrepSource => ({
  kind: 'inline',
  step: { rule: { pattern }, fix, ...extra },
});

async function ours(pattern: string, fix: string, src: string, file = 'a.js'): Promise<string> {
  return fromUtf8(await engineBytes(step(pattern, fix), file, utf8(src)));
}

function utf16le(s: string): Uint8Array {
  const out = new Uint8Array(2 + 2 * s.length);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < s.length; i++) {
    out[2 + 2 * i] = s.charCodeAt(i) & 0xff;
    out[3 + 2 * i] = s.charCodeAt(i) >> 8;
  }
  return out;
}

describe('the layout a fix does not change is kept', () => {
  it('multi-line arguments keep their line breaks and indentation', async () => {
    const src = 'function f() {\n  console.log(\n    first,\n    second\n  );\n}\n';
    const out = await ours('console.log($$$ARGS)', 'logger.info($$$ARGS)', src);
    expect(out).toBe('function f() {\n  logger.info(\n    first,\n    second\n  );\n}\n');
    expect(cliRun('console.log($$$ARGS)', 'logger.info($$$ARGS)', 'js', 'a.js', src)).not.toBe(out);
  });

  it('comments inside and around the arguments stay', async () => {
    const src = 'console.log( /* lead */ a, // why\n  b /* tail */ );\nconsole.log(/* only */);\n';
    const out = await ours('console.log($$$ARGS)', 'logger.info($$$ARGS)', src);
    expect(out).toBe('logger.info( /* lead */ a, // why\n  b /* tail */ );\nlogger.info(/* only */);\n');
    expect(cliRun('console.log($$$ARGS)', 'logger.info($$$ARGS)', 'js', 'a.js', src)).not.toBe(out);
  });

  it('a trailing comma the pattern does not name stays, one per line', async () => {
    const src = 'foo(\n  a,\n  b,\n);\n';
    const out = await ours('foo($A, $B)', 'bar($A, $B)', src);
    expect(out).toBe('bar(\n  a,\n  b,\n);\n');
    expect(cliRun('foo($A, $B)', 'bar($A, $B)', 'js', 'a.js', src)).toBe('bar(a, b);\n');
  });

  it("the statement's semicolon stays when the pattern does not name it", async () => {
    const src = 'let x = 1;\nlet y = 2\n';
    const out = await ours('let $A = $B', 'const $A = $B', src);
    expect(out).toBe('const x = 1;\nconst y = 2\n');
    expect(cliRun('let $A = $B', 'const $A = $B', 'js', 'a.js', src)).toBe('const x = 1\nconst y = 2\n');
  });

  it('spacing the source chose between unchanged tokens stays (differ only in whitespace)', async () => {
    expect(await ours('foo($A, $B)', 'bar($A, $B)', 'foo(a,b);\nfoo( a , b );\n')).toBe('bar(a,b);\nbar( a , b );\n');
  });

  it('a string whose spacing differs from the template is written as the template says', async () => {
    // Whitespace inside a string is content: never taken for layout.
    expect(await ours('log("a b", $X)', 'log("a  b", $X)', 'log("a b", x);\n')).toBe('log("a  b", x);\n');
    expect(await ours("log('', $X)", "log(' ', $X)", "log('', x);\n")).toBe("log(' ', x);\n");
  });

  it('lines inside a template literal are never re-indented', async () => {
    const src = 'if (x) {\n  f(`line1\n  line2`);\n}\n';
    const fix = 'g(\n  $A\n)';
    const out = await ours('f($A)', fix, src);
    expect(out).toBe('if (x) {\n  g(`line1\n  line2`);\n}\n');
    // The CLI indents the second line of the template literal, changing the string.
    expect(cliRun('f($A)', fix, 'js', 'a.js', src)).toContain('    line2`');
  });

  it('a multi-line fix is indented to the match, with tabs where the file uses tabs', async () => {
    expect(await ours('foo($A)', 'if (x) {\n  bar($A);\n}', '\tfoo(1);\n')).toBe('\tif (x) {\n\t  bar(1);\n\t};\n');
    expect(await ours('foo($A)', 'if (x) {\n  bar($A);\n}', '    foo(1);\n')).toBe('    if (x) {\n      bar(1);\n    };\n');
  });

  it("CRLF: untouched lines keep their bytes, the fix's line breaks are CRLF", async () => {
    const src = 'a();\r\nfoo(1);\r\nb();\n';
    const out = await engineBytes(step('foo($A)', 'if (x) {\n  bar($A);\n}'), 'a.js', utf8(src));
    // Mixed endings: the lone LF of the last line is not the file's style and stays as it is.
    expect(fromUtf8(out)).toBe('a();\r\nif (x) {\r\n  bar(1);\r\n};\r\nb();\n');
  });

  it('CRLF: a callee change touches the callee bytes only', async () => {
    const src = 'console.log(\r\n  a,\r\n  b\r\n);\r\n';
    expect(fromUtf8(await engineBytes(step('console.log($$$A)', 'logger.info($$$A)'), 'a.js', utf8(src)))).toBe('logger.info(\r\n  a,\r\n  b\r\n);\r\n');
  });

  it('a UTF-8 BOM is kept', async () => {
    const bytes = utf8('\uFEFFconsole.log(a);\n');
    const out = await engineBytes(step('console.log($$$A)', 'logger.info($$$A)'), 'a.js', bytes);
    expect([...out.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(fromUtf8(out.slice(3))).toBe('logger.info(a);\n');
  });

  it('UTF-16LE stays UTF-16LE, with its BOM', async () => {
    const out = await engineBytes(step('console.log($$$A)', 'logger.info($$$A)'), 'a.js', utf16le('// é\r\nconsole.log("ü");\r\n'));
    expect([...out]).toEqual([...utf16le('// é\r\nlogger.info("ü");\r\n')]);
  });

  it('emoji and CJK before a match: positions are UTF-16 indexes, not bytes', async () => {
    const src = "const s = '😀中文🎉'; // 注释\nconsole.log(s, '表');\n";
    const bytes = utf8(src);
    const out = await engineBytes(step('console.log($$$A)', 'logger.info($$$A)'), 'a.js', bytes);
    expect(fromUtf8(out)).toBe("const s = '😀中文🎉'; // 注释\nlogger.info(s, '表');\n");
    // The CLI agrees here: the point is the offsets, which a byte/UTF-16 mix-up would shift.
    const rule = 'id: x\nlanguage: javascript\nrule: { pattern: "console.log($$$A)" }\nfix: "logger.info($$$A)"\n';
    expect(fromUtf8(cliScan(rule, 'a.js', bytes))).toBe(fromUtf8(out));
  });

  it("only the changed spans are new: the change list covers the callee's two words alone", async () => {
    const r = changedOutcome(await engine(step('console.log($$$A)', 'logger.info($$$A)'), 'a.js', utf8('x;\nconsole.log(\n  a\n);\n')));
    expect(r.changes.map((c) => [c.oldStart, c.oldEnd, c.text])).toEqual([
      [3, 10, 'logger'],
      [11, 14, 'info'],
    ]);
    expect(r.matches).toBe(1);
  });
});

describe('nested matches and rule order', () => {
  it("matches inside a match's metavariables are rewritten in the same pass, innermost first", async () => {
    const src = 'console.log(console.log(x), [console.log(y)]);\n';
    const r = changedOutcome(await engine(step('console.log($$$A)', 'logger.info($$$A)'), 'a.js', utf8(src)));
    expect(r.newText).toBe('logger.info(logger.info(x), [logger.info(y)]);\n');
    expect(r.matches).toBe(3);
    // The CLI rewrites the outer call only.
    expect(cliRun('console.log($$$A)', 'logger.info($$$A)', 'js', 'a.js', src)).toBe('logger.info(console.log(x), [console.log(y)]);\n');
  });

  it('the output is never matched again: a fix that contains its own pattern terminates', async () => {
    expect(await ours('f($A)', 'f(f($A))', 'f(1);\n')).toBe('f(f(1));\n');
  });

  it('a transform reads the rewritten text of a nested match', async () => {
    const src = 'foo(bar(1), 2);\n';
    const s: AstgrepSource = {
      kind: 'inline',
      step: {
        rule: { pattern: '$F($$$A)' },
        transform: { UP: { convert: { source: '$F', toCase: 'upperCase' } }, ARGS: { replace: { source: '$$$A', replace: 'BAR', by: 'Bar' } } },
        fix: '$UP($ARGS)',
      },
    };
    expect(fromUtf8(await engineBytes(s, 'a.js', utf8(src)))).toBe('FOO(Bar(1), 2);\n');
  });

  it('a match the fix drops (in no metavariable it uses) is not rewritten and not counted', async () => {
    const r = changedOutcome(await engine(step('wrap($A, $B)', 'wrap($A)'), 'a.js', utf8('wrap(1, wrap(2, 3));\n')));
    expect(r.newText).toBe('wrap(1);\n');
    expect(r.matches).toBe(1);
  });

  it('the documents of a rule file apply in order: the second sees what the first wrote', async () => {
    const doc1 = 'id: one\nlanguage: javascript\nrule: { pattern: "console.log($$$A)" }\nfix: "logger.info($$$A)"\n';
    const doc2 = 'id: two\nlanguage: javascript\nrule: { pattern: "logger.info($A)" }\nfix: "logger.debug($A)"\n';
    const src = 'console.log(a);\nconsole.log(a, b);\n';
    const out = fromUtf8(await engineBytes({ kind: 'file', file: 'rules.yml', text: `${doc1}---\n${doc2}` }, 'a.js', utf8(src)));
    expect(out).toBe('logger.debug(a);\nlogger.info(a, b);\n');
    // The same as running the CLI with each rule in turn.
    expect(out).toBe(fromUtf8(cliScan(doc2, 'a.js', cliScan(doc1, 'a.js', src))));
  });
});
