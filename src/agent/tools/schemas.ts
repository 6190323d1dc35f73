// The agent's six tools: exact names and input fields, as the model is told them. The descriptions carry the seed's rules
// (read first, keep indentation after the line-number prefix, prefer edit over write, unique
// old_string or replace_all): the model learns them here, and the engine enforces them anyway.
import type Anthropic from '@anthropic-ai/sdk';
import * as z from 'zod';
import { DEFAULT_READ_LIMIT, MAX_LINE_CHARS } from './cat-n.js';

/**
 * Part of every response-cache key. Bump when a tool's name, input or behaviour, or the system prompt,
 * changes: answers given under other tools or instructions are not replayed.
 */
export const TOOLSET_VERSION = 2;

export const MAX_LIST = 200;

const path = (what: string) => z.string().describe(`${what}, relative to the repository root (an absolute path inside the job's worktree works too).`);

export const inputs = {
  read_file: z.object({
    file_path: path('The file to read'),
    offset: z.number().int().min(0).optional().describe('The 1-based line number to start at. Default: 1.'),
    limit: z.number().int().min(1).optional().describe(`How many lines to show. Default: ${DEFAULT_READ_LIMIT}.`),
  }),
  edit_file: z.object({
    file_path: path('The file to edit'),
    old_string: z.string().describe('The exact text to replace, copied from the file without any line-number prefix.'),
    new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string. Default: false.'),
  }),
  write_file: z.object({
    file_path: path('The file to write'),
    content: z.string().describe('The complete content of the file.'),
  }),
  notebook_edit: z.object({
    notebook_path: path('The .ipynb notebook to edit'),
    cell_id: z
      .string()
      .optional()
      .describe('The id of the cell, or cell-N for the cell at 0-based index N. For insert: the new cell goes after it (at the start when omitted).'),
    new_source: z.string().describe('The new source of the cell (ignored for delete).'),
    cell_type: z.enum(['code', 'markdown']).optional().describe('The cell type; required for insert.'),
    edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('Default: replace.'),
  }),
  glob: z.object({
    pattern: z.string().describe('A glob such as src/**/*.js, relative to the repository root.'),
  }),
  grep: z.object({
    pattern: z.string().describe('A JavaScript regular expression, matched against each line.'),
    glob: z.string().optional().describe('Only search files matching this glob.'),
  }),
  astgrep_search: z.object({
    pattern: z.string().min(1).describe('Code of the language with metavariables: $NAME matches one node, $$$NAME several (e.g. console.log($$$ARGS)).'),
    language: z.string().describe('typescript, tsx, javascript, html or css: the files of that language are searched.'),
    glob: z.string().optional().describe('Only search files matching this glob.'),
  }),
} as const;

export type ToolName = keyof typeof inputs;
export type ToolInput<N extends ToolName> = z.infer<(typeof inputs)[N]>;

const descriptions: Record<ToolName, string> = {
  read_file: [
    'Reads a file of this job. The result is in `cat -n` form: each line is its line number (right-aligned), a tab, then the line exactly as it is ' +
      'in the file.',
    `Shows up to ${DEFAULT_READ_LIMIT} lines from offset (a 1-based line number); lines longer than ${MAX_LINE_CHARS} characters are cut.`,
    'You must read a file in this conversation before editing it (a file given to you in the first message counts as read). Reading only part of a ' +
      'file lets you edit it but not overwrite it with write_file.',
  ].join('\n'),
  edit_file: [
    'Replaces exact text in a file: old_string is found and replaced by new_string. Prefer this tool for every change to an existing file: it ' +
      'changes only what it must.',
    'Rules:',
    '- You must have read the file in this conversation first. If the file changed since you read it (another edit in this job), the edit fails: ' +
      'read it again.',
    '- When copying text from read_file output, keep the exact indentation (tabs/spaces) as it appears AFTER the line-number prefix (the number and ' +
      'the tab). Never put any part of that prefix into old_string or new_string.',
    '- old_string must match the file exactly and be unique in it. If it occurs more than once the edit fails: add surrounding lines to make it ' +
      'unique, or set replace_all to true to change every occurrence (for example to rename something).',
    '- new_string must differ from old_string. An empty new_string deletes old_string.',
    '- Several small, targeted edits are better than one huge one.',
  ].join('\n'),
  write_file: [
    'Writes a whole file: creates a new file, or replaces an existing one completely. The content is written exactly as given.',
    '- To change an existing file, use edit_file instead: it sends only the change and cannot lose lines by accident. Use write_file only to create ' +
      'a file or for a complete rewrite.',
    '- Overwriting an existing file requires having read all of it in this conversation first.',
    '- Do not create documentation files unless the task asks for them.',
  ].join('\n'),
  notebook_edit: [
    'Edits one cell of a Jupyter notebook (.ipynb). Use this for notebooks; edit_file refuses them.',
    "cell_id is the cell's id or cell-N (0-based index). edit_mode replace (default) sets the cell's source (a code cell loses its outputs); insert " +
      'adds a new cell after cell_id, or at the start without one, and needs cell_type; delete removes the cell.',
    'Read the notebook first.',
  ].join('\n'),
  glob:
    `Lists the files of this job whose path matches a glob (for example src/**/*.js). Only the files this step may read and change are listed, ` +
    `at most ${MAX_LIST}.`,
  grep:
    `Searches the lines of this job's files for a JavaScript regular expression; glob narrows the files searched. Answers with path:line: text, ` +
    `at most ${MAX_LIST} matches. Only the files this step may read and change are searched.`,
  astgrep_search: [
    'Finds code by its syntax, not its text (ast-grep): the pattern is code of the language, where $NAME matches any one node and $$$NAME any number of them.',
    'foo($A) finds every call of foo with one argument, however it is spaced or split over lines; $OBJ.then($$$) finds promise chains.',
    `Answers with path:line:column: the first line of each match, at most ${MAX_LIST}. Only the files this step may read and change are searched.`,
    'Use it to find what to change, then read_file and edit_file as usual.',
  ].join('\n'),
};

function jsonSchema(schema: z.ZodType): Anthropic.Messages.Tool.InputSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

/** The tool definitions sent with every request; the last carries the prompt-cache breakpoint. */
export function toolDefinitions(): Anthropic.Messages.Tool[] {
  const names = Object.keys(inputs) as ToolName[];
  return names.map((name, i) => ({
    name,
    description: descriptions[name],
    input_schema: jsonSchema(inputs[name]),
    ...(i === names.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
  }));
}
