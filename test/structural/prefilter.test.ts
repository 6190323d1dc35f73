// The literal-text prefilter of the astgrep step (src/structural/prefilter.ts): which words a rule
// requires in a file before the file is parsed.
//   - a table of rules: where the rule's literal text can be required (a pattern, relational
//     sub-rules, all, any, matches), a file without it is skipped and a file with it is not; where it
//     cannot (kind, regex, nthChild, not, a selector, a loose strictness, an `any` with one free
//     branch), nothing is skipped, not even an empty file;
//   - a property over generated JavaScript and a few rules (inline, count-only, several rules of a
//     rule file applied in order): the prefilter never skips a file the engine would change or count
//     a match in. The engine run with its prefilter turned off gives the same outcome for every file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayMatch, rewriteFile, type AstgrepProgram } from '../../src/structural/astgrep.js';
import { loadAstgrep, type AstgrepSource } from '../../src/structural/load.js';
import { prefilter, prefilterText, requirementOf, type Requirement } from '../../src/structural/prefilter.js';
import { ROOT, utf8 } from './oracle.js';

const words = (...w: string[]): Requirement => ({ kind: 'words', words: w });
const NONE: Requirement = { kind: 'none' };

interface Case {
  readonly title: string;
  readonly rule: Record<string, unknown>;
  readonly utils?: Record<string, unknown>;
  readonly requires: Requirement;
  /** Files the rule cannot match by their text: skipped (only where text can be required). */
  readonly skipped: readonly string[];
  /** Files holding the required text: never skipped. */
  readonly kept: readonly string[];
}

const CASES: readonly Case[] = [
  {
    title: 'a pattern: its identifiers, metavariables left out',
    rule: { pattern: 'console.log($$$ARGS)' },
    requires: words('console', 'log'),
    skipped: ['logger.info(a);\n', 'console.info(a);\n', ''],
    kept: ['console.log(a);\n', '// console and log\n'],
  },
  {
    title: 'a pattern object in smart strictness: its context',
    rule: { pattern: { context: 'foo($A, $B)', strictness: 'cst' } },
    requires: words('foo'),
    skipped: ['bar(1, 2);\n'],
    kept: ['foo(1, 2);\n'],
  },
  {
    title: 'inside, has, precedes and follows: their patterns too',
    rule: {
      pattern: 'run($X)',
      inside: { pattern: 'function setup() { $$$B }', stopBy: 'end' },
      has: { pattern: 'config', stopBy: 'end' },
      precedes: { pattern: 'done()' },
      follows: { pattern: 'start()' },
    },
    requires: words('run', 'function', 'setup', 'config', 'done', 'start'),
    skipped: ['function setup() { start(); run(config); }\n'],
    kept: ['function setup() { start(); run(config); done(); }\n'],
  },
  {
    title: 'all: every part',
    rule: { all: [{ pattern: 'alpha($A)' }, { kind: 'call_expression' }, { has: { pattern: 'beta' } }] },
    requires: words('alpha', 'beta'),
    skipped: ['alpha(gamma);\n', 'beta(1);\n'],
    kept: ['alpha(beta);\n'],
  },
  {
    title: 'any: one of its branches',
    rule: { any: [{ pattern: 'console.warn($$$A)' }, { pattern: 'console.debug($$$A)' }] },
    requires: { kind: 'or', of: [words('console', 'warn'), words('console', 'debug')] },
    skipped: ['console.log(1);\n', 'warn(debug);\n'],
    kept: ['console.warn(1);\n', 'console.debug(1);\n'],
  },
  {
    title: 'matches: the utility rule it names (and no loop through one that names itself)',
    rule: { matches: 'isLog' },
    utils: { isLog: { any: [{ pattern: 'logger.info($$$A)' }, { matches: 'isLog' }] } },
    requires: NONE,
    skipped: [],
    kept: [''],
  },
  {
    title: 'matches: a utility rule with literal text',
    rule: { kind: 'call_expression', matches: 'isLog' },
    utils: { isLog: { pattern: 'logger.info($$$A)' } },
    requires: words('logger', 'info'),
    skipped: ['logger.warn(1);\n'],
    kept: ['logger.info(1);\n'],
  },
  {
    title: 'a pattern beside not: the pattern only',
    rule: { pattern: 'legacy($A)', not: { inside: { pattern: 'function keep() { $$$B }', stopBy: 'end' } } },
    requires: words('legacy'),
    skipped: ['function keep() { modern(1); }\n'],
    kept: ['legacy(1);\n'],
  },
  // Rules whose matches need no literal text: nothing is skipped.
  { title: 'kind alone', rule: { kind: 'call_expression' }, requires: NONE, skipped: [], kept: ['', 'x;\n'] },
  { title: 'regex', rule: { kind: 'identifier', regex: '^legacy' }, requires: NONE, skipped: [], kept: ['', 'modern;\n'] },
  { title: 'nthChild', rule: { kind: 'identifier', nthChild: 1 }, requires: NONE, skipped: [], kept: [''] },
  { title: 'not alone', rule: { kind: 'identifier', not: { pattern: 'legacy' } }, requires: NONE, skipped: [], kept: ['', 'modern;\n'] },
  {
    title: 'any with a branch that needs no text',
    rule: { any: [{ pattern: 'legacy($A)' }, { kind: 'call_expression' }] },
    requires: NONE,
    skipped: [],
    kept: ['', 'modern(1);\n'],
  },
  {
    title: 'a pattern object with a selector',
    rule: { pattern: { context: 'class A { $F = $V }', selector: 'field_definition' } },
    requires: NONE,
    skipped: [],
    kept: ['', 'let x = 1;\n'],
  },
  {
    title: 'a pattern in a loose strictness (relaxed)',
    rule: { pattern: { context: 'legacy($A)', strictness: 'relaxed' } },
    requires: NONE,
    skipped: [],
    kept: ['', 'modern(1);\n'],
  },
  { title: 'a pattern of metavariables only', rule: { pattern: '$F($$$A)' }, requires: NONE, skipped: [], kept: [''] },
];

