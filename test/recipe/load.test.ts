import { describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe, type LoadResult, type Problem } from '../../src/recipe/index.js';
import { lines, tempFolder } from './helpers.js';

const tmp = tempFolder();

function problemsOf(result: LoadResult): Problem[] {
  if (result.ok) throw new Error('expected problems, the recipe loaded');
  return result.problems;
}

/** [line, col, path] of each problem, for position assertions. */
const where = (ps: Problem[]) => ps.map((p) => [p.line, p.col, p.path]);

describe('loadRecipe: YAML', () => {
  it('reports an unknown key at the key, with line and column', async () => {
    const file = await tmp.write(
      'unknown.yaml',
      lines('name: x', 'steps:', '  - edit:', '      file: a.ts', '      edits: [{ old_string: a, new_string: b }]', '      flie: b.ts'),
    );
    const ps = problemsOf(await loadRecipe(file));
    expect(ps).toEqual([{ file, line: 6, col: 7, path: 'steps[0].edit.flie', message: 'unknown key "flie"; did you mean "file"?' }]);
    expect(formatProblem(ps[0]!)).toBe(`${file}:6:7: steps[0].edit.flie: unknown key "flie"; did you mean "file"?`);
  });

  it('reports three mistakes at once, each at its own position', async () => {
    const file = await tmp.write(
      'three.yaml',
      lines(
        'name: Three', //                          1: bad name (col 7)
        'description: three mistakes',
        'steps:',
        '  - edit:', //                           4
        '      edits:', //                        5: edit map starts here; file is missing
        '        - { old_string: a, new_string: b }',
        '  - run: "make"',
        'onEror: stop', //                        8: unknown key (col 1)
      ),
    );
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([
      [1, 7, 'name'],
      [5, 7, 'steps[0].edit.file'],
      [8, 1, 'onEror'],
    ]);
    expect(ps[1]!.message).toBe('Required');
    expect(formatProblem(ps[1]!)).toBe(`${file}:5:7: steps[0].edit.file: Required`);
  });

  it('reports YAML syntax errors together with schema errors', async () => {
    const file = await tmp.write('syntax.yaml', lines('name: x', 'steps:', '  - run: make', 'bogus: 1', 'deny: [a, b'));
    const ps = problemsOf(await loadRecipe(file));
    expect(ps.find((p) => p.path === '')).toMatchObject({ line: 5, col: 12 }); // the unclosed flow sequence, at its end
    expect(ps.find((p) => p.path === 'bogus')).toMatchObject({ line: 4, col: 1 });
  });

  it('rejects duplicate keys as YAML errors', async () => {
    const file = await tmp.write('dup.yaml', lines('name: x', 'name: y', 'steps: [{ run: make }]'));
    const ps = problemsOf(await loadRecipe(file));
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ line: 2, col: 1, path: '' });
  });

  it('rejects a transform step in YAML, saying it needs a module recipe', async () => {
    const file = await tmp.write('transform.yaml', lines('name: x', 'steps:', '  - run: make', '  - transform: "x => x"'));
    const [p, ...rest] = problemsOf(await loadRecipe(file));
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ line: 4, col: 16, path: 'steps[1].transform' });
    expect(p!.message).toMatch(/module recipes \(\.js, \.mjs, \.ts\)/);
  });

  it('reports an invalid regular expression at its node', async () => {
    const file = await tmp.write(
      'regex.yaml',
      lines('name: x', 'steps:', '  - replace:', '      old_string: "foo(bar"', '      new_string: x', '      regex: true'),
    );
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([[4, 19, 'steps[0].replace.old_string']]);
    expect(ps[0]!.message).toMatch(/not a valid regular expression/);
  });

  it('accepts the same pattern as literal text when regex is off', async () => {
    const file = await tmp.write('literal.yaml', lines('name: x', 'steps:', '  - replace: { old_string: "foo(bar", new_string: x }'));
    expect((await loadRecipe(file)).ok).toBe(true);
  });

  it('names the step kinds when a step has none or two', async () => {
    const file = await tmp.write('kinds.yaml', lines('name: x', 'steps:', '  - edits: { file: a }', '  - run: make', '    write: { file: a, content: "" }'));
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([
      [3, 5, 'steps[0]'],
      [4, 5, 'steps[1]'],
    ]);
    expect(ps[0]!.message).toMatch(/exactly one of the keys edit, replace, write.*\(found: edits\)/);
    expect(ps[1]!.message).toMatch(/found: run, write/);
  });

  it('checks group names and template placeholders', async () => {
    const file = await tmp.write(
      'groups.yaml',
      lines(
        'name: x',
        'branch: "bots/{{group}}"',
        'commit: { message: "{{descripton}}" }',
        'groups:',
        '  - { name: rest, include: "a/**" }',
        '  - { name: b, include: "b/**" }',
        '  - { name: b, include: "c/**" }',
        'steps: [{ run: make }]',
      ),
    );
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([
      [2, 9, 'branch'],
      [3, 20, 'commit.message'],
      [5, 13, 'groups[0].name'],
      [7, 13, 'groups[2].name'],
    ]);
    expect(ps[0]!.message).toMatch(/unknown placeholder \{\{group\}\}/);
    expect(ps[1]!.message).toMatch(/unknown placeholder \{\{descripton\}\}/);
    expect(ps[3]!.message).toMatch(/duplicate group name "b"/);
  });

  it('explains a job with both name and each', async () => {
    const file = await tmp.write('jobs.yaml', lines('name: x', 'jobs:', '  - { name: a, each: "p/*" }', 'steps: [{ run: make }]'));
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([[3, 5, 'jobs[0]']]);
    expect(ps[0]!.message).toMatch(/either name or each/);
  });

  it('says when the file is missing, empty or of an unknown kind', async () => {
    const missing = problemsOf(await loadRecipe(tmp.path('nope.yaml')));
    expect(missing).toHaveLength(1);
    expect(missing[0]!.message).toMatch(/does not exist/);
    const empty = problemsOf(await loadRecipe(await tmp.write('empty.yml', '')));
    expect(empty[0]!.message).toMatch(/empty/);
    const txt = problemsOf(await loadRecipe(await tmp.write('r.txt', 'name: x')));
    expect(txt[0]!.message).toMatch(/\.yaml, \.yml, \.json, \.js, \.mjs or \.ts/);
  });

  it('reads a schema given as a path, relative to the recipe file', async () => {
    await tmp.write('schemas/pkg.json', JSON.stringify({ type: 'object', required: ['name'] }));
    const file = await tmp.write(
      'with-schema.yaml',
      lines('name: x', 'schemas:', '  - files: "**/package.json"', '    schema: schemas/pkg.json', 'steps: [{ run: make }]'),
    );
    const result = await loadRecipe(file);
    expect(result.ok && result.recipe.schemas).toEqual([{ files: ['**/package.json'], schema: { type: 'object', required: ['name'] } }]);
  });

  it('reports a missing or broken schema file at its node', async () => {
    await tmp.write('schemas/broken.json', '{ nope');
    const file = await tmp.write(
      'bad-schema.yaml',
      lines(
        'name: x',
        'schemas:',
        '  - files: "a.json"',
        '    schema: schemas/missing.json',
        '  - files: "b.json"',
        '    schema: schemas/broken.json',
        'steps: [{ run: make }]',
      ),
    );
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([
      [4, 13, 'schemas[0].schema'],
      [6, 13, 'schemas[1].schema'],
    ]);
    expect(ps[0]!.message).toMatch(/does not exist/);
    expect(ps[1]!.message).toMatch(/not valid JSON/);
  });
});

