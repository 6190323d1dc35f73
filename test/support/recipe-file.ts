// Writes a recipe into its own temp folder (never into the repository under test, whose checkout
// must stay byte-identical).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function recipeFile(text: string, name = 'recipe.yaml'): string {
  const dir = mkdtempSync(join(tmpdir(), 'scion-recipe-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
