// One tool call: validate the input against the tool's schema, then run it. A bad call is answered
// like any refusal, so the model can correct it.
import * as z from 'zod';
import { failure } from '../../errors.js';
import { refusal, stopped, type ToolContext, type ToolReply } from './context.js';
import { editFile, notebookEdit, writeFile } from './edit-tools.js';
import { readFile } from './read-file.js';
import { inputs, type ToolName } from './schemas.js';
import { astgrepSearch } from './astgrep-search.js';
import { glob, grep } from './search.js';

export async function runTool(ctx: ToolContext, name: string, input: unknown): Promise<ToolReply> {
  // The step was stopped (interrupt, deadline) while the model answered: its calls are not run.
  if (ctx.signal?.aborted) return stopped();
  if (!isTool(name)) {
    const f = failure('unsupported', `There is no tool named ${name}.`);
    ctx.refused(name, null, f);
    return refusal(f, `The tools are ${Object.keys(inputs).join(', ')}. There is no shell.`);
  }
  const parsed = inputs[name].safeParse(input);
  if (!parsed.success) {
    const f = failure('unsupported', `The input of ${name} is not valid:\n${z.prettifyError(parsed.error)}`);
    ctx.refused(name, null, f);
    return refusal(f, 'Send the call again with the fields the tool describes.');
  }
  switch (name) {
    case 'read_file':
      return readFile(ctx, parsed.data as z.infer<(typeof inputs)['read_file']>);
    case 'edit_file':
      return editFile(ctx, parsed.data as z.infer<(typeof inputs)['edit_file']>);
    case 'write_file':
      return writeFile(ctx, parsed.data as z.infer<(typeof inputs)['write_file']>);
    case 'notebook_edit':
      return notebookEdit(ctx, parsed.data as z.infer<(typeof inputs)['notebook_edit']>);
    case 'glob':
      return glob(ctx, parsed.data as z.infer<(typeof inputs)['glob']>);
    case 'grep':
      return grep(ctx, parsed.data as z.infer<(typeof inputs)['grep']>);
    case 'astgrep_search':
      return astgrepSearch(ctx, parsed.data as z.infer<(typeof inputs)['astgrep_search']>);
  }
}

function isTool(name: string): name is ToolName {
  return Object.hasOwn(inputs, name);
}