describe('loadRecipe: JSON', () => {
  it('reports problems with line and column', async () => {
    const file = await tmp.write(
      'r.json',
      ['{', '\t"name": "x",', '\t"steps": [', '\t\t{ "run": "echo" },', '\t\t{ "write": { "file": "a" } }', '\t],', '\t"bogus": true', '}', ''].join('\n'),
    );
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([
      [5, 14, 'steps[1].write.content'],
      [7, 2, 'bogus'],
    ]);
  });

  it('loads a valid JSON recipe', async () => {
    const file = await tmp.write('ok.json', JSON.stringify({ name: 'j', steps: [{ run: 'make' }] }, null, 2));
    const result = await loadRecipe(file);
    expect(result).toMatchObject({ ok: true, file, recipe: { name: 'j', steps: [{ run: { command: 'make', env: {} } }] } });
  });
});

describe('loadRecipe: modules', () => {
  it('loads a .ts recipe (type annotations stripped) with a transform step', async () => {
    const file = await tmp.write(
      'mod.ts',
      [
        'interface FileIn { path: string; content: string }',
        'const upper = ({ content }: FileIn): string => content.toUpperCase();',
        'const recipe: { name: string; steps: Array<Record<string, unknown>> } = {',
        "  name: 'ts-recipe',",
        '  steps: [{ transform: upper }],',
        '};',
        'export default recipe;',
        '',
      ].join('\n'),
    );
    const result = await loadRecipe(file);
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
    expect(result.recipe.name).toBe('ts-recipe');
    const step = result.recipe.steps[0]!;
    if (!('transform' in step)) throw new Error('expected a transform step');
    expect(await step.transform({ path: 'a.ts', content: 'abc' })).toBe('ABC');
  });

  it('loads an .mjs recipe', async () => {
    const file = await tmp.write(
      'mod.mjs',
      "export default { name: 'mjs-recipe', steps: [{ transform: async ({ path }) => path }], jobs: [{ name: 'a' }] };\n",
    );
    const result = await loadRecipe(file);
    expect(result.ok && result.recipe.jobs).toEqual([{ name: 'a' }]);
  });

  it('validates a module recipe with the same schema, problems at 1:1 with their paths', async () => {
    const file = await tmp.write('badmod.mjs', "export default { name: 'm', steps: [{ transform: 3 }], extra: true };\n");
    const ps = problemsOf(await loadRecipe(file));
    expect(where(ps)).toEqual([
      [1, 1, 'steps[0].transform'],
      [1, 1, 'extra'],
    ]);
  });

  it('reports a module without a default export, or one that does not load', async () => {
    const noDefault = problemsOf(await loadRecipe(await tmp.write('nodefault.mjs', 'export const recipe = {};\n')));
    expect(noDefault[0]!.message).toMatch(/no default export/);
    const broken = problemsOf(await loadRecipe(await tmp.write('broken.ts', 'export default {{{\n')));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ line: 1, col: 1, path: '' });
    expect(broken[0]!.message).toMatch(/could not be loaded/);
  });
});

