// Rules and transforms that cannot be loaded are recipe problems: `validate` lists every one with its
// file:line:col (the recipe's, or the rule file's own) and exits 2; `run` refuses the recipe the same
// way, having written nothing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { snapshot } from '../support/git-snapshot.js';
import { structuralCli } from './cli-support.js';

const { recipeDir, repo } = structuralCli();

async function validate(recipe: string, beside: Record<string, string> = {}) {
  const file = recipeDir(recipe, beside);
  const res = await scion(['validate', file], { cwd: join(file, '..') });
  return { ...res, lines: res.stderr.split('\n').filter((l) => l.includes(': ')) };
}

describe('validate', () => {
  it('points at an unknown rule key inside the step, with a suggestion', async () => {
    const { code, lines } = await validate(
      ['name: bad', 'steps:', '  - astgrep:', '      rule:', '        pattern: foo($A)']
        .concat(['        inside: { kindd: function_declaration }', '      fix: bar($A)', ''])
        .join('\n'),
    );
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^recipe\.yaml:6:19: steps\[0\]\.astgrep\.rule\.inside\.kindd: Unknown relational rule key `kindd` \(did you mean `kind`\?\)/);
  });

  it('a rule napi refuses (a kind the language does not have) is a problem of the step', async () => {
    const { code, stderr } = await validate('name: bad\nsteps:\n  - astgrep: { rule: { kind: no_such_kind }, fix: x, language: javascript }\n');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^recipe\.yaml:3:\d+: steps\[0\]\.astgrep\.rule: ast-grep rejects the rule for javascript: .*no_such_kind/m);
  });

  it('a missing rule file, and a rule file with a YAML error or a bad key, each at their own line and column', async () => {
    const broken = ['id: one', 'language: javascript', 'rule:', '  pattern: foo($A)', '  patern: x', 'fix: bar($A)', '---']
      .concat(['id: two', 'language: javascript', 'rule: [1', ''])
      .join('\n');
    const { code, lines } = await validate('name: bad\nsteps:\n  - astgrep: { ruleFile: rules/missing.yml }\n  - astgrep: { ruleFile: rules/broken.yml }\n', {
      'rules/broken.yml': broken,
    });
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^recipe\.yaml:3:26: steps\[0\]\.astgrep\.ruleFile: the rule file rules\/missing\.yml does not exist/);
    expect(lines[1]).toMatch(/^rules\/broken\.yml:5:3: document 1: rule\.patern: Unknown rule key `patern` \(did you mean `pattern`\?\)/);
    expect(lines[2]).toMatch(/^rules\/broken\.yml:1[01]:\d+: document 2: Invalid YAML/);
  });

  it('a language whose package is not installed names the package and the install command', async () => {
    const { code, lines } = await validate('name: bad\nsteps:\n  - astgrep:\n      rule: { pattern: "print($A)" }\n      language: rust\n');
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^recipe\.yaml:5:17: steps\[0\]\.astgrep\.language: .*@ast-grep\/lang-rust.*`npm install --save-dev @ast-grep\/lang-rust`/);
  });

  it('a transform module without a default export, or one that is not there', async () => {
    const { code, lines } = await validate('name: bad\nsteps:\n  - jscodeshift: { transform: ./t/none.js }\n  - jscodeshift: { transform: ./t/named.js }\n', {
      't/named.js': 'export const transform = () => undefined;\n',
    });
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^recipe\.yaml:3:31: steps\[0\]\.jscodeshift\.transform: The jscodeshift transform \.\/t\/none\.js does not exist/);
    expect(lines[1]).toMatch(/^recipe\.yaml:4:31: steps\[1\]\.jscodeshift\.transform: .*has no default export/);
  });

  it('a step with both rule and ruleFile, or neither, is refused by the schema', async () => {
    const both = await validate('name: bad\nsteps:\n  - astgrep: { ruleFile: r.yml, rule: { pattern: a } }\n  - astgrep: { fix: b }\n');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/steps\[0\]\.astgrep\.rule: a step with ruleFile takes its rule from the rule file/);
    expect(both.stderr).toMatch(/steps\[1\]\.astgrep\.rule: Required/);
  });

  it('run refuses the same recipe with exit 2 and writes nothing', async () => {
    const r = await repo({ 'a.js': 'foo(1);\n' });
    const before = snapshot(join(r.dir, '.git'));
    const res = await scion(['run', recipeDir('name: bad\nsteps:\n  - astgrep: { ruleFile: rules/missing.yml }\n'), '--repo', r.dir], { cwd: r.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('rules/missing.yml does not exist');
    // A language package that is not installed stops run the same way, with the command to install it.
    const lang = await scion(['run', recipeDir('name: bad\nsteps:\n  - astgrep: { rule: { pattern: "a" }, language: rust }\n'), '--repo', r.dir], {
      cwd: r.dir,
    });
    expect(lang.code).toBe(2);
    expect(lang.stderr).toContain('`npm install --save-dev @ast-grep/lang-rust`');
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);
  });

  it('a good recipe with both kinds validates', async () => {
    const { code, stdout } = await validate(
      'name: good\nsteps:\n  - astgrep: { ruleFile: rules/r.yml }\n  - jscodeshift: { transform: ./t/up.js, parser: tsx, options: { quote: single } }\n',
      { 'rules/r.yml': 'id: r\nlanguage: tsx\nrule: { pattern: "a($B)" }\nfix: "b($B)"\n', 't/up.js': 'module.exports = (file) => file.source;\n' },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('ok (good, 2 steps)');
  });
});
