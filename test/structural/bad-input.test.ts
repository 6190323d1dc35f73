// Bad input: rules and files that must end in a clear value, never in a broken file or a hang.
import { describe, expect, it } from 'vitest';
import { rewriteFile } from '../../src/structural/astgrep.js';
import { loadAstgrep, type AstgrepSource } from '../../src/structural/load.js';
import { StructuralPool } from '../../src/structural/pool.js';
import { changedOutcome, engine, ROOT, utf8 } from './oracle.js';

const step = (rule: Record<string, unknown>, fix?: string): AstgrepSource => ({ kind: 'inline', step: { rule, ...(fix === undefined ? {} : { fix }) } });

/** A minified bundle of about `size` characters on one line, with a console.log every `every` functions. */
function minified(size: number, every: number): { text: string; logs: number } {
  const parts: string[] = [];
  let n = 0;
  let logs = 0;
  for (let i = 0; n < size; i++) {
    const log = i % every === 0;
    if (log) logs++;
    const s = `var a${i}=function(b,c){return ${log ? `console.log(b,"${i}"),` : ''}b*c+${i}};`;
    parts.push(s);
    n += s.length;
  }
  return { text: parts.join(''), logs };
}

describe('rules that match the whole file', () => {
  it('a fix around the whole program inserts its text and keeps every other byte', async () => {
    const src = "import a from 'a';\n\nfoo(1);   // keep   this\n";
    const r = changedOutcome(await engine(step({ kind: 'program', pattern: '$P' }, '// generated\n$P'), 'a.js', utf8(src)));
    expect(r.newText).toBe(`// generated\n${src}`);
    expect(r.changes.map((c) => [c.oldStart, c.oldEnd, c.text])).toEqual([[0, 0, '// generated\n']]);
    expect(r.matches).toBe(1);
  });

  it('a fix that reproduces the whole program changes nothing', async () => {
    const r = await engine(step({ kind: 'program', pattern: '$P' }, '$P'), 'a.js', utf8('a();\n\n\tb( 1 ,2 );\n'));
    expect(r.ok && r.value).toEqual({ status: 'unchanged', matches: 1 });
  });

  it('a fix that replaces the whole program by text is applied like any other', async () => {
    const r = changedOutcome(await engine(step({ kind: 'program' }, "'use strict';\n"), 'a.js', utf8('a();\nb();\n')));
    expect(r.newText).toBe("'use strict';\n");
  });
});