describe('did you mean', () => {
  it('suggests the nearest known key for a mistyped one, at every level', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const cases: [string, string][] = [
      ['name: r\nstpes: [{ run: make }]\n', 'unknown key "stpes"; did you mean "steps"?'],
      ['name: r\nsteps: [{ replace: { old_string: a, new_string: b, replaceAll: true } }]\n', 'did you mean "replace_all"?'],
      ['name: r\nsteps: [{ run: make, timout: 3 }]\n', 'did you mean "timeout"?'],
      ['name: r\nsteps: [{ rnu: make }]\n', 'did you mean "run"?'],
      ['name: r\nfiles: { inclde: [a] }\nsteps: [{ run: make }]\n', 'did you mean "include"?'],
    ];
    for (const [text, want] of cases) {
      const file = join(mkdtempSync(join(tmpdir(), 'scion-dym-')), 'r.yaml');
      writeFileSync(file, text);
      const r = await loadRecipe(file);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems.map((p) => p.message).join('\n')).toContain(want);
    }
    const far = join(mkdtempSync(join(tmpdir(), 'scion-dym-')), 'r.yaml');
    writeFileSync(far, 'name: r\nsteps: [{ run: make }]\nzzzzz: 1\n');
    const r = await loadRecipe(far);
    expect(!r.ok && r.problems[0]!.message).toBe('unknown key "zzzzz"');
  });
});
