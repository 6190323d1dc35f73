// A step is `{ <kind>: payload }`: its single key names it.
import type { Step } from './schema.js';
import { STEP_KINDS, type StepKind } from './schema-steps.js';

/** The member of the Step union whose key is K, e.g. StepOf<'edit'> = { edit: {...} }. */
export type StepOf<K extends StepKind> = Extract<Step, Record<K, unknown>>;

/** The kind of a parsed step: its one key. */
export function stepKind(step: Step): StepKind {
  const kind = STEP_KINDS.find((k) => k in step);
  // Unreachable for a parsed step; a hand-built one without a kind is a bug in the caller.
  if (!kind) throw new Error(`not a recipe step: ${JSON.stringify(Object.keys(step))}`);
  return kind;
}
