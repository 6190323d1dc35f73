// One schema per step kind. A step is a mapping with exactly one key: its kind.
import * as z from 'zod';
import { selectionSchema } from './schema-parts.js';
import { astgrepStep, jscodeshiftStep } from './schema-structural.js';

const narrowing = selectionSchema.optional().describe('Optional narrowing of the recipe/job selection: a file must match both. Default: the whole selection.');

const editItem = z.strictObject({
  old_string: z.string().describe('Text to find, exactly as in the file (curly quotes are matched too). Empty: create the file.'),
  new_string: z.string().describe('Text to put in its place.'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence; when false a file with 2+ matches fails with kind "not-unique". Default: false.'),
});

export const editStep = z
  .strictObject({
    file: z.string().min(1).describe('Repository-relative path of the one file to edit.'),
    edits: z.array(editItem).min(1).describe('FileEditTool edits, applied in order with cascade protection (at least one).'),
  })
  .describe('FileEditTool edits on one file.');

export const replaceStep = z
  .strictObject({
    old_string: z.string().min(1).describe('Text (or, with regex, a JavaScript regular expression) to find.'),
    new_string: z.string().describe('Replacement; with regex it may use $1, $2, … and $<name>.'),
    replace_all: z
      .boolean()
      .default(false)
      .describe('Replace every occurrence; when false a file with 2+ matches fails with kind "not-unique". Default: false.'),
    regex: z.boolean().default(false).describe('Treat old_string as a JavaScript regular expression. Default: false.'),
    files: narrowing,
  })
  .superRefine((step, ctx) => {
    if (!step.regex) return;
    try {
      new RegExp(step.old_string);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        path: ['old_string'],
        message: `not a valid regular expression: ${(err as Error).message}`,
      });
    }
  })
  .describe('The same edit on every selected file that contains old_string.');

export const writeStep = z
  .strictObject({
    file: z.string().min(1).describe('Repository-relative path of the file to create or rewrite.'),
    content: z.string().describe('The whole new content, written exactly as given (LF line endings).'),
  })
  .describe('FileWriteTool: create or rewrite one file.');

export const notebookStep = z
  .strictObject({
    file: z.string().min(1).describe('Repository-relative path of the .ipynb notebook.'),
    cell: z
      .string()
      .min(1)
      .optional()
      .describe('Cell id, or cell-N for the N-th cell (0-based). Required for replace and delete; insert without it inserts at the top.'),
    mode: z
      .enum(['replace', 'insert', 'delete'])
      .default('replace')
      .describe("replace the cell's source, insert a new cell after it, or delete it. Default: replace."),
    source: z.string().optional().describe('The new cell source. Required unless mode is delete. Default: "" for delete.'),
    type: z
      .enum(['code', 'markdown'])
      .optional()
      .describe("Cell type: required for insert; for replace, changes the cell's type. Default: the cell's own type."),
  })
  .superRefine((step, ctx) => {
    if (step.mode !== 'delete' && step.source === undefined) {
      ctx.addIssue({ code: 'custom', path: ['source'], message: `Required for mode ${step.mode}` });
    }
    if (step.mode !== 'insert' && step.cell === undefined) {
      ctx.addIssue({ code: 'custom', path: ['cell'], message: `Required for mode ${step.mode}` });
    }
    if (step.mode === 'insert' && step.type === undefined) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'Required for mode insert (code or markdown)' });
    }
  })
  .transform((step) => ({ ...step, source: step.source ?? '' }))
  .describe('NotebookEditTool: replace, insert or delete one cell of a notebook.');

export const runStep = z
  .union(
    [
      z.string().min(1),
      z.strictObject({
        command: z.string().min(1).describe("Shell command to run in the job's worktree."),
        env: z.record(z.string(), z.string()).prefault({}).describe('Extra environment variables for the command. Default: {}.'),
      }),
    ],
    { error: 'expected a command string or { command, env }' },
  )
  .transform((run) => (typeof run === 'string' ? { command: run, env: {} as Record<string, string> } : run))
  .describe("A shell command run in the job's worktree; the files it changes are committed too.");

