// Languages: the five napi knows, others from @ast-grep/lang-* packages resolved from the recipe's
// folder upwards, and a missing one as a problem naming the package and the install command.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageOf, rewriteFile } from '../../src/structural/astgrep.js';
import { loadAstgrep, type LoadProblem } from '../../src/structural/load.js';
import { loadNapi } from '../../src/structural/napi.js';
import { ensureLanguages } from '../../src/structural/packs.js';
import { changedOutcome, fromUtf8, ROOT, utf8 } from './oracle.js';

const NESTED = join(ROOT, 'test', 'structural', 'fixtures', 'conformance');

async function problems(step: Record<string, unknown>, fromDir = ROOT): Promise<readonly LoadProblem[]> {
  const l = await loadAstgrep({ kind: 'inline', step }, { fromDir });
  if (l.ok) throw new Error('expected problems');
  return l.error;
}

describe('languages', () => {
  it('a language without its package is a problem naming the package and the install command', async () => {
    const [p, ...rest] = await problems({ rule: { pattern: 'foo()' }, fix: 'bar()', language: 'rust' });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ where: 'step', path: ['language'] });
    expect(p?.message).toContain('@ast-grep/lang-rust');
    expect(p?.message).toContain('npm install --save-dev @ast-grep/lang-rust');
  });

  it('a package that resolves but cannot be loaded is a problem too', async () => {
    const napi = await loadNapi();
    const out = ensureLanguages(napi, ['kotlin'], ROOT, () => {
      throw new Error('corrupt tarball');
    });
    expect(out).toHaveLength(1);
    expect(out[0]?.message).toContain('@ast-grep/lang-kotlin');
  });

  it('python comes from @ast-grep/lang-python, found from a nested folder upwards', async () => {
    const l = await loadAstgrep({ kind: 'inline', step: { language: 'py', rule: { pattern: 'print($$$A)' }, fix: 'log($$$A)' } }, { fromDir: NESTED });
    if (!l.ok) throw new Error(JSON.stringify(l.error));
    expect(languageOf(l.value, 'tools/x.py')).toBe('python');
    expect(languageOf(l.value, 'x.js')).toBeNull();
    const r = changedOutcome(rewriteFile(l.value, { path: 'x.py', bytes: utf8('def f():\n    print(\n        "a",\n        1,\n    )\n') }));
    expect(r.newText).toBe('def f():\n    log(\n        "a",\n        1,\n    )\n');
  });

  it('without `language`, each file is read in the language of its extension', async () => {
    const l = await loadAstgrep({ kind: 'inline', step: { rule: { kind: 'identifier', regex: '^old$' }, fix: 'neu' } }, { fromDir: ROOT });
    if (!l.ok) throw new Error(JSON.stringify(l.error));
    const cases: [string, string, string][] = [
      ['a.ts', 'const old: number = 1;\n', 'const neu: number = 1;\n'],
      ['a.tsx', 'const old = <div />;\n', 'const neu = <div />;\n'],
      ['a.mjs', 'export const old = 1;\n', 'export const neu = 1;\n'],
      ['a.py', 'old = 1\n', 'neu = 1\n'],
    ];
    for (const [path, src, want] of cases) {
      const r = rewriteFile(l.value, { path, bytes: utf8(src) });
      expect(r.ok && r.value.status === 'changed' ? fromUtf8(r.value.after) : r, path).toBe(want);
    }
    // A rule that does not compile for a language (no such kind there) does not run on its files.
    const arrows = await loadAstgrep({ kind: 'inline', step: { rule: { kind: 'arrow_function' }, fix: 'f' } }, { fromDir: ROOT });
    if (!arrows.ok) throw new Error(JSON.stringify(arrows.error));
    expect(languageOf(arrows.value, 'a.js')).toBe('javascript');
    expect(languageOf(arrows.value, 'a.css')).toBeNull();
    expect(languageOf(arrows.value, 'a.py')).toBeNull();
  });

  it("a language's own checks are problems at the rule: an unknown kind, a bad regex", async () => {
    const [kind] = await problems({ language: 'typescript', rule: { kind: 'no_such_kind' }, fix: 'x' });
    expect(kind).toMatchObject({ where: 'step', path: ['rule'] });
    expect(kind?.message).toContain('no_such_kind');
    const [regex] = await problems({ language: 'javascript', rule: { regex: '(' }, fix: 'x' });
    expect(regex?.message).toContain('regex');
  });

  it('misspelt keys are reported where they are, with a suggestion, all at once', async () => {
    const found = await problems({
      rule: { pattern: 'a', inside: { kindd: 'x', stopBy: 'end' }, all: [{ patern: 'b' }] },
      fixx: 'y',
      transform: { N: { convert: { source: '$A', toCase: 'kebabCase', sepBy: [] } } },
    });
    const paths = found.map((p) => (p.where === 'step' ? p.path.join('.') : ''));
    expect(paths).toEqual(['fixx', 'rule.inside.kindd', 'rule.all.0.patern', 'transform.N.convert.sepBy']);
    expect(found[0]?.message).toContain('did you mean `fix`');
  });
});
