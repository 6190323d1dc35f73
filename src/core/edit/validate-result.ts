// Structured files must stay structured: a JSON file that parsed before an edit must parse after it,
// and a schema the recipe names must still hold (the seed's settings-file protection).
import { createRequire } from 'node:module';
import type { Ajv as AjvClass } from 'ajv';
import { failure, type Failure } from '../../errors.js';

export function isStructured(path: string): boolean {
  return /\.(json|ipynb)$/i.test(path);
}

export function validateResult(path: string, oldText: string | null, newText: string, jsonSchema?: object): Failure | null {
  if (isStructured(path) && oldText !== null && parses(oldText) !== undefined && parses(newText) === undefined) {
    return failure(
      'invalid-result',
      `The edit would leave ${path} as invalid JSON (it parsed before); nothing was written. Check the edit's brackets, commas and quotes.`,
      {
        path,
      },
    );
  }
  if (jsonSchema === undefined) return null;
  const value = parses(newText);
  if (value === undefined) {
    return failure('invalid-result', `${path} must satisfy a JSON Schema, but the result is not JSON; nothing was written.`, { path });
  }
  let validate;
  try {
    validate = new (Ajv())({ allErrors: true, strict: false }).compile(jsonSchema);
  } catch (e) {
    return failure('invalid-result', `The JSON Schema given for ${path} is itself invalid: ${e instanceof Error ? e.message : String(e)}`, { path });
  }
  if (validate(value.json)) return null;
  const problems = (validate.errors ?? []).map((err) => `${err.instancePath || '/'} ${err.message ?? 'is invalid'}`);
  return failure('invalid-result', `The result would break ${path}'s JSON Schema; nothing was written: ${problems.join('; ')}.`, { path, problems });
}

// Ajv (about 20 modules) is loaded by the first edit that names a schema, not by every run.
let ajv: typeof AjvClass | undefined;
function Ajv(): typeof AjvClass {
  ajv ??= (createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass }).Ajv;
  return ajv;
}

/** The parsed value, boxed so that a JSON `null` still counts as parsing. */
function parses(text: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
