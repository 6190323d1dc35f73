// Small schema pieces shared by the recipe and its steps: glob lists, file selections, templates.
import * as z from 'zod';
import { globProblem } from './globs.js';
import { unknownPlaceholders } from './templates.js';

/** One glob or a list of them; always a list after parsing. */
export function globList(description: string) {
  return z
    .union([z.string().min(1), z.array(z.string().min(1))], {
      error: 'expected a glob or a list of globs',
    })
    .transform((v) => (typeof v === 'string' ? [v] : v))
    .superRefine((globs, ctx) => {
      for (const g of globs) {
        const problem = globProblem(g);
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      }
    })
    .describe(description);
}

/** `{ include, exclude }`: the paths a recipe, job or step works on. */
export const selectionSchema = z
  .strictObject({
    include: globList('Globs of repository-relative paths to select. Default: ["**"].').prefault(['**']),
    exclude: globList('Globs of paths to leave out even when included. Default: [].').prefault([]),
  })
  .describe('A file selection: paths matching an include glob and no exclude glob.');

export type Selection = z.output<typeof selectionSchema>;

/** A string template that may use only the given `{{placeholders}}`. */
export function template(allowed: readonly string[], description: string) {
  return z
    .string()
    .min(1)
    .superRefine((tpl, ctx) => {
      for (const name of unknownPlaceholders(tpl, allowed)) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown placeholder {{${name}}}; use ${allowed.map((a) => `{{${a}}}`).join(', ')}`,
        });
      }
    })
    .describe(description);
}