describe('requirementOf and prefilter: a table of rules', () => {
  for (const c of CASES) {
    it(c.title, () => {
      const r = requirementOf(c.rule, c.utils ?? {});
      expect(r).toEqual(c.requires);
      const bytes = prefilter(r);
      const text = prefilterText(r);
      for (const f of c.skipped) {
        expect(bytes(utf8(f)), f).toBe(false);
        expect(text(f), f).toBe(false);
      }
      for (const f of c.kept) {
        expect(bytes(utf8(f)), f).toBe(true);
        expect(text(f), f).toBe(true);
        // A UTF-8 BOM changes nothing.
        expect(bytes(utf8(`\uFEFF${f}`)), f).toBe(true);
      }
      if (c.requires.kind === 'none') expect(bytes(utf8('anything at all'))).toBe(true);
    });
  }

  it('lets every UTF-16 file through: its bytes do not hold the words as UTF-8 does', () => {
    const test = prefilter(requirementOf({ pattern: 'console.log($$$A)' }, {}));
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from('logger.info(1);\n', 'utf16le')]);
    expect(test(utf16)).toBe(true);
    expect(test(utf8('logger.info(1);\n'))).toBe(false);
  });

  it('a loaded step skips by its rule, file by file', async () => {
    const p = await program({ kind: 'inline', step: { rule: { pattern: 'console.log($$$A)' }, fix: 'logger.info($$$A)' } });
    expect(mayMatch(p, 'a.js', utf8('console.log(1);\n'))).toBe(true);
    expect(mayMatch(p, 'a.js', utf8('logger.info(1);\n'))).toBe(false);
    // A path no rule reads is never a match.
    expect(mayMatch(p, 'a.py', utf8('console.log(1)\n'))).toBe(false);
  });
});

async function program(source: AstgrepSource): Promise<AstgrepProgram> {
  const l = await loadAstgrep(source, { fromDir: ROOT });
  if (!l.ok) throw new Error(JSON.stringify(l.error));
  return l.value;
}

/** The same program with its prefilter turned off: every rule tried on every file. */
function unfiltered(p: AstgrepProgram): AstgrepProgram {
  return { ...p, rules: p.rules.map((r) => ({ ...r, rule: { ...r.rule, mayMatch: () => true, mayMatchText: () => true } })) };
}

