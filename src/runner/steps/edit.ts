// `edit`: FileEditTool edits on one file, in order, all or nothing, already-applied edits skipped.
import { applyEdits, type Edit } from '../../core/index.js';
import { engineOptions, guardPath, readGuarded, type StepContext } from '../step-context.js';
import { failed, NOTHING, type StepOutcome } from '../step-outcome.js';

export async function runEdit(ctx: StepContext, step: { file: string; edits: readonly Edit[] }): Promise<StepOutcome> {
  const path = guardPath(ctx, step.file);
  if (!path.ok) return failed(step.file, path.error);
  const bytes = await readGuarded(ctx, path.value);
  if (!bytes.ok) return failed(path.value, bytes.error);
  const result = applyEdits({ path: path.value, bytes: bytes.value }, step.edits, engineOptions(ctx, path.value, { skipAlreadyApplied: true }));
  if (!result.ok) return failed(path.value, result.error);
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
  return result.value.skipped.length > 0 ? { errors: [], skipped: [{ file: path.value, reason: 'already-applied' }] } : NOTHING;
}
