// The recipe schema: the one source of truth for recipe files, their types, the JSON Schema and the docs.
// Defaults of lists and objects use .prefault(): the value is parsed like input, and z.toJSONSchema
// keeps it as "default" (a plain .default() over a transforming schema is dropped from the JSON Schema).
import * as z from 'zod';
import { globProblem } from './globs.js';
import { globList, selectionSchema, template } from './schema-parts.js';
import { stepSchema } from './schema-steps.js';
import { prSchema } from './schema-pr.js';
import { splitSchema } from './schema-split.js';
import { guardsSchema } from './schema-guards.js';
import { BRANCH_PLACEHOLDERS, MESSAGE_PLACEHOLDERS } from './templates.js';

const NAME = /^[a-z0-9][a-z0-9-]*$/;
// Job names become branch path components: keep them to characters git and shells take as they are.
const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const groupSchema = z
  .strictObject({
    name: z
      .string()
      .regex(JOB_NAME, 'use letters, digits, ".", "_" and "-", starting with a letter or digit')
      .describe('Group name, shown in messages as {{group}}; unique, and not "rest".'),
    include: globList('Globs of the changed files that belong to this group.'),
    exclude: globList('Globs of files this group leaves to later groups. Default: [].').prefault([]),
    message: template(MESSAGE_PLACEHOLDERS, 'Commit message of this group (template). Default: commit.message.').optional(),
  })
  .describe('A file group: one commit holds its changed files.');