describe('fixes that would break the file', () => {
  it('a fix producing invalid syntax fails with invalid-result and nothing to write', async () => {
    const r = await engine(step({ pattern: 'foo($A)' }, 'foo($A'), 'src/a.js', utf8('foo(1);\nbar();\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('invalid-result');
    expect(r.error.data).toEqual({ path: 'src/a.js', language: 'javascript' });
  });

  it('a fix whose damage tree-sitter repairs with an invisible node is caught as well', async () => {
    // `bar(1;` parses with a MISSING ")" and no ERROR node.
    const r = await engine(step({ pattern: 'foo($A);' }, 'bar($A;'), 'a.js', utf8('foo(1);\n'));
    expect(!r.ok && r.error.kind).toBe('invalid-result');
  });

  it('breakage is found wherever the rewritten construct sits: only the changed pieces are parsed again', async () => {
    const statements = Array.from({ length: 40 }, (_, i) => `const v${i} = compute(${i});`).join('\n');
    const cases: [string, string, string, string][] = [
      // A semicolon removed between two statements on one line glues them: the neighbour is checked too.
      ['a = 1; b = 2;\n', 'a = 1;', 'a = 1', 'two statements on one line'],
      // Inside a class method: the class is the top-level piece.
      ['class A {\n  m() {\n    foo(1);\n  }\n}\nconst x = 1;\n', 'foo($A)', 'foo($A', 'a method'],
      // A module wrapped in one IIFE: one top-level node, so the whole result is parsed.
      ['(function () {\n  foo(1);\n})();\n', 'foo($A)', 'foo($A', 'an IIFE (one top-level node: the whole result is parsed)'],
      // In the middle of many statements.
      [`${statements}\nfoo(1);\n${statements.replaceAll('v', 'w')}\n`, 'foo($A)', 'foo($A', 'the middle of a long file'],
      // A bundle wrapped in one function beside a few small statements: the piece is most of the file,
      // so the whole result is parsed instead of the piece twice.
      [`'use strict';\nvar x = 1;\n(function () {\n${statements}\n  foo(1);\n${statements}\n})();\nvar y = 2;\n`, 'foo($A)', 'foo($A', 'a wrapped bundle'],
    ];
    for (const [src, pattern, fix, where] of cases) {
      // Alone, and among many statements (then only a few of them are parsed again).
      for (const text of [src, `${statements}\n${src}${statements}\n`]) {
        const r = await engine(step({ pattern }, fix), 'a.js', utf8(text));
        expect(!r.ok && r.error.kind, where).toBe('invalid-result');
      }
    }
    // The same pieces, rewritten validly, pass.
    const fine = await engine(step({ pattern: 'foo($A)' }, 'bar($A)'), 'a.js', utf8(`${statements}\nfoo(1);\n${statements}\n`));
    expect(fine.ok && fine.value.status).toBe('changed');
    const bundle = `'use strict';\nvar x = 1;\n(function () {\n${statements}\n  foo(1);\n})();\nvar y = 2;\n`;
    const wrapped = await engine(step({ pattern: 'foo($A)' }, 'bar($A)'), 'a.js', utf8(bundle));
    expect(wrapped.ok && wrapped.value.status).toBe('changed');
  });

  it('a file that already has syntax errors is skipped, not rewritten', async () => {
    for (const broken of ['foo(1);\nlet = ;\n', 'foo(1);\nbar(2;\n']) {
      const r = await engine(step({ pattern: 'foo($A)' }, 'baz($A)'), 'a.js', utf8(broken));
      expect(r.ok && r.value).toEqual({ status: 'skipped', reason: 'syntax-error', matches: 0 });
    }
  });

  it('a count-only rule reports matches even in a broken file (nothing is rewritten)', async () => {
    const r = await engine(step({ pattern: 'foo($A)' }), 'a.js', utf8('foo(1);\nfoo(2);\nbar(2;\n'));
    expect(r.ok && r.value).toEqual({ status: 'unchanged', matches: 2 });
  });
});

describe('files that are not for the engine', () => {
  it('a binary file with a .js name is refused by the text layer', async () => {
    const bytes = new Uint8Array([...utf8('console.log(1);'), 0, 1, 2, 0xff]);
    const r = await engine(step({ pattern: 'console.log($A)' }, 'logger.info($A)'), 'bundle.js', bytes);
    expect(!r.ok && r.error.kind).toBe('binary');
    expect(!r.ok && r.error.data?.path).toBe('bundle.js');
  });

  it('invalid UTF-8 is refused, never rewritten lossily', async () => {
    const bytes = new Uint8Array([...utf8('console.log("'), 0xc3, 0x28, ...utf8('");')]);
    const r = await engine(step({ pattern: 'console.log($A)' }, 'logger.info($A)'), 'a.js', bytes);
    expect(!r.ok && r.error.kind).toBe('encoding');
  });

  it('files of no language of the step, empty files and files the rule cannot match are left alone unread', async () => {
    const s = step({ pattern: 'console.log($A)' }, 'logger.info($A)');
    for (const [path, text] of [
      ['README.md', 'console.log(1)'],
      ['a.js', ''],
      ['b.js', 'other(1);'],
    ] as const) {
      const r = await engine(s, path, utf8(text));
      expect(r.ok && r.value).toEqual({ status: 'unchanged', matches: 0 });
    }
  });
});

describe('a 5 MB minified file', () => {
  const big = minified(5_000_000, 100);

  it('is rewritten in one pass: every match, the result still parses', async () => {
    const l = await loadAstgrep(step({ pattern: 'console.log($$$A)' }, 'logger.info($$$A)'), { fromDir: ROOT });
    if (!l.ok) throw new Error(JSON.stringify(l.error));
    const r = changedOutcome(rewriteFile(l.value, { path: 'bundle.min.js', bytes: utf8(big.text) }));
    expect(r.matches).toBe(big.logs);
    expect(r.newText.length).toBe(big.text.length + big.logs * ('logger.info'.length - 'console.log'.length));
  });

  it('under a deadline, a rule that would run for hours answers `timeout` and the pool goes on', async () => {
    const pool = new StructuralPool(1);
    try {
      // Every identifier looks at all the identifiers before it: quadratic in a one-line bundle.
      const slow = step({ kind: 'identifier', follows: { kind: 'identifier', regex: '^zz$', stopBy: 'end' } }, 'x');
      const r = await pool.run({ kind: 'astgrep', source: slow, fromDir: ROOT }, { path: 'bundle.min.js', bytes: utf8(big.text) }, { timeoutMs: 1500 });
      expect(!r.ok && r.error.kind).toBe('timeout');
      expect(!r.ok && r.error.data).toEqual({ path: 'bundle.min.js', timeoutMs: 1500 });
      // The stuck child was killed; the next file gets a fresh one.
      const next = await pool.run({ kind: 'astgrep', source: step({ pattern: 'f($A)' }, 'g($A)'), fromDir: ROOT }, { path: 'a.js', bytes: utf8('f(1);\n') });
      expect(next.ok && next.value.status).toBe('changed');
    } finally {
      pool.close();
    }
  });

  it('an abort (the run is interrupted) answers `interrupted` at once', async () => {
    const pool = new StructuralPool(1);
    try {
      const ac = new AbortController();
      const slow = step({ kind: 'identifier', follows: { kind: 'identifier', regex: '^zz$', stopBy: 'end' } }, 'x');
      const pending = pool.run({ kind: 'astgrep', source: slow, fromDir: ROOT }, { path: 'bundle.min.js', bytes: utf8(big.text) }, { signal: ac.signal });
      setTimeout(() => ac.abort(), 300);
      const r = await pending;
      expect(!r.ok && r.error.kind).toBe('interrupted');
    } finally {
      pool.close();
    }
  });
});
