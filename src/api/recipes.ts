// Recipes from files: loaded all at once (every problem of every file, then one `recipe` error),
// validated (each file's problems as values), listed (the recipes under a project's recipes/), and
// the JSON Schema editors check recipe files with.
import { join, resolve } from 'node:path';
import { recipeError } from '../errors.js';
import { plural } from '../util/plural.js';
import { findRecipes, formatProblem, loadRecipe, recipeJsonSchema, type Problem, type Recipe } from '../recipe/index.js';
import { duplicateRecipeName } from '../recipe/parse-recipe.js';
import type { LoadedRecipe } from '../runner/run-recipes.js';

export type { LoadedRecipe } from '../runner/run-recipes.js';
// A problem as `file:line:col: message`, from here too: printing a validation needs no renderer of runs.
export { formatProblem, type Problem } from '../recipe/index.js';

/** Loads recipe files (relative to `cwd`). Throws a `recipe` error listing every problem of every file. */
export async function loadRecipeFiles(files: readonly string[], cwd: string = process.cwd()): Promise<LoadedRecipe[]> {
  const results = await Promise.all(files.map((f) => loadRecipe(resolve(cwd, f))));
  const problems: string[] = [];
  const loaded: LoadedRecipe[] = [];
  for (const r of results) {
    if (r.ok) loaded.push({ file: r.file, recipe: r.recipe });
    else problems.push(...r.problems.map(formatProblem));
  }
  if (problems.length > 0) {
    const bad = results.filter((r) => !r.ok).length;
    const which = bad === 1 ? 'A recipe is' : `${bad} recipes are`;
    const fix = problems.length === 1 ? 'it' : 'them';
    throw recipeError(
      `${which} invalid (${plural(problems.length, 'problem')}); fix ${fix} and run again (\`scion validate\` checks without running).`,
      problems,
    );
  }
  const clash = duplicateRecipeName(loaded);
  if (clash !== null) throw recipeError(clash);
  return loaded;
}

// validate's answer is part of the library's published API (README: Library API): it keeps its own
// field names (`file`, `recipe`, `problems`) rather than Result's `value` and `error`.
export type Validation =
  { readonly file: string; readonly ok: true; readonly recipe: Recipe } | { readonly file: string; readonly ok: false; readonly problems: readonly Problem[] };

/** Each recipe file checked against the schema and the rules: every problem, with file:line:col. */
export async function validate(files: readonly string[], cwd: string = process.cwd()): Promise<Validation[]> {
  const out: Validation[] = [];
  for (const f of files) {
    const r = await loadRecipe(resolve(cwd, f));
    out.push(r.ok ? { file: r.file, ok: true, recipe: r.recipe } : { file: r.file, ok: false, problems: r.problems });
  }
  return out;
}

/** The recipe files under `<dir>/recipes`, each loaded (a file that is not valid says how many problems it has). */
export async function listRecipes(dir: string): Promise<{ readonly folder: string; readonly recipes: readonly Validation[] }> {
  const files = await findRecipes(dir);
  return { folder: join(dir, 'recipes'), recipes: await validate(files, dir) };
}

/** The JSON Schema of recipe files. */
export function recipeSchema(): object {
  return recipeJsonSchema();
}
