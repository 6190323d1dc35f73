// The verify commands of a job, after its steps: each under the verify time limit, the
// first that fails ends the phase with its diagnostics. A command stopped by its limit or an
// interrupt keeps no fix edit.
import type { Diagnostic } from '../model/diagnostic.js';
import type { ErrorReport, EstimateReport, RefusalReport } from '../model/types.js';
import type { JobContext } from './job-context.js';
import { VERIFY_TIMEOUT_SECONDS } from './step-bounds.js';
import { errorReport, estimateReport, refusalReport } from './step-outcome.js';
import { estimateUnrunFix, runVerify } from './verify-fix.js';

export interface VerifyPhase {
  readonly errors: readonly ErrorReport[];
  /** Of the command that failed. */
  readonly diagnostics: readonly Diagnostic[];
  /** The last command begun (its index counts on after the steps), or null when none was. */
  readonly reached: number | null;
  /** Fix rounds' edits the guards refused. */
  readonly refusals: readonly RefusalReport[];
  /** In a plan: the fix rounds, estimated. */
  readonly estimates: readonly EstimateReport[];
}

export async function runVerifyPhase(jc: JobContext): Promise<VerifyPhase> {
  const { recipe, ws, id } = jc;
  let reached: number | null = null;
  const refusals: RefusalReport[] = [];
  const estimates: EstimateReport[] = [];
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
    refusals.push(...(verified?.refusals ?? []).map((r) => refusalReport(index, r)));
    if (verified?.estimate) estimates.push(estimateReport(index, verified.estimate));
    const errors = ran.ended === 'done' ? ran.value.errors.map((p) => errorReport(index, p)) : [errorReport(index, { file: null, failure: ran.failure })];
    // The job's changed files so far, as after each step: verify's fix rounds may add to them.
    jc.emit({ type: 'step-end', job: id, step: index, files: ws.changes().size, errors: errors.length });
    if (errors.length > 0) return { errors, diagnostics: verified?.diagnostics ?? [], reached, refusals, estimates };
  }
  return { errors: [], diagnostics: [], reached, refusals, estimates };
}

/**
 * A plan whose agent steps were estimated, not run: verify would check code that was never written,
 * so it is not run; the fix rounds of each command that has them are estimated instead.
 */
export async function estimateVerifyPhase(jc: JobContext): Promise<VerifyPhase> {
  const estimates: EstimateReport[] = [];
  for (const [k, v] of jc.recipe.verify.entries()) {
    const index = jc.recipe.steps.length + k;
    const ran = await jc.bounded(`verify ${v.run}`, null, (c) => estimateUnrunFix(c, v));
    if (ran.ended === 'done' && ran.value) estimates.push(estimateReport(index, ran.value));
  }
  return { errors: [], diagnostics: [], reached: null, refusals: [], estimates };
}
