// Module recipes (.js/.mjs/.ts): the default export, loaded through tsx so TypeScript needs no build.
import { pathToFileURL } from 'node:url';
import { ownModule } from '../util/own-files.js';

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
  noteTransforms(value, absFile);
  return { ok: true, value };
}

/** Where a transform function came from: its recipe module, and the index of its step there. */
export interface TransformOrigin {
  readonly file: string;
  readonly index: number;
}

const origins = new WeakMap<object, TransformOrigin>();

/**
 * A transform is plain code that may never return (`for(;;){}`), so it runs where it can be stopped:
 * a worker thread that imports the same module again (through this very function) and calls the same
 * step's transform. A function cannot cross threads, so its origin is kept here, by identity.
 */
function noteTransforms(value: unknown, file: string): void {
  const steps = isRecord(value) ? value['steps'] : undefined;
  if (!Array.isArray(steps)) return;
  for (const [index, step] of steps.entries()) {
    const fn: unknown = isRecord(step) ? step['transform'] : undefined;
    if (typeof fn === 'function' && !origins.has(fn)) origins.set(fn, { file, index });
  }
}

/** The module and step a transform function was loaded from; undefined for one built in code (the library API). */
export function transformOrigin(fn: object): TransformOrigin | undefined {
  return origins.get(fn);
}

/**
 * What a worker needs to load recipe modules the same way: this module as a file of its own (in the
 * bundle its code sits in a shared chunk, so the build writes it as an entry too), and tsx's API as
 * scion resolves it (never from the user's current directory).
 */
export function loaderUrls(): { readonly loader: string; readonly tsx: string } {
  return { loader: pathToFileURL(ownModule('recipe/load-module')).href, tsx: import.meta.resolve('tsx/esm/api') };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
