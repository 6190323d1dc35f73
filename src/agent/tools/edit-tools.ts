// edit_file, write_file and notebook_edit: each goes through the runner's guard, then the core engine
// with the conversation's read state, under the step's lock so the check and the write are one step.
import {
  applyEdits,
  decodeText,
  editNotebook,
  writeContent,
  type EngineOptions,
  type EngineResult,
  type FileChange,
  type FileInput,
} from '../../core/index.js';
import type { Failure } from '../../errors.js';
import { adviceFor, guardAdvice, type EditAttempt } from './advice.js';
import { numbered, catLines } from './cat-n.js';
import { refusal, reply, stopped, type ToolContext, type ToolReply } from './context.js';
import { resolvePath } from './paths.js';
import type { ToolInput } from './schemas.js';

type Tool = EditAttempt['tool'];

export function editFile(ctx: ToolContext, input: ToolInput<'edit_file'>): Promise<ToolReply> {
  const edit = { old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all ?? false };
  return change(
    ctx,
    'edit_file',
    input.file_path,
    input.old_string,
    (file, opts) => applyEdits(file, [edit], opts),
    (c) => {
      const regions = c.patch.hunks.length;
      const head = `The file ${c.path} has been updated${regions > 1 ? ` in ${regions} places` : ''}. A snippet of the result (cat -n):`;
      return `${head}\n${snippet(c)}`;
    },
  );
}

export function writeFile(ctx: ToolContext, input: ToolInput<'write_file'>): Promise<ToolReply> {
  return change(
    ctx,
    'write_file',
    input.file_path,
    undefined,
    (file, opts) => writeContent(file, input.content, opts),
    (c) => {
      const lines = catLines(c.newText).length;
      return c.before === null ? `Created ${c.path} (${lines} lines).` : `Rewrote ${c.path} completely (${lines} lines).`;
    },
  );
}

export function notebookEdit(ctx: ToolContext, input: ToolInput<'notebook_edit'>): Promise<ToolReply> {
  const mode = input.edit_mode ?? 'replace';
  const edit = {
    source: input.new_source,
    mode,
    ...(input.cell_id === undefined ? {} : { cell: input.cell_id }),
    ...(input.cell_type === undefined ? {} : { type: input.cell_type }),
  };
  const where = input.cell_id === undefined ? 'at the start' : `at ${input.cell_id}`;
  return change(
    ctx,
    'notebook_edit',
    input.notebook_path,
    undefined,
    (file, opts) => editNotebook(file, edit, opts),
    (c) => `Notebook ${c.path} updated: ${mode} ${where}.`,
  );
}

async function change(
  ctx: ToolContext,
  tool: Tool,
  rawPath: string,
  oldString: string | undefined,
  compute: (file: FileInput, opts: EngineOptions) => EngineResult,
  describe: (c: FileChange) => string,
): Promise<ToolReply> {
  const resolved = resolvePath(ctx.files, rawPath);
  if (!resolved.ok) {
    ctx.refused(tool, rawPath, resolved.error);
    return refusal(resolved.error, guardAdvice);
  }
  const path = resolved.value;
  // From reading the current bytes to writing the new ones, no other edit of this step may run:
  // the read-state check must still hold when the bytes land.
  return ctx.lock.run(async () => {
    // Waiting for the lock may outlast the step: a stopped step writes nothing more.
    if (ctx.signal?.aborted) return stopped();
    const bytes = await ctx.files.read(path);
    const opts: EngineOptions = { ...ctx.files.engineOptions(path), read: ctx.reads.get(path) };
    const result = compute({ path, bytes }, opts);
    if (!result.ok) return refuse(ctx, { tool, path, text: textOf(bytes), ...(oldString === undefined ? {} : { oldString }) }, result.error);
    const c = result.value;
    if (!c.changed) return reply(`${path} already holds exactly this content; nothing changed.`);
    // The guards judge the change as a whole (what the file was, what it would be) before it is written.
    const guarded = await ctx.guards.vet({ path, before: bytes, after: c.after });
    if (guarded) return refuse(ctx, { tool, path, text: textOf(bytes), ...(oldString === undefined ? {} : { oldString }) }, guarded);
    if (!ctx.touched.has(path)) ctx.touched.set(path, bytes === null ? null : ctx.files.blobId(bytes));
    await ctx.files.write(path, c.after);
    ctx.reads.markWritten(path, c.newText, tool === 'write_file');
    return reply(describe(c));
  });
}

function refuse(ctx: ToolContext, attempt: EditAttempt, f: Failure): ToolReply {
  ctx.refused(attempt.tool, attempt.path, f);
  return refusal(f, adviceFor(f, attempt));
}

function textOf(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  const d = decodeText(bytes);
  return d.ok ? d.value.text : null;
}

const MAX_SNIPPET_LINES = 30;

/** The changed lines with the patch's context, in cat -n form, so the model sees the new line numbers. */
function snippet(c: FileChange): string {
  const lines = catLines(c.newText);
  const parts: string[] = [];
  for (const h of c.patch.hunks.slice(0, 3)) {
    const from = Math.max(1, h.newLines === 0 ? h.newStart - 1 : h.newStart);
    const to = Math.min(lines.length, Math.max(from, h.newStart + h.newLines - 1), from + MAX_SNIPPET_LINES - 1);
    const rows: string[] = [];
    for (let n = from; n <= to; n++) rows.push(numbered(n, lines[n - 1] as string));
    parts.push(rows.length > 0 ? rows.join('\n') : '(the file is now empty)');
  }
  if (c.patch.hunks.length > 3) parts.push(`… and ${c.patch.hunks.length - 3} more changed places`);
  return parts.join('\n...\n');
}
