// Module recipes (.js/.mjs/.ts): the default export, loaded through tsx so TypeScript needs no build.
import { pathToFileURL } from 'node:url';

export type Imported = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Imports the module and returns its default export. A failure is a value: the message says why the
 * module could not be used (syntax error, missing import, no default export).
 */
export async function importDefault(absFile: string): Promise<Imported> {
  let mod: Record<string, unknown>;
  try {
    // tsImport loads in its own namespace: a recipe edited between two loads is read afresh.
    // Imported here, not at the top: tsx is heavy and only module recipes need it.
    const { tsImport } = await import('tsx/esm/api');
    mod = (await tsImport(pathToFileURL(absFile).href, { parentURL: import.meta.url })) as Record<string, unknown>;
  } catch (err) {
    const msg = (err as Error).message?.split('\n')[0] ?? String(err);
    return { ok: false, message: `the module could not be loaded: ${msg}` };
  }
  let value = mod['default'];
  // A .ts file outside an ESM package is compiled to CommonJS: its `export default` arrives wrapped.
  if (isRecord(value) && 'default' in value && !('name' in value) && isRecord(value['default'])) value = value['default'];
  if (value === undefined) {
    return { ok: false, message: 'the module has no default export; write `export default defineRecipe({ ... })`' };
  }
  return { ok: true, value };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
