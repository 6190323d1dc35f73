// `write`: FileWriteTool. The content exactly as given (LF), the file's encoding kept.
import { writeContent } from '../../core/index.js';
import { engineOptions, guardPath, readGuarded, type StepContext } from '../step-context.js';
import { failed, NOTHING, type StepOutcome } from '../step-outcome.js';

export async function runWrite(ctx: StepContext, step: { file: string; content: string }): Promise<StepOutcome> {
  const path = guardPath(ctx, step.file);
  if (!path.ok) return failed(step.file, path.error);
  const bytes = await readGuarded(ctx, path.value);
  if (!bytes.ok) return failed(path.value, bytes.error);
  const result = writeContent({ path: path.value, bytes: bytes.value }, step.content, engineOptions(ctx, path.value));
  if (!result.ok) return failed(path.value, result.error);
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
  return NOTHING;
}
