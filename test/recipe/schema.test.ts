import { describe, expect, it } from 'vitest';
import { loadRecipe, recipeSchema, stepKind, defineRecipe, type Recipe } from '../../src/recipe/index.js';
import { lines, tempFolder } from './helpers.js';

const tmp = tempFolder();

async function load(yaml: string): Promise<Recipe> {
  const result = await loadRecipe(await tmp.write(`r${Math.random().toString(36).slice(2)}.yaml`, yaml));
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`).join('\n'));
  return result.recipe;
}

describe('recipe schema', () => {
  it('parses every field of a full recipe', async () => {
    const recipe = await load(
      lines(
        'name: rename-logger',
        'description: Move to the new logger',
        'base: main',
        'branch: scion/{{recipe}}-x',
        'files:',
        '  include: ["src/**/*.ts"]',
        '  exclude: ["src/vendor/**"]',
        'deny: ["**/*.lock"]',
        'author: { name: bot, email: bot@example.com }',
        'commit:',
        '  message: "refactor: {{description}} ({{group}}, {{count}} files, {{job}}, {{recipe}})"',
        'groups:',
        '  - name: core',
        '    include: ["src/core/**"]',
        '    exclude: ["src/core/gen/**"]',
        '    message: "refactor(core): new logger"',
        'jobs:',
        '  - name: web',
        '    files: { include: ["packages/web/**"] }',
        '  - each: "packages/*"',
        '    files: { include: ["src/**"], exclude: ["src/gen/**"] }',
        'onError: continue',
        'steps:',
        '  - edit:',
        '      file: src/log.ts',
        '      edits:',
        '        - old_string: "import { log } from \'./legacy\'"',
        '          new_string: "import { log } from \'./logger\'"',
        '        - { old_string: "legacyLog(", new_string: "log(", replace_all: true }',
        '  - replace:',
        '      old_string: "legacyLog\\\\((\\\\w+)\\\\)"',
        '      new_string: "log($1)"',
        '      replace_all: true',
        '      regex: true',
        '      files: { include: ["src/**"] }',
        '  - write: { file: src/new.ts, content: "export {}\\n" }',
        '  - notebook: { file: nb/a.ipynb, cell: cell-2, mode: replace, source: "print(1)", type: code }',
        '  - run: "npm run format"',
        '  - run: { command: "make", env: { CI: "1" } }',
        '  - agent:',
        '      prompt: Convert callbacks to async/await',
        '      files: { include: ["src/**/*.js"] }',
        '      per: job',
        '      model: claude-sonnet-4-5',
        '      maxTurns: 5',
        '      maxTokens: 4096',
        '      concurrency: 2',
        '      batch: true',
        '      timeoutMs: 60000',
        'verify:',
        '  - run: "npx tsc --noEmit"',
        'schemas:',
        '  - files: "**/package.json"',
        '    schema: { type: object, required: [name] }',
      ),
    );
    expect(recipe).toEqual({
      name: 'rename-logger',
      description: 'Move to the new logger',
      base: 'main',
      branch: 'scion/{{recipe}}-x',
      files: { include: ['src/**/*.ts'], exclude: ['src/vendor/**'] },
      deny: ['**/*.lock'],
      author: { name: 'bot', email: 'bot@example.com' },
      commit: { message: 'refactor: {{description}} ({{group}}, {{count}} files, {{job}}, {{recipe}})' },
      groups: [{ name: 'core', include: ['src/core/**'], exclude: ['src/core/gen/**'], message: 'refactor(core): new logger' }],
      jobs: [
        { name: 'web', files: { include: ['packages/web/**'], exclude: [] } },
        { each: 'packages/*', files: { include: ['src/**'], exclude: ['src/gen/**'] } },
      ],
      onError: 'continue',
      steps: [
        {
          edit: {
            file: 'src/log.ts',
            edits: [
              { old_string: "import { log } from './legacy'", new_string: "import { log } from './logger'", replace_all: false },
              { old_string: 'legacyLog(', new_string: 'log(', replace_all: true },
            ],
          },
        },
        {
          replace: {
            old_string: 'legacyLog\\((\\w+)\\)',
            new_string: 'log($1)',
            replace_all: true,
            regex: true,
            files: { include: ['src/**'], exclude: [] },
          },
        },
        { write: { file: 'src/new.ts', content: 'export {}\n' } },
        { notebook: { file: 'nb/a.ipynb', cell: 'cell-2', mode: 'replace', source: 'print(1)', type: 'code' } },
        { run: { command: 'npm run format', env: {} } },
        { run: { command: 'make', env: { CI: '1' } } },
        {
          agent: {
            prompt: 'Convert callbacks to async/await',
            files: { include: ['src/**/*.js'], exclude: [] },
            per: 'job',
            model: 'claude-sonnet-4-5',
            maxTurns: 5,
            maxTokens: 4096,
            concurrency: 2,
            batch: true,
            timeoutMs: 60000,
          },
        },
      ],
      verify: [{ run: 'npx tsc --noEmit' }],
      schemas: [{ files: ['**/package.json'], schema: { type: 'object', required: ['name'] } }],
    });
    expect(recipe.steps.map(stepKind)).toEqual(['edit', 'replace', 'write', 'notebook', 'run', 'run', 'agent']);
  });

  it('applies the defaults of a minimal recipe', async () => {
    const recipe = await load(lines('name: min', 'steps:', '  - write: { file: a.txt, content: "" }'));
    expect(recipe).toEqual({
      name: 'min',
      files: { include: ['**'], exclude: [] },
      deny: [],
      commit: { message: 'scion: {{recipe}}' },
      groups: [],
      jobs: [],
      onError: 'stop',
      steps: [{ write: { file: 'a.txt', content: '' } }],
      verify: [],
      schemas: [],
    });
  });

  it('defaults inside steps: replace flags, agent limits, notebook mode and source', async () => {
    const recipe = await load(
      lines(
        'name: d',
        'steps:',
        '  - replace: { old_string: a, new_string: b }',
        '  - agent: { prompt: do it }',
        '  - notebook: { file: n.ipynb, cell: c1, source: x }',
        '  - notebook: { file: n.ipynb, cell: c1, mode: delete }',
        '  - notebook: { file: n.ipynb, mode: insert, type: markdown, source: "# T" }',
        'files: { exclude: ["x/**"] }',
      ),
    );
    expect(recipe.files).toEqual({ include: ['**'], exclude: ['x/**'] });
    expect(recipe.steps).toEqual([
      { replace: { old_string: 'a', new_string: 'b', replace_all: false, regex: false } },
      { agent: { prompt: 'do it', per: 'file', maxTurns: 12, maxTokens: 8192, concurrency: 4, batch: false } },
      { notebook: { file: 'n.ipynb', cell: 'c1', mode: 'replace', source: 'x' } },
      { notebook: { file: 'n.ipynb', cell: 'c1', mode: 'delete', source: '' } },
      { notebook: { file: 'n.ipynb', mode: 'insert', type: 'markdown', source: '# T' } },
    ]);
  });

  it('takes a single glob where a list is expected', async () => {
    const recipe = await load(lines('name: g', 'files: { include: "src/**", exclude: "src/gen/**" }', 'deny: "*.lock"', 'steps: [{ run: make }]'));
    expect(recipe.files).toEqual({ include: ['src/**'], exclude: ['src/gen/**'] });
    expect(recipe.deny).toEqual(['*.lock']);
  });

  it('defaults the commit message from the description, adding the group when there are groups', () => {
    const step = { run: 'x' };
    expect(recipeSchema.parse({ name: 'a', steps: [step] }).commit.message).toBe('scion: {{recipe}}');
    expect(recipeSchema.parse({ name: 'a', description: 'D', steps: [step] }).commit.message).toBe('{{description}}');
    expect(recipeSchema.parse({ name: 'a', description: 'D', groups: [{ name: 'g', include: ['**'] }], steps: [step] }).commit.message).toBe(
      '{{description}} ({{group}})',
    );
    expect(recipeSchema.parse({ name: 'a', commit: { message: 'm {{count}}' }, steps: [step] }).commit.message).toBe('m {{count}}');
  });

  it('accepts $schema for editors and drops it from the parsed recipe', () => {
    const r = recipeSchema.parse({ $schema: './recipe.schema.json', name: 'a', steps: [{ run: 'x' }] });
    expect('$schema' in r).toBe(false);
  });

  it('accepts a transform function (module recipes) and defineRecipe is the identity', () => {
    const fn = ({ content }: { content: string }) => content.toUpperCase();
    const input = defineRecipe({ name: 'm', steps: [{ transform: fn }] });
    const recipe = recipeSchema.parse(input);
    expect(recipe.steps[0]).toEqual({ transform: fn });
    expect(stepKind(recipe.steps[0]!)).toBe('transform');
  });

  it('rejects what the rules forbid', () => {
    const passes = (r: unknown) => recipeSchema.safeParse(r).success;
    const steps = [{ run: 'x' }];
    expect(passes({ name: 'Upper', steps })).toBe(false);
    expect(passes({ name: '-dash', steps })).toBe(false);
    expect(passes({ name: 'ok', steps: [] })).toBe(false);
    expect(passes({ name: 'ok', steps, onError: 'retry' })).toBe(false);
    expect(passes({ name: 'ok', steps: [{ edit: { file: 'a', edits: [] } }] })).toBe(false);
    expect(passes({ name: 'ok', steps: [{ replace: { old_string: '', new_string: 'b' } }] })).toBe(false);
    expect(passes({ name: 'ok', steps: [{ agent: { prompt: 'p', maxTurns: 0 } }] })).toBe(false);
    expect(passes({ name: 'ok', steps: [{ agent: { prompt: 'p', per: 'repo' } }] })).toBe(false);
    expect(passes({ name: 'ok', steps: [{ notebook: { file: 'a.ipynb', source: 'x' } }] })).toBe(false); // replace needs a cell
    expect(passes({ name: 'ok', steps: [{ transform: 'not a function' }] })).toBe(false);
    expect(passes({ name: 'ok', steps, groups: [{ name: 'rest', include: ['**'] }] })).toBe(false);
    expect(passes({ name: 'ok', steps, author: { name: 'x' } })).toBe(false);
    expect(passes({ name: 'ok', steps, verify: [{ run: '' }] })).toBe(false);
    expect(passes({ name: 'ok', steps, schemas: [{ files: '*.json', schema: 3 }] })).toBe(false);
    // and the same shapes, corrected, pass
    expect(passes({ name: 'ok', steps, groups: [{ name: 'rest2', include: ['**'] }], author: { name: 'x', email: 'y' } })).toBe(true);
  });
});
