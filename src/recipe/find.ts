// `scion list`: the recipe files in ./recipes.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { compareCodeUnits } from '../util/compare.js';

const RECIPE_FILE = /\.(ya?ml|json|m?js|ts)$/i;

/**
 * Recipe files directly in `<dir>/recipes` (not in subfolders: those may hold schemas or helpers),
 * sorted by name, as `join(dir, 'recipes', name)`. No recipes folder: [].
 */
export async function findRecipes(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(dir, 'recipes'), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile() && RECIPE_FILE.test(e.name) && !/\.d\.[mc]?ts$/i.test(e.name))
    .map((e) => e.name)
    .sort(compareCodeUnits)
    .map((name) => join(dir, 'recipes', name));
}
