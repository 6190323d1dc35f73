// The recipe reference (README table, `--help` text), read off the same descriptions as the JSON Schema.
import { recipeJsonSchema } from './json-schema.js';
import { transformStep } from './schema-steps.js';

export interface FieldDoc {
  /** "steps[].edit.file" style. */
  readonly path: string;
  readonly description: string;
}

/** Every described field of the recipe file format, in schema order, each path once. */
export function recipeFieldDocs(): FieldDoc[] {
  const out: FieldDoc[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, path: string): void => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (path && typeof n['description'] === 'string' && !seen.has(path)) {
      seen.add(path);
      out.push({ path, description: n['description'] });
    }
    const props = n['properties'];
    if (props && typeof props === 'object') {
      for (const [key, child] of Object.entries(props)) walk(child, path ? `${path}.${key}` : key);
    }
    if (n['items']) walk(n['items'], `${path}[]`);
    for (const branch of (n['anyOf'] as unknown[] | undefined) ?? []) walk(branch, path);
  };
  walk(recipeJsonSchema(), '');
  // The JSON Schema cannot hold a function, but module recipes can: list transform with the other steps.
  const lastStep = out.map((d) => d.path.startsWith('steps[]')).lastIndexOf(true);
  out.splice(lastStep + 1, 0, { path: 'steps[].transform', description: transformStep.description ?? '' });
  return out;
}
