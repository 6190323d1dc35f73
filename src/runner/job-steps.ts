// The steps of a job, in order, each under its limit and all or nothing: what they found comes back
// as values, stamped with the step's index; a failed step is undone whole when onError says stop,
// and a step cut by its timeout or an interrupt is undone whatever onError says.
import { failure, type Failure } from '../errors.js';
import { stepKind, type Step } from '../recipe/index.js';
import type { ErrorReport, EstimateReport, RefusalReport, SkipReport, StepReport } from '../model/types.js';
import type { Changes } from '../workspace/types.js';
import type { JobContext } from './job-context.js';
import { errorReport, estimateReport, refusalReport, skipReport, type StepOutcome } from './step-outcome.js';
import { runStep, stepLabel, stepLimitMs } from './steps/index.js';
import { plural } from '../util/plural.js';

export interface StepsResult {
  readonly errors: readonly ErrorReport[];
  readonly skipped: readonly SkipReport[];
  readonly steps: readonly StepReport[];
  /** A step failed with onError: stop, or the run was interrupted during one: no verify, no more steps. */
  readonly stopped: boolean;
  /** The last step begun (the one an interrupt caught). */
  readonly reached: number;
  /** Matches of the kept structural steps per file (for the report's file entries). */
  readonly matches: ReadonlyMap<string, number>;
  /** Model edits the guards refused, stamped with their step. */
  readonly refusals: readonly RefusalReport[];
  /** In a plan: the model conversations the steps did not start, estimated. */
  readonly estimates: readonly EstimateReport[];
}

export async function runSteps(jc: JobContext): Promise<StepsResult> {
  const { recipe, ws, id } = jc;
  const errors: ErrorReport[] = [];
  const skipped: SkipReport[] = [];
  const steps: StepReport[] = [];
  const matches = new Map<string, number>();
  const refusals: RefusalReport[] = [];
  const estimates: EstimateReport[] = [];
  let reached = 0;
  for (const [index, step] of recipe.steps.entries()) {
    reached = index;
    if (jc.interrupted()) break;
    const label = stepLabel(step);
    jc.emit({ type: 'step-start', job: id, step: index, label });
    const undo = await ws.snapshot();
    const before = new Map(ws.changes());
    const ran = await jc.bounded(label, stepLimitMs(step), (c) => runStep(c, step));
    // A stopped step's own findings go with it: it is undone whole. What the guards refused stays listed.
    const found: StepOutcome =
      ran.ended === 'done' ? ran.value : { errors: [{ file: null, failure: ran.failure }], skipped: [], refusals: ran.late?.value.refusals ?? [] };
    refusals.push(...(found.refusals ?? []).map((r) => refusalReport(index, r)));
    if (found.estimate) estimates.push(estimateReport(index, found.estimate));
    const count = {
      changed: changedBetween(before, ws.changes()),
      alreadyApplied: new Set(found.skipped.filter((k) => k.reason === 'already-applied').map((k) => k.file)).size,
      found: found.found ?? 0,
    };
    const countOnly = found.found !== undefined;
    const foundIn = countOnly ? [...(found.matches?.keys() ?? [])] : null;
    const missed = ran.ended === 'done' && found.errors.length === 0 ? expectationMiss(step, label, count, foundIn) : null;
    const own = missed ? [{ file: null, failure: missed }] : found.errors;
    errors.push(...own.map((p) => errorReport(index, p)));
    skipped.push(...found.skipped.map((s) => skipReport(index, s)));
    const failed = own.length > 0;
    const cut = ran.ended !== 'done' || own.some((p) => p.failure.kind === 'timeout');
    const undone = failed && (recipe.onError === 'stop' || cut);
    if (undone) await undo();
    const matched = undone ? 0 : [...(found.matches?.values() ?? [])].reduce((a, b) => a + b, 0);
    if (!undone) for (const [path, n] of found.matches ?? []) matches.set(path, (matches.get(path) ?? 0) + n);
    // A step a plan only estimated did not run: it is not reported as a step that changed nothing.
    const estimatedOnly = (found.estimate ?? null) !== null && count.changed === 0;
    if (!estimatedOnly) {
      steps.push({
        step: index,
        kind: stepKind(step),
        changed: undone ? 0 : count.changed,
        alreadyApplied: undone ? 0 : count.alreadyApplied,
        ...(found.matches !== undefined ? { matches: matched } : {}),
        ...(countOnly ? { found: undone ? 0 : count.found } : {}),
      });
    }
    jc.emit({ type: 'step-end', job: id, step: index, files: ws.changes().size, errors: own.length });
    if ((failed && recipe.onError === 'stop') || ran.ended === 'interrupted')
      return { errors, skipped, steps, stopped: true, reached, matches, refusals, estimates };
  }
  return { errors, skipped, steps, stopped: false, reached, matches, refusals, estimates };
}

/** Paths whose state (content, mode, presence) differs between two views of a job's changes. */
function changedBetween(before: Changes, after: Changes): number {
  let n = 0;
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(path);
    const b = after.get(path);
    if (a === b) continue;
    const same = a !== undefined && b !== undefined && a !== null && b !== null && a.mode === b.mode && Buffer.from(a.bytes).equals(b.bytes);
    if (!same) n++;
  }
  return n;
}

/**
 * `expect`: files changed plus those found already applied (and, for a structural step without a
 * fix, the files it found matching, `foundIn`) must lie in [min, max]. A guard that finds too many
 * names the first files it found, so the message says where to look.
 */
function expectationMiss(
  step: Step,
  label: string,
  c: { changed: number; alreadyApplied: number; found: number },
  foundIn: readonly string[] | null,
): Failure | null {
  const e = step.expect;
  if (!e) return null;
  const n = c.changed + c.alreadyApplied + c.found;
  if ((e.min === undefined || n >= e.min) && (e.max === undefined || n <= e.max)) return null;
  const range = e.min !== undefined && e.max !== undefined ? `${e.min} to ${e.max}` : e.min !== undefined ? `at least ${e.min}` : `at most ${e.max}`;
  const applied = c.alreadyApplied > 0 ? ` and found ${c.alreadyApplied} already applied` : '';
  const what = foundIn !== null ? `found matches in ${filesNamed(c.found, foundIn)}` : `changed ${plural(c.changed, 'file')}${applied}`;
  return failure(
    'expectation',
    `The step ${label} ${what}; its expect wants ${range}.`,
    {
      changed: c.changed,
      alreadyApplied: c.alreadyApplied,
      ...(foundIn !== null ? { found: c.found } : {}),
      ...(e.min === undefined ? {} : { min: e.min }),
      ...(e.max === undefined ? {} : { max: e.max }),
    },
    foundIn !== null ? GUARD_HINT : undefined,
  );
}

const GUARD_HINT =
  'The rule without a fix found more or fewer files than its `expect` allows: change the files it names (by hand or with a rule that fixes them), or its rule.';

/** "2 files (a.ts, b.ts)", "7 files (a.ts, b.ts, c.ts and 4 more)", "0 files". */
function filesNamed(n: number, paths: readonly string[]): string {
  const head = [...paths].sort().slice(0, 3);
  const more = n - head.length;
  const list = head.length === 0 ? '' : ` (${head.join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
  return `${plural(n, 'file')}${list}`;
}
