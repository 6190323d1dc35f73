// The `astgrep` step through the CLI: rules as a recipe writes them (inline keys, rule files with several
// documents), every match rewritten innermost first, every byte the fix does not change kept (layout,
// CRLF, BOM, UTF-16), files whose result or source does not parse left alone, match counts and
// `expect` in the report; judged on the branch by native git.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scion } from '../support/cli.js';
import { snapshot } from '../support/git-snapshot.js';
import { bom, showBytes, structuralCli, utf16 } from './cli-support.js';
import { ROOT } from './oracle.js';

const { run, repo, recipeDir, cleanups } = structuralCli();

const CONSOLE_TO_LOGGER = 'name: c2l\nsteps:\n  - astgrep:\n      rule: { pattern: "console.log($$$ARGS)" }\n      fix: "logger.info($$$ARGS)"\n';

describe('astgrep rules in a recipe', () => {
  it('takes ast-grep rule keys as they are: relations, constraints, utils with matches, transform, language', async () => {
    const src = [
      'function a() {',
      "  console.log('in a');",
      '  console.log(2);',
      '}',
      "console.log('top');",
      'let user_name = fetchName();',
      'let other = 3;',
      '',
    ].join('\n');
    const recipe = [
      'name: keys',
      'steps:',
      '  - astgrep:',
      '      rule:',
      '        pattern: console.log($MSG)',
      '        inside: { kind: function_declaration, stopBy: end }',
      '      constraints: { MSG: { kind: string } }',
      '      fix: logger.info($MSG)',
      '      language: typescript',
      '  - astgrep:',
      '      rule: { pattern: "let $NAME = $VALUE", has: { matches: is-call, stopBy: end } }',
      '      utils: { is-call: { kind: call_expression } }',
      '      transform: { CAMEL: { convert: { source: $NAME, toCase: camelCase } } }',
      '      fix: const $CAMEL = $VALUE',
      '',
    ].join('\n');
    const { code, job, r } = await run({ 'src/a.ts': src, 'src/b.js': "function b() { console.log('js'); }\n" }, recipe);
    expect(code).toBe(0);
    // Only the string argument inside a function, only in TypeScript; only the let whose value is a call.
    expect(showBytes(r, 'scion/keys', 'src/a.ts').toString()).toBe(
      src.replace("console.log('in a')", "logger.info('in a')").replace('let user_name = fetchName()', 'const userName = fetchName()'),
    );
    expect(r.git('diff', '--name-only', 'main', 'scion/keys')).toBe('src/a.ts');
    expect(job.files.map((f) => [f.path, f.matches])).toEqual([['src/a.ts', 2]]);
    r.git('fsck', '--strict');
  });

  it('a rule file with several documents applies them in order, each to what the one before wrote', async () => {
    const rules = [
      'id: first',
      'language: javascript',
      'rule: { pattern: "oldApi($A)" }',
      'fix: "midApi($A)"',
      '---',
      'id: second',
      'language: javascript',
      'rule: { pattern: "midApi($A)" }',
      'fix: "newApi($A)"',
      '',
    ].join('\n');
    const { code, job, r } = await run({ 'a.js': 'oldApi(1);\nmidApi(2);\nother(3);\n' }, 'name: chain\nsteps:\n  - astgrep: { ruleFile: rules/api.yml }\n', {
      'rules/api.yml': rules,
    });
    expect(code).toBe(0);
    expect(showBytes(r, 'scion/chain', 'a.js').toString()).toBe('newApi(1);\nnewApi(2);\nother(3);\n');
    expect(job.files[0]!.matches).toBe(3);
  });

  it('rewrites matches inside matches innermost first, in one pass, and never matches its own output again', async () => {
    const { job, r } = await run(
      { 'a.js': 'console.log(console.log(1), f(2));\nwrap(x);\n' },
      [
        'name: nested',
        'steps:',
        '  - astgrep: { rule: { pattern: "console.log($$$A)" }, fix: "logger.info($$$A)" }',
        '  - astgrep: { rule: { pattern: "wrap($A)" }, fix: "wrap(wrap($A))" }',
        '',
      ].join('\n'),
    );
    expect(job.status).toBe('changed');
    expect(showBytes(r, 'scion/nested', 'a.js').toString()).toBe('logger.info(logger.info(1), f(2));\nwrap(wrap(x));\n');
    expect(job.files[0]!.matches).toBe(3);
    expect(job.steps?.map((s) => s.matches)).toEqual([2, 1]);
  });
});

