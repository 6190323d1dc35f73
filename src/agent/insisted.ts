// When a model insists. The first edit a guard refuses is a lesson: the model is told why and may
// go on to fix the code honestly (the refusal is still listed in the report). A second refused edit
// in the same conversation means it keeps reaching for the tests or the checks instead of the code:
// the conversation fails with kind `guard`, whatever it did besides, so the job ends `failed` for a
// person to look at — a nightly job must never merge a change whose tests passed because the model
// was working on them. Its other edits stay on the branch for that review (nothing is rolled back).
import { failure, type Failure } from '../errors.js';
import type { Conversation } from './conversation.js';

/** Refused edits in one conversation that fail it. */
export const INSIST_AFTER = 2;

export function insisted(c: Conversation): Failure | null {
  const refusals = c.init.tools.guardRefusals;
  if (refusals.length < INSIST_AFTER) return null;
  const counts = new Map<string, number>();
  for (const r of refusals) {
    const key = `${r.guard} on ${r.file}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const listed = [...counts].map(([k, n]) => (n > 1 ? `${k} (${n} times)` : k)).join(', ');
  const about = c.file ?? 'the job';
  return failure(
    'guard',
    `The model kept making edits the guards refuse while working on ${about}: ${refusals.length} refused (${listed}). ` +
      "Nothing it was refused was written; its other edits are kept for review. The job's refusals list each attempt.",
    { refusals: refusals.length, guards: [...new Set(refusals.map((r) => r.guard))], ...(c.file === null ? {} : { file: c.file }) },
  );
}
