// The JSON Schema of the recipe file formats, for editors (yaml-language-server, VS Code's json.schemas).
import * as z from 'zod';
import { buildRecipeSchema } from './schema.js';

export const RECIPE_SCHEMA_ID = 'https://scion.dev/schema/recipe.schema.json';

/**
 * z.toJSONSchema of the YAML/JSON format: input side (defaulted fields are optional and carry their
 * `default`), transform steps left out because a file cannot hold a function.
 */
export function recipeJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(buildRecipeSchema(false), { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema: _drop, ...rest } = generated;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: RECIPE_SCHEMA_ID,
    title: 'scion recipe',
    ...rest,
  };
}
