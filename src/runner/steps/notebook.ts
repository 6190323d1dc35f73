// `notebook`: NotebookEditTool on one .ipynb file.
import { editNotebook, type NotebookEdit } from '../../core/index.js';
import { engineOptions, guardPath, readGuarded, reportError, type StepContext } from '../step-context.js';

export async function runNotebook(ctx: StepContext, step: { file: string } & NotebookEdit): Promise<void> {
  const path = guardPath(ctx, step.file);
  if (!path.ok) return reportError(ctx, step.file, path.error);
  const bytes = await readGuarded(ctx, path.value);
  if (!bytes.ok) return reportError(ctx, path.value, bytes.error);
  const { file: _file, ...edit } = step;
  const result = editNotebook({ path: path.value, bytes: bytes.value }, edit, engineOptions(ctx, path.value));
  if (!result.ok) return reportError(ctx, path.value, result.error);
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
}
