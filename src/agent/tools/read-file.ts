// read_file: the file in cat -n form, and the conversation's read state updated to what was shown.
import { decodeText } from '../../core/index.js';
import { failure, type Failure } from '../../errors.js';
import { catN } from './cat-n.js';
import { refusal, reply, type ToolContext, type ToolReply } from './context.js';
import { guardAdvice } from './advice.js';
import { resolvePath } from './paths.js';
import type { ToolInput } from './schemas.js';

export async function readFile(ctx: ToolContext, input: ToolInput<'read_file'>): Promise<ToolReply> {
  const resolved = resolvePath(ctx.files, input.file_path);
  if (!resolved.ok) return refuse(ctx, input.file_path, resolved.error, guardAdvice);
  const path = resolved.value;
  const bytes = await ctx.files.read(path);
  if (bytes === null) {
    const similar = ctx.files.engineOptions(path).suggestPaths?.(path) ?? [];
    const hint = similar.length > 0 ? ` Did you mean ${similar.join(', ')}?` : '';
    return refuse(
      ctx,
      path,
      failure('file-missing', `${path} does not exist.${hint}`, { path }),
      'Use glob to list the files of this job; write_file creates a new file.',
    );
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return refuse(ctx, path, { ...decoded.error, message: `${path}: ${decoded.error.message}` }, 'Leave this file alone.');
  const view = catN(decoded.value.text, Math.max(1, input.offset ?? 1), input.limit);
  ctx.reads.markRead(path, decoded.value.text, !view.whole);
  return reply(view.text);
}

function refuse(ctx: ToolContext, path: string, f: Failure, advice: string): ToolReply {
  ctx.refused('read_file', path, f);
  return refusal(f, advice);
}