describe('languages from packages', () => {
  it("reads python through @ast-grep/lang-python, resolved from the recipe file's folder upwards", async () => {
    // A recipe folder under this project's node_modules: the package resolves from there upwards.
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.scion-test-recipe-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const step = '{ rule: { pattern: "print($$$A)" }, fix: "logger.info($$$A)", language: python }';
    writeFileSync(join(dir, 'recipe.yaml'), `name: py\nsteps:\n  - astgrep: ${step}\n`);
    const r = await repo({ 'app/main.py': 'def f(x):\n    print(x,\n          "done")  # keep\n', 'app/other.js': 'print(1);\n' });
    const res = await scion(['run', join(dir, 'recipe.yaml'), '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect(showBytes(r, 'scion/py', 'app/main.py').toString()).toBe('def f(x):\n    logger.info(x,\n          "done")  # keep\n');
    expect(r.git('diff', '--name-only', 'main', 'scion/py')).toBe('app/main.py');
  });
});

describe('every byte the fix does not change is kept', () => {
  it('multi-line arguments, comments, trailing commas and indentation stay as they were', async () => {
    const src = ['export function f() {', '\tconsole.log(', '\t\t"a",   // first', '\t\tb /* second */,', '\t);', '}', ''].join('\n');
    const { r } = await run({ 'src/f.ts': src }, CONSOLE_TO_LOGGER);
    expect(showBytes(r, 'scion/c2l', 'src/f.ts').toString()).toBe(src.replace('console.log(', 'logger.info('));
  });

  it('CRLF line endings, a UTF-8 BOM and UTF-16LE are written back as they were', async () => {
    const crlf = 'console.log(1);\r\nconsole.log(\r\n  2,\r\n);\r\n';
    const { r, job } = await run(
      { 'crlf.js': crlf, 'bom.js': bom('console.log("é");\n'), 'wide.js': utf16('console.log("ü");\r\nkeep();\r\n') },
      'name: c2l\nsteps:\n  - astgrep:\n      rule: { pattern: "console.log($$$A)" }\n      fix: "logger.info($$$A)\\n"\n',
    );
    expect(job.status).toBe('changed');
    // A fix's own line break takes the file's line ending.
    expect(showBytes(r, 'scion/c2l', 'crlf.js').toString()).toBe('logger.info(1)\r\n;\r\nlogger.info(\r\n  2,\r\n)\r\n;\r\n');
    expect(showBytes(r, 'scion/c2l', 'bom.js')).toEqual(Buffer.from(bom('logger.info("é")\n;\n')));
    expect(showBytes(r, 'scion/c2l', 'wide.js')).toEqual(Buffer.from(utf16('logger.info("ü")\r\n;\r\nkeep();\r\n')));
    r.git('fsck', '--strict');
  });
});

describe('files that do not parse', () => {
  it('a fix that would break the syntax fails that file with invalid-result and leaves it as it was', async () => {
    const { code, job, r } = await run(
      { 'bad.js': 'foo(1);\n', 'good.js': 'bar(1);\n' },
      [
        'name: breaks',
        'onError: continue',
        'steps:',
        '  - astgrep: { rule: { pattern: "foo($A)" }, fix: "foo($A" }',
        '  - astgrep: { rule: { pattern: "bar($A)" }, fix: "baz($A)" }',
        '',
      ].join('\n'),
    );
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.file, e.kind, e.code])).toEqual([[0, 'bad.js', 'invalid-result', 10]]);
    expect(job.errors[0]!.hint).toMatch(/fix template would break the syntax/);
    expect(job.errors[0]!.message).toContain('bad.js');
    expect(job.files.map((f) => f.path)).toEqual(['good.js']);
    expect(showBytes(r, 'scion/breaks', 'bad.js').toString()).toBe('foo(1);\n');
    expect(showBytes(r, 'scion/breaks', 'good.js').toString()).toBe('baz(1);\n');
  });

  it('a file that had syntax errors already is not rewritten: skipped with reason syntax-error', async () => {
    const { code, job, r } = await run({ 'broken.js': 'console.log(1);\nfunction (\n', 'ok.js': 'console.log(2);\n' }, CONSOLE_TO_LOGGER);
    expect(code).toBe(0);
    expect(job.skipped).toEqual([{ step: 0, file: 'broken.js', reason: 'syntax-error' }]);
    expect(r.git('diff', '--name-only', 'main', 'scion/c2l')).toBe('ok.js');
  });
});

