import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RECIPE_SCHEMA_ID, recipeFieldDocs, recipeJsonSchema } from '../../src/recipe/index.js';

const root = new URL('../../', import.meta.url);
const YAML_EXAMPLES = [
  'rename-logger.yaml',
  'import-migration.yaml',
  'bump-config.yaml',
  'notebook-cleanup.yaml',
  'console-to-logger.yaml',
  'react-lifecycles.yaml',
];

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return ajv.compile(recipeJsonSchema());
}

describe('recipeJsonSchema', () => {
  it('is a draft 2020-12 schema with an id and a title', () => {
    const schema = recipeJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(RECIPE_SCHEMA_ID);
    expect(schema.title).toBe('scion recipe');
    expect(schema.required).toEqual(['name', 'steps']);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema); // plain JSON: ready to write to a file
  });

  it('accepts every YAML example recipe', async () => {
    const validate = validator();
    for (const name of YAML_EXAMPLES) {
      const data: unknown = parse(await readFile(new URL(`recipes/${name}`, root), 'utf8'));
      const valid = validate(data);
      expect({ name, valid, errors: validate.errors ?? null }).toEqual({ name, valid: true, errors: null });
    }
  });

  it('rejects unknown keys, missing fields, wrong enums and transform steps', () => {
    const validate = validator();
    const base = { name: 'ok', steps: [{ run: 'make' }] };
    expect(validate(base)).toBe(true);
    expect(validate({ ...base, bogus: 1 })).toBe(false);
    expect(validate({ steps: base.steps })).toBe(false);
    expect(validate({ ...base, onError: 'retry' })).toBe(false);
    expect(validate({ ...base, name: 'Bad Name' })).toBe(false);
    expect(validate({ ...base, steps: [{ edit: { file: 'a' } }] })).toBe(false);
    expect(validate({ ...base, steps: [{ transform: 'x => x' }] })).toBe(false);
    expect(validate({ ...base, steps: [{ run: 'a', write: { file: 'b', content: '' } }] })).toBe(false);
  });

  it('takes the structural steps and refuses their unknown keys and parsers', () => {
    const validate = validator();
    const ok = (step: unknown) => validate({ name: 'ok', steps: [step] });
    expect(ok({ astgrep: { rule: { pattern: 'a($B)', inside: { kind: 'function_declaration' } }, fix: 'b($B)', language: 'go' }, expect: { min: 1 } })).toBe(
      true,
    );
    expect(ok({ astgrep: { ruleFile: 'rules/r.yml', files: { include: ['src/**'] } }, timeout: 30 })).toBe(true);
    expect(ok({ jscodeshift: { transform: './t.js', parser: 'tsx', options: { quote: 'single' } } })).toBe(true);
    expect(ok({ astgrep: { rule: { pattern: 'a' }, fixx: 'b' } })).toBe(false);
    expect(ok({ jscodeshift: { transform: './t.js', parser: 'esprima' } })).toBe(false);
    expect(ok({ jscodeshift: { parser: 'babel' } })).toBe(false);
  });

  it('carries the descriptions and defaults editors show', () => {
    const props = recipeJsonSchema().properties as Record<string, { description?: string; default?: unknown }>;
    expect(props.onError).toMatchObject({ default: 'stop' });
    expect(props.onError!.description).toMatch(/Default: stop/);
    expect(props.deny).toMatchObject({ default: [] });
  });
});

describe('recipeFieldDocs', () => {
  it('lists every field with its one-line description, transform included', () => {
    const docs = recipeFieldDocs();
    const paths = docs.map((d) => d.path);
    for (const p of [
      'name',
      'files.include',
      'groups[].name',
      'jobs[].each',
      'steps[].edit.edits[].old_string',
      'steps[].agent.maxTurns',
      'steps[].transform',
      'verify[].run',
      'schemas[].schema',
    ]) {
      expect(paths).toContain(p);
    }
    expect(new Set(paths).size).toBe(paths.length);
    for (const d of docs) {
      expect(d.description.length).toBeGreaterThan(0);
      expect(d.description).not.toMatch(/\n/);
    }
  });
});