// Generated JavaScript over a small vocabulary, so that rules match some files, find their words in
// others only in comments, strings or other calls, and miss the rest.
const word = fc.constantFrom('console', 'log', 'logger', 'info', 'warn', 'debug', 'foo', 'bar', 'baz', 'value', 'x', 'setup');
const arg = fc.oneof(
  word,
  fc.constantFrom('1', '"a b"', '`t`', '[1, 2]', '{ k: 1 }'),
  word.map((w) => `'${w} text'`),
);
const argList = fc.array(arg, { maxLength: 3 }).map((a) => a.join(', '));
// The callees the rules below look for come up often; any pair of words now and then.
const callee = fc.oneof(
  fc.constantFrom('console.log', 'console.warn', 'logger.info', 'logger.debug', 'foo', 'bar'),
  fc.tuple(word, word).map(([o, m]) => `${o}.${m}`),
);
const statement = (depth: number): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.tuple(callee, argList).map(([c, a]) => `${c}(${a});`), weight: 4 },
    fc.tuple(word, argList).map(([f, a]) => `${f}(${a});`),
    fc.tuple(word, arg).map(([n, v]) => `const ${n}1 = ${v};`),
    fc.tuple(word, word).map(([a, b]) => `// ${a} ${b}`),
    fc.tuple(word, word).map(([a, b]) => `let s = "${a}.${b}(x)";`),
    ...(depth > 0
      ? [
          fc.tuple(word, fc.array(statement(depth - 1), { maxLength: 3 })).map(([n, body]) => `function ${n}() {\n  ${body.join('\n  ')}\n}`),
          fc.tuple(word, fc.array(statement(depth - 1), { maxLength: 2 })).map(([c, body]) => `if (${c}) {\n  ${body.join('\n  ')}\n}`),
        ]
      : []),
  );
const source = fc
  .tuple(fc.array(statement(2), { maxLength: 6 }), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 9 }))
  .map(([lines, crlf, bom, dice]) => {
    // Now and then (one in ten) a syntax error: the engine skips such a file where it would rewrite it.
    const text = `${lines.join('\n')}\n${dice === 0 ? 'foo(;\n' : ''}`;
    return `${bom ? '\uFEFF' : ''}${crlf ? text.replaceAll('\n', '\r\n') : text}`;
  });

const PROGRAMS: readonly [string, AstgrepSource][] = [
  ['a pattern with a fix', { kind: 'inline', step: { rule: { pattern: 'console.log($$$A)' }, fix: 'logger.info($$$A)' } }],
  [
    'a pattern inside a function',
    { kind: 'inline', step: { rule: { pattern: 'foo($$$A)', inside: { kind: 'function_declaration', stopBy: 'end' } }, fix: 'bar($$$A)' } },
  ],
  [
    'any of two patterns',
    { kind: 'inline', step: { rule: { any: [{ pattern: 'console.warn($$$A)' }, { pattern: 'logger.debug($$$A)' }] }, fix: 'logger.warn($$$A)' } },
  ],
  ['count-only: calls that have `value`', { kind: 'inline', step: { rule: { kind: 'call_expression', has: { pattern: 'value', stopBy: 'end' } } } }],
  [
    'a pattern not inside a function named setup',
    {
      kind: 'inline',
      step: { rule: { pattern: 'bar($$$A)', not: { inside: { pattern: 'function setup() { $$$B }', stopBy: 'end' } } }, fix: 'baz($$$A)' },
    },
  ],
  [
    'a rule file whose second rule matches what the first wrote',
    {
      kind: 'file',
      file: 'rules.yml',
      text:
        'id: one\nlanguage: javascript\nrule: { pattern: "foo($$$A)" }\nfix: "bar($$$A)"\n---\n' +
        'id: two\nlanguage: javascript\nrule: { pattern: "bar($$$A)" }\nfix: "logger.info($$$A)"\n',
    },
  ],
  [
    'a util through matches',
    { kind: 'inline', step: { utils: { isInfo: { pattern: 'logger.info($A)' } }, rule: { matches: 'isInfo' }, fix: 'logger.debug($A)' } },
  ],
];

describe('the prefilter never skips a file the engine would change', () => {
  for (const [title, src] of PROGRAMS) {
    it(title, async () => {
      const p = await program(src);
      const all = unfiltered(p);
      const seen = { skipped: 0, matched: 0 };
      fc.assert(
        fc.property(source, (text) => {
          const bytes = utf8(text);
          const full = rewriteFile(all, { path: 'a.js', bytes });
          if (!mayMatch(p, 'a.js', bytes)) {
            seen.skipped++;
            expect(full.ok && full.value.status === 'unchanged' && full.value.matches === 0, text).toBe(true);
          }
          if (full.ok && full.value.matches > 0) seen.matched++;
          // With the prefilter on, the same outcome for every file, failures included.
          expect(rewriteFile(p, { path: 'a.js', bytes })).toEqual(full);
        }),
        { numRuns: 300 },
      );
      // Neither half of the property was empty: some files were skipped, some matched.
      expect(seen.skipped).toBeGreaterThan(0);
      expect(seen.matched).toBeGreaterThan(0);
    });
  }
});