describe('counts', () => {
  it('file entries carry how many matches were rewritten; a rule without fix counts and changes nothing', async () => {
    const files = { 'a.js': 'console.log(1);\nconsole.log(2);\nconsole.log(3);\n', 'b.js': 'console.log(4);\n', 'c.js': 'nothing();\n' };
    const fixed = await run(files, CONSOLE_TO_LOGGER);
    expect(fixed.job.files.map((f) => [f.path, f.matches])).toEqual([
      ['a.js', 3],
      ['b.js', 1],
    ]);
    expect(fixed.job.steps).toEqual([{ step: 0, kind: 'astgrep', changed: 2, alreadyApplied: 0, matches: 4 }]);
    const counted = await run(files, 'name: count\nsteps:\n  - astgrep: { rule: { pattern: "console.log($$$A)" } }\n    expect: { min: 2, max: 2 }\n');
    expect(counted.code).toBe(0);
    expect(counted.job.status).toBe('empty');
    expect(counted.job.steps).toEqual([{ step: 0, kind: 'astgrep', changed: 0, alreadyApplied: 0, matches: 4, found: 2 }]);
  });

  it('a count-only guard that finds nothing reports found: 0 and is not said to have changed nothing', async () => {
    const files = { 'a.js': 'logger.info(1);\n' };
    const guard = 'name: clean\nsteps:\n  - astgrep: { rule: { pattern: "console.log($$$A)" } }\n    expect: { max: 0 }\n';
    const quiet = await run(files, guard);
    expect(quiet.code).toBe(0);
    expect(quiet.job.steps).toEqual([{ step: 0, kind: 'astgrep', changed: 0, alreadyApplied: 0, found: 0 }]);
    const r = await repo(files);
    const text = await scion(['run', recipeDir(guard), '--repo', r.dir], { cwd: r.dir });
    expect(text.code).toBe(0);
    expect(text.stdout + text.stderr).not.toContain('changed nothing');
    // A fix that matches nothing is still idle, and said so.
    const idle = await scion(['run', recipeDir(CONSOLE_TO_LOGGER), '--repo', r.dir], { cwd: r.dir });
    expect(idle.stdout + idle.stderr).toContain('c2l step 1 (astgrep) changed nothing');
  });

  it('expect counts files: a count-only guard that still finds matches, or a fix that changes too few, fails with kind expectation', async () => {
    const files = { 'a.js': 'console.log(1);\n', 'b.js': 'console.log(2);\n' };
    const guard = await run(files, 'name: guard\nsteps:\n  - astgrep: { rule: { pattern: "console.log($$$A)" } }\n    expect: { max: 0 }\n');
    expect(guard.code).toBe(1);
    expect(guard.job.errors.map((e) => e.kind)).toEqual(['expectation']);
    expect(guard.job.errors[0]!.message).toMatch(/found matches in 2 files \(a\.js, b\.js\); its expect wants at most 0/);
    const none = await run({ 'c.js': 'quiet();\n' }, 'name: none\nsteps:\n  - astgrep: { rule: { pattern: "console.log($$$A)" } }\n    expect: { min: 1 }\n');
    expect(none.job.errors[0]!.message).toMatch(/found matches in 0 files; its expect wants at least 1\./);
    const few = await run(files, `${CONSOLE_TO_LOGGER}    expect: { min: 3 }\n`);
    expect(few.code).toBe(1);
    expect(few.job.errors[0]!.message).toMatch(/changed 2 files; its expect wants at least 3/);
    expect(few.r.git('branch', '--list', 'scion/*')).toBe('');
  });
});

describe('plan', () => {
  it('prints the diffs with the match counts and leaves .git byte-identical', async () => {
    const r = await repo({ 'src/a.js': 'console.log(1);\nkeep();\n' });
    const before = snapshot(join(r.dir, '.git'));
    const res = await scion(['plan', recipeDir(CONSOLE_TO_LOGGER), '--repo', r.dir], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('src/a.js  +1 -1  (1 match)');
    expect(res.stdout).toMatch(/-console\.log\(1\);/);
    expect(res.stdout).toMatch(/\+logger\.info\(1\);/);
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);
  });
});
