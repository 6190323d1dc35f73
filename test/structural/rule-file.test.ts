// ast-grep rule files as they are: several documents are several rules; every problem is reported at
// once with the file, line and column of the field at fault.
import { describe, expect, it } from 'vitest';
import { parseRuleFile } from '../../src/structural/rule-file.js';
import { loadAstgrep } from '../../src/structural/load.js';
import { ROOT } from './oracle.js';

describe('rule files', () => {
  it('reads every document as a rule, in order, with its own fields', () => {
    const text = [
      'id: no-console',
      'language: TypeScript',
      'message: use the logger',
      'severity: warning',
      'files: ["src/**"]',
      'ignores: ["src/legacy/**"]',
      "rule: { pattern: 'console.log($$$A)' }",
      "fix: 'logger.info($$$A)'",
      '---',
      'id: eq',
      'language: js',
      "rule: { pattern: '$A == $B' }",
      'fix:',
      "  template: '$A === $B'",
      '  expandEnd: { regex: "^;$" }',
      '',
    ].join('\n');
    const r = parseRuleFile(text, 'rules/x.yml');
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.value.map((x) => [x.rule.id, x.rule.language])).toEqual([
      ['no-console', 'typescript'],
      ['eq', 'javascript'],
    ]);
    expect(r.value[0]?.rule.globs).toEqual({ include: ['src/**'], exclude: ['src/legacy/**'] });
    expect(r.value[1]?.rule.fix?.expandEnd).toEqual({ rule: { regex: '^;$' }, stopBy: 'neighbor' });
  });

  it('reports every problem of every document with its line and column', () => {
    const text = [
      'id: one',
      'language: javascript',
      'rule:',
      '  pattern: foo($A)',
      '  inside:',
      '    kindd: function_declaration',
      'fix: bar($A)',
      '---',
      'id: two',
      "rule: { patern: 'x' }",
      'fix: [{ template: a, title: A }, { template: b, title: B }]',
      'rewriters: []',
      '',
    ].join('\n');
    const r = parseRuleFile(text, 'rules/bad.yml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.map((p) => [p.line, p.col, p.path])).toEqual([
      [6, 5, 'document 1: rule.inside.kindd'],
      [12, 1, 'document 2: rewriters'],
      [10, 9, 'document 2: rule.patern'],
      [9, 1, 'document 2: language'],
      [11, 6, 'document 2: fix'],
    ]);
    expect(r.error.every((p) => p.file === 'rules/bad.yml')).toBe(true);
    expect(r.error[0]?.message).toContain('did you mean `kind`');
  });

  it('a YAML syntax error is located too', () => {
    const r = parseRuleFile('id: x\nlanguage: js\nrule: { pattern: "a"\nfix: b\n', 'r.yml');
    expect(!r.ok && r.error[0]?.line).toBeGreaterThanOrEqual(3);
    expect(!r.ok && r.error[0]?.message).toMatch(/^Invalid YAML/);
  });

  it('an empty rule file is a problem', () => {
    const r = parseRuleFile('# nothing here\n', 'r.yml');
    expect(!r.ok && r.error[0]?.message).toContain('empty');
  });

  it('problems found when loading (a missing language pack, napi checks) point into the file as well', async () => {
    const text = "id: a\nlanguage: javascript\nrule: { pattern: 'x' }\nfix: y\n---\nid: b\nlanguage: javascript\nrule:\n  kind: not_a_kind\nfix: z\n";
    const l = await loadAstgrep({ kind: 'file', file: 'rules/r.yml', text }, { fromDir: ROOT });
    expect(l.ok).toBe(false);
    if (l.ok) return;
    expect(l.error).toHaveLength(1);
    expect(l.error[0]).toMatchObject({ where: 'rule-file', file: 'rules/r.yml', line: 9, col: 3, path: 'document 2: rule' });
    expect(l.error[0]?.message).toContain('not_a_kind');
  });
});
