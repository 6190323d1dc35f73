// The verify commands of a job, after its steps: each under the verify time limit, the
// first that fails ends the phase with its diagnostics. A command stopped by its limit or an
// interrupt keeps no fix edit.
import type { Diagnostic } from '../model/diagnostic.js';
import type { ErrorReport } from '../model/types.js';
import type { JobContext } from './job-context.js';
import { VERIFY_TIMEOUT_SECONDS } from './step-bounds.js';
import { errorReport } from './step-outcome.js';
import { runVerify } from './verify-fix.js';

export interface VerifyPhase {
  readonly errors: readonly ErrorReport[];
  /** Of the command that failed. */
  readonly diagnostics: readonly Diagnostic[];
  /** The last command begun (its index counts on after the steps), or null when none was. */
  readonly reached: number | null;
}

export async function runVerifyPhase(jc: JobContext): Promise<VerifyPhase> {
  const { recipe, ws, id } = jc;
  let reached: number | null = null;
  for (const [k, v] of recipe.verify.entries()) {
    const index = recipe.steps.length + k;
    reached = index;
    if (jc.interrupted()) break;
    const label = `verify ${v.run}`;
    jc.emit({ type: 'step-start', job: id, step: index, label });
    const undo = await ws.snapshot();
    // Each run of the command, and each fix round, gets the verify time limit.
    const limit = VERIFY_TIMEOUT_SECONDS * 1000 * (1 + 2 * (v.fix?.agent.maxRounds ?? 0));
    const ran = await jc.bounded(label, limit, (c) => runVerify(c, v, { cache: jc.stepCache, baseTree: jc.baseTree, baseState: jc.baseState }));
    if (ran.ended !== 'done') await undo();
    const verified = ran.ended === 'done' ? ran.value : ran.late?.value;
    const errors = ran.ended === 'done' ? ran.value.errors.map((p) => errorReport(index, p)) : [errorReport(index, { file: null, failure: ran.failure })];
    jc.emit({ type: 'step-end', job: id, step: index, files: 0, errors: errors.length });
    if (errors.length > 0) return { errors, diagnostics: verified?.diagnostics ?? [], reached };
  }
  return { errors: [], diagnostics: [], reached };
}