const groupsSchema = z
  .array(groupSchema)
  .superRefine((groups, ctx) => {
    const seen = new Set<string>();
    groups.forEach((g, i) => {
      if (g.name === 'rest') {
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: '"rest" is the group of files in no group; choose another name' });
      } else if (seen.has(g.name)) {
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate group name "${g.name}"` });
      }
      seen.add(g.name);
    });
  })
  .prefault([])
  .describe('One commit per group, in this order; a file joins the first group it matches; files in no group are committed last as group "rest". Default: [].');

const jobSchema = z.union(
  [
    z.strictObject({
      name: z
        .string()
        .regex(JOB_NAME, 'use letters, digits, ".", "_" and "-", starting with a letter or digit')
        .describe('Job name: {{job}} in templates and the last part of its branch.'),
      files: selectionSchema.optional().describe("The job's files (repository-relative), intersected with the recipe's files. Default: the recipe's files."),
    }),
    z.strictObject({
      each: z
        .string()
        .min(1)
        .refine((g) => globProblem(g) === null, { error: (issue) => globProblem(String(issue.input)) ?? 'not a usable glob' })
        .describe(
          "Glob of directories of the base tree: one job per match, named after the directory's base name, read literally; " +
            'in its branch a name git refuses there ([id], [...slug]) becomes a slug and a short hash (id-3f2a1c).',
        ),
      files: selectionSchema.optional().describe('Globs relative to each directory, intersected with the recipe\'s files. Default: { include: ["**"] }.'),
    }),
  ],
  { error: 'a job has either name or each, and optionally files' },
);

const stepsDescription = 'Steps applied in order, serially, inside each job (at least one).';

function buildBaseSchema(withTransform: boolean) {
  return z.strictObject({
    $schema: z.string().optional().describe('URL or path of this JSON Schema, for editors; ignored by scion.'),
    name: z
      .string()
      .regex(NAME, 'use lower-case letters, digits and "-", starting with a letter or digit')
      .describe('Recipe name ([a-z0-9][a-z0-9-]*): {{recipe}} in templates and part of the default branch.'),
    description: z.string().min(1).optional().describe('One line saying what the recipe does; {{description}} in commit messages and the PR body.'),
    base: z.string().min(1).optional().describe('Ref or sha every job starts from; --base overrides it. Default: HEAD.'),
    branch: template(
      BRANCH_PLACEHOLDERS,
      'Branch template ({{recipe}}, {{job}}); with several jobs and no {{job}}, "/{{job}}" is appended. Default: scion/{{recipe}}, or ' +
        'scion/{{recipe}}/{{job}} with several jobs.',
    ).optional(),
    files: selectionSchema
      .prefault({ include: ['**'], exclude: [] })
      .describe(
        'Files the steps read and change (tracked files of the base commit; new files may be created where these globs match). Default: { include: ' +
          '["**"], exclude: [] }.',
      ),
    deny: globList('Paths no step may change; an attempt fails with kind "denied". Default: [].').prefault([]),
    author: z
      .strictObject({
        name: z.string().min(1).describe('Author and committer name.'),
        email: z.string().min(1).describe('Author and committer email.'),
      })
      .optional()
      .describe("Author of scion's commits. Default: the repository's git config user, else scion <scion@localhost>."),
    commit: z
      .strictObject({
        message: template(
          MESSAGE_PLACEHOLDERS,
          'Commit message template: {{recipe}} {{job}} {{group}} {{description}} {{count}}. Default: "{{description}}" (or "scion: {{recipe}}" ' +
            'without a description), plus " ({{group}})" when the recipe has groups.',
        ).optional(),
      })
      .optional()
      .describe('Commit settings.'),
    groups: groupsSchema,
    jobs: z
      .array(jobSchema)
      .prefault([])
      .describe('Jobs, each with its own branch: { name, files? } or { each: "dir/*", files? }. Default: one job named after the recipe.'),
    onError: z
      .enum(['stop', 'continue'])
      .default('stop')
      .describe('After a failed step: stop the job (committing what earlier steps changed) or continue with the next step. Default: stop.'),
    steps: z.array(stepSchema(withTransform)).min(1).describe(stepsDescription),
    verify: z
      .array(
        z.strictObject({
          run: z.string().min(1).describe('Shell command; a non-zero exit fails the job.'),
          fix: z
            .strictObject({
              agent: z
                .strictObject({
                  prompt: z.string().min(1).optional().describe('What the fix conversation is asked to do. Default: fix the problems the command reports.'),
                  maxRounds: z.number().int().min(1).max(10).describe('Fix rounds (conversation, then the command again) before the job fails.'),
                  model: z.string().min(1).optional().describe('Claude model. Default: $SCION_MODEL, else a current Claude model.'),
                  maxTurns: z.number().int().positive().default(12).describe('Model round trips per round. Default: 12.'),
                  maxTokens: z.number().int().positive().default(8192).describe('max_tokens of each model request. Default: 8192.'),
                })
                .describe("Claude gets the failing command, its diagnostics with the lines around them, and the job's files through the agent step's tools."),
            })
            .optional()
            .describe('On failure, fix what the command reports and run it again; the fix\'s edits are committed as the group "fix".'),
        }),
      )
      .prefault([])
      .describe(
        'Commands run in the worktree after the steps; a failure fails the job. Not run when the steps changed nothing (unless a command has a fix). ' +
          'Default: [].',
      ),
    pr: prSchema.optional(),
    split: splitSchema.optional(),
    schemas: z
      .array(
        z.strictObject({
          files: globList('Globs of the JSON files this schema checks.'),
          schema: z
            .union([z.record(z.string(), z.unknown()), z.string().min(1)], {
              error: 'expected a JSON Schema object or the path of a JSON Schema file',
            })
            .describe('A JSON Schema object, or the path of a .json schema file relative to the recipe file.'),
        }),
      )
      .prefault([])
      .describe('JSON Schemas changed JSON files must still satisfy (else kind "invalid-result"); a file uses the first entry whose globs match. Default: [].'),
    guards: guardsSchema,
  });
}

type Base = z.output<ReturnType<typeof buildBaseSchema>>;

/** The default commit message depends on other fields, so it is filled once the rest has parsed. */
function withDefaults<T extends Base>(r: T) {
  const { $schema: _ignored, commit, ...rest } = r;
  const fallback = (r.description ? '{{description}}' : 'scion: {{recipe}}') + (r.groups.length > 0 ? ' ({{group}})' : '');
  return { ...rest, commit: { message: commit?.message ?? fallback } };
}

/** The recipe schema. `withTransform: false` is the YAML/JSON file format, which cannot hold functions. */
export function buildRecipeSchema(withTransform: boolean) {
  return buildBaseSchema(withTransform).transform(withDefaults).describe('A scion recipe: a multi-file change, run as one branch per job.');
}

export const recipeSchema = buildRecipeSchema(true);

export type RecipeInput = z.input<typeof recipeSchema>;
/** A parsed recipe with every default applied. */
export type Recipe = z.output<typeof recipeSchema>;
export type Step = Recipe['steps'][number];
export type JobEntry = Recipe['jobs'][number];
export type Group = Recipe['groups'][number];

/** Identity: gives module recipes (`export default defineRecipe({...})`) their types. */
export function defineRecipe(r: RecipeInput): RecipeInput {
  return r;
}
