// Loading the recipes named on the command line: every problem of every file at once, then exit 2.
import { resolve } from 'node:path';
import { recipeError } from '../errors.js';
import { formatProblem, loadRecipe } from '../recipe/index.js';
import { duplicateRecipeName } from '../recipe/parse-recipe.js';
import type { LoadedRecipe } from '../runner/run-recipes.js';

export async function loadAll(files: readonly string[], cwd: string): Promise<LoadedRecipe[]> {
  const results = await Promise.all(files.map((f) => loadRecipe(resolve(cwd, f))));
  const problems: string[] = [];
  const loaded: LoadedRecipe[] = [];
  for (const r of results) {
    if (r.ok) loaded.push({ file: r.file, recipe: r.recipe });
    else problems.push(...r.problems.map(formatProblem));
  }
  if (problems.length > 0) {
    const bad = results.filter((r) => !r.ok).length;
    throw recipeError(
      `${bad === 1 ? 'A recipe is' : `${bad} recipes are`} invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}); fix ${problems.length === 1 ? 'it' : 'them'} and run again (\`scion validate\` checks without running).`,
      problems,
    );
  }
  const clash = duplicateRecipeName(loaded);
  if (clash !== null) throw recipeError(clash);
  return loaded;
}
