// `edit`: FileEditTool edits on one file, in order, all or nothing, already-applied edits skipped.
import { applyEdits, type Edit } from '../../core/index.js';
import { engineOptions, guardPath, readGuarded, reportError, type StepContext } from '../step-context.js';

export async function runEdit(ctx: StepContext, step: { file: string; edits: readonly Edit[] }): Promise<void> {
  const path = guardPath(ctx, step.file);
  if (!path.ok) return reportError(ctx, step.file, path.error);
  const bytes = await readGuarded(ctx, path.value);
  if (!bytes.ok) return reportError(ctx, path.value, bytes.error);
  const result = applyEdits({ path: path.value, bytes: bytes.value }, step.edits, engineOptions(ctx, path.value, { skipAlreadyApplied: true }));
  if (!result.ok) return reportError(ctx, path.value, result.error);
  if (result.value.skipped.length > 0) ctx.skipped.push({ step: ctx.index, file: path.value, reason: 'already-applied' });
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
}
