// Properties of the layout merge over generated calls: any line breaks, indentation, comments,
// trailing commas, strings with spaces, nested calls, CRLF and non-ASCII text before the match.
//   - a fix that reproduces the matched text changes no byte;
//   - a fix that renames the callee changes the callee and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadAstgrep } from '../../src/structural/load.js';
import { rewriteFile, type AstgrepProgram } from '../../src/structural/astgrep.js';
import { fromUtf8, ROOT, utf8 } from './oracle.js';

const gap = fc.constantFrom('', ' ', '  ', '\n', '\n  ', '\n    ', ' /* c */ ', '\n  /* block\n     comment */\n  ', ' // note\n  ');
const leaf = fc.constantFrom('a', 'value', '42', "'a b'", '"x  y"', '`t ${a}`', '[1, 2]', '{ k: 1 }', '(x) => x', 'obj.prop', '😀', "'中文'");

/** An argument list with arbitrary layout; `depth` allows nested foo(...) calls. */
const args = (depth: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(depth > 0 ? fc.oneof(leaf, call(depth - 1)) : leaf, { minLength: 0, maxLength: 4 }),
      fc.array(fc.tuple(gap, gap), { minLength: 4, maxLength: 4 }),
      gap,
      fc.boolean(),
    )
    .map(([items, gaps, last, trailing]) => {
      if (items.length === 0) return last.includes('//') ? '' : last;
      const parts = items.map((item, i) => {
        const [before, after] = gaps[i] as [string, string];
        return `${before.includes('//') ? ' ' : before}${item}${i < items.length - 1 ? `${after},` : ''}`;
      });
      // A line comment must end before the closing parenthesis: the last gap ends with a line break.
      const end = last.includes('//') ? `${last}\n` : last;
      return parts.join('') + (trailing ? ',' : '') + end;
    });

function call(depth: number): fc.Arbitrary<string> {
  return args(depth).map((a) => `foo(${a})`);
}

const file = fc
  .tuple(fc.constantFrom('', '// 😀 注释\n', 'const s = "é";\n'), fc.constantFrom('', '  ', '\t'), call(2), fc.boolean())
  .map(([head, indent, c, crlf]) => {
    const text = `${head}function f() {\n${indent}${c};\n}\n`;
    return crlf ? text.replaceAll('\n', '\r\n') : text;
  });

async function program(fix: string): Promise<AstgrepProgram> {
  const l = await loadAstgrep({ kind: 'inline', step: { rule: { pattern: 'foo($$$ARGS)' }, fix } }, { fromDir: ROOT });
  if (!l.ok) throw new Error(JSON.stringify(l.error));
  return l.value;
}

describe('layout properties', () => {
  it('a fix that reproduces the matched text changes no byte', async () => {
    const p = await program('foo($$$ARGS)');
    fc.assert(
      fc.property(file, (src) => {
        const bytes = utf8(src);
        const r = rewriteFile(p, { path: 'a.js', bytes });
        if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}\n${src}`);
        expect(r.value.status).toBe('unchanged');
        expect(r.value.matches).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('renaming the callee changes the callee and nothing else', async () => {
    const p = await program('bar($$$ARGS)');
    fc.assert(
      fc.property(file, (src) => {
        const r = rewriteFile(p, { path: 'a.js', bytes: utf8(src) });
        if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}\n${src}`);
        if (r.value.status !== 'changed') throw new Error(`expected a change in\n${src}`);
        expect(fromUtf8(r.value.after)).toBe(src.replaceAll('foo(', 'bar('));
        expect(r.value.matches).toBe(src.split('foo(').length - 1);
      }),
      { numRuns: 300 },
    );
  });
});
