// Conformance: every rule × source case rewritten by scion equals what the ast-grep CLI writes for the
// same rule file, byte for byte. The CLI runs in the test, on a temporary copy of each source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MULTI_DOCUMENT, RULES, SOURCES, type Family } from './conformance-cases.js';
import { cliScan, engineBytes, fromUtf8, ROOT, utf8 } from './oracle.js';

const FIXTURES = join(ROOT, 'test', 'structural', 'fixtures', 'conformance');
const source = (file: string): string => readFileSync(join(FIXTURES, file), 'utf8');

interface Case {
  readonly title: string;
  readonly yaml: string;
  readonly file: string;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const r of RULES) {
    for (const [file, language] of SOURCES[r.family]) {
      if (r.skip?.[file] !== undefined || (r.only && !r.only.includes(language))) continue;
      out.push({ title: `${r.name} on ${file}`, yaml: `id: ${r.name}\nlanguage: ${language}\n${r.body}\n`, file });
    }
  }
  for (const m of MULTI_DOCUMENT) {
    for (const [file, language] of SOURCES[m.family as Family]) {
      const yaml = m.docs.map((d, i) => `id: ${m.name}-${i + 1}\nlanguage: ${language}\n${d}\n`).join('---\n');
      out.push({ title: `${m.name} (multi-document) on ${file}`, yaml, file });
    }
  }
  return out;
}

const ALL = cases();
// Filled as the cases run: the suite must not pass by comparing unchanged files.
const changedBy = new Set<string>();

describe('astgrep conformance with the ast-grep CLI', () => {
  it('has at least 200 rule × file cases', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(200);
  });

  for (const c of ALL) {
    it(c.title, async () => {
      const input = source(c.file);
      const expected = fromUtf8(cliScan(c.yaml, c.file, input));
      const actual = fromUtf8(await engineBytes({ kind: 'file', file: 'rule.yml', text: c.yaml }, c.file, utf8(input)));
      expect(actual).toBe(expected);
      if (expected !== input) changedBy.add(c.title);
    });
  }

  it('most cases change their file, so the comparison is not vacuous', () => {
    expect(changedBy.size).toBeGreaterThanOrEqual(150);
  });

  it('covers every key of the rule language, constraints, transforms, $VAR and $$$VAR', () => {
    const keys = new Set(RULES.flatMap((r) => r.keys));
    const wanted = ['pattern', 'kind', 'regex', 'inside', 'has', 'precedes', 'follows', 'all', 'any', 'not', 'matches', 'utils', 'nthChild', 'stopBy', 'field'];
    wanted.push('constraints', 'transform', 'replace', 'substring', 'convert', '$VAR', '$$$VAR');
    expect(wanted.filter((k) => !keys.has(k))).toEqual([]);
    expect(MULTI_DOCUMENT.length).toBeGreaterThan(0);
  });
});
