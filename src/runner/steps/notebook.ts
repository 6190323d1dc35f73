// `notebook`: NotebookEditTool on one .ipynb file.
import { editNotebook, type NotebookEdit } from '../../core/index.js';
import { engineOptions, guardPath, readGuarded, type StepContext } from '../step-context.js';
import { failed, NOTHING, type StepOutcome } from '../step-outcome.js';

export async function runNotebook(ctx: StepContext, step: { file: string } & NotebookEdit): Promise<StepOutcome> {
  const path = guardPath(ctx, step.file);
  if (!path.ok) return failed(step.file, path.error);
  const bytes = await readGuarded(ctx, path.value);
  if (!bytes.ok) return failed(path.value, bytes.error);
  const { file: _file, ...edit } = step;
  const result = editNotebook({ path: path.value, bytes: bytes.value }, edit, engineOptions(ctx, path.value));
  if (!result.ok) return failed(path.value, result.error);
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
  return NOTHING;
}