export const agentStep = z
  .strictObject({
    prompt: z.string().min(1).describe('What the model should do to each file (or to the job).'),
    files: narrowing,
    per: z
      .enum(['file', 'job'])
      .default('file')
      .describe('file: one conversation per selected file, run concurrently; job: one conversation for the whole job. Default: file.'),
    model: z.string().min(1).optional().describe('Claude model id. Default: $SCION_MODEL, else a current Claude model.'),
    maxTurns: z.number().int().positive().default(12).describe('Model round trips per conversation before it fails with kind "agent". Default: 12.'),
    maxTokens: z.number().int().positive().default(8192).describe('max_tokens of each model request. Default: 8192.'),
    concurrency: z.number().int().positive().default(4).describe('Conversations of one step run at once (per: file). Default: 4.'),
    batch: z
      .boolean()
      .default(false)
      .describe('Send each round of the per-file conversations as one Message Batch (half price, slower; for scheduled jobs). Default: false.'),
    timeoutMs: z.number().int().positive().optional().describe('Time limit of the whole step in milliseconds. Default: none.'),
  })
  .describe('A Claude conversation that edits the selected files through the same engine.');

/** `({ path, content }) => new content` (LF text), or undefined/null to leave the file alone; may be async. */
export type TransformFn = (file: { readonly path: string; readonly content: string }) => string | undefined | null | Promise<string | undefined | null>;

export const transformStep = z
  .custom<TransformFn>((v) => typeof v === 'function', {
    error:
      'a transform step holds a function, which only module recipes (.js, .mjs, .ts) can express; in YAML or JSON use edit, replace, write, ' +
      'notebook, run, agent, astgrep or jscodeshift',
  })
  .describe('Module recipes only: ({ path, content }) => new content, or undefined to leave the file alone; may be async.');

/** `expect` and `timeout`: allowed beside the kind on every step. */
const stepExtras = {
  expect: z
    .strictObject({
      min: z.number().int().nonnegative().optional().describe('Fewest files the step may change (plus those found already applied). Default: no lower bound.'),
      max: z.number().int().nonnegative().optional().describe('Most files the step may change (plus those found already applied). Default: no upper bound.'),
    })
    .refine((e) => e.min === undefined || e.max === undefined || e.min <= e.max, { message: 'min must not be above max' })
    .optional()
    .describe(
      'Range of files the step must change, counting those it found already applied; outside it the job fails with kind "expectation". Default: any number.',
    ),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(
      'Seconds the step may take; past it the step fails with kind "timeout" and nothing it did is kept. ' +
        'Default: 600 for run, agent, transform, astgrep and jscodeshift; 10 per file for replace with regex; none otherwise.',
    ),
};

export const STEP_KINDS = ['edit', 'replace', 'write', 'notebook', 'run', 'agent', 'astgrep', 'jscodeshift', 'transform'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The step union. `withTransform: false` gives the file formats' variant (for the JSON Schema). */
export function stepSchema(withTransform: boolean) {
  const kinds = withTransform ? STEP_KINDS : STEP_KINDS.filter((k) => k !== 'transform');
  const error = `a step has exactly one of the keys ${kinds.join(', ')}`;
  const fileSteps = [
    z.strictObject({ edit: editStep, ...stepExtras }),
    z.strictObject({ replace: replaceStep, ...stepExtras }),
    z.strictObject({ write: writeStep, ...stepExtras }),
    z.strictObject({ notebook: notebookStep, ...stepExtras }),
    z.strictObject({ run: runStep, ...stepExtras }),
    z.strictObject({ agent: agentStep, ...stepExtras }),
    z.strictObject({ astgrep: astgrepStep, ...stepExtras }),
    z.strictObject({ jscodeshift: jscodeshiftStep, ...stepExtras }),
  ] as const;
  return withTransform ? z.union([...fileSteps, z.strictObject({ transform: transformStep, ...stepExtras })], { error }) : z.union(fileSteps, { error });
}
