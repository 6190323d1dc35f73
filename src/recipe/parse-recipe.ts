// Recipes given as values (a library caller's object, `defineRecipe({...})`): the same schema and
// problems as a recipe file, without file positions; and the one rule that spans recipes (names).
import { issuesToProblems, parseErrorMap, formatPath, type Problem } from './problems.js';
import { recipeSchema, type Recipe, type RecipeInput } from './schema.js';

// parseRecipe's answer is part of the library's published API (README: Library API): it keeps its own
// field names (`recipe`, `problems`) rather than Result's `value` and `error`.
export type ParseResult = { readonly ok: true; readonly recipe: Recipe } | { readonly ok: false; readonly problems: Problem[] };

/** Validates a recipe value: every problem at once (line and col are 1: a value has no positions). */
export function parseRecipe(input: RecipeInput | Recipe | unknown, file = '<recipe>'): ParseResult {
  const result = recipeSchema.safeParse(input, { error: parseErrorMap });
  if (result.success) return { ok: true, recipe: result.data };
  return {
    ok: false,
    problems: issuesToProblems(result.error.issues, input).map((raw) => ({ file, line: 1, col: 1, path: formatPath(raw.path), message: raw.message })),
  };
}

/**
 * Recipe names must differ within one run (they name branches and trailers): one sentence for the
 * first clash, or null.
 */
export function duplicateRecipeName(recipes: readonly { readonly file: string; readonly recipe: { readonly name: string } }[]): string | null {
  const names = new Map<string, string>();
  for (const { file, recipe } of recipes) {
    const other = names.get(recipe.name);
    if (other !== undefined) return `${file} and ${other} are both named "${recipe.name}"; recipe names must differ in one run.`;
    names.set(recipe.name, file);
  }
  return null;
}
