import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { findRecipes } from '../../src/recipe/index.js';
import { tempFolder } from './helpers.js';

const tmp = tempFolder();

describe('findRecipes', () => {
  it('lists the recipe files directly in ./recipes, sorted, skipping other files and subfolders', async () => {
    for (const name of ['b.yaml', 'a.yml', 'c.json', 'd.ts', 'e.mjs', 'f.js', 'notes.md', 'types.d.ts', 'schemas/pkg.json', 'nested/x.yaml']) {
      await tmp.write(join('proj', 'recipes', name), '{}');
    }
    const dir = tmp.path('proj');
    expect(await findRecipes(dir)).toEqual(['a.yml', 'b.yaml', 'c.json', 'd.ts', 'e.mjs', 'f.js'].map((n) => join(dir, 'recipes', n)));
  });

  it('returns nothing when there is no recipes folder', async () => {
    await tmp.write('empty/README.md', '');
    expect(await findRecipes(tmp.path('empty'))).toEqual([]);
  });
});
