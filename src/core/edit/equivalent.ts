// Duplicate edit requests (retries) are recognised by effect, not only by their literal input.
import type { Edit } from '../types.js';
import { applyEditSequence } from './apply-sequence.js';
import { applyChanges, toChanges } from './regions.js';

export function editsEquivalent(a: readonly Edit[], b: readonly Edit[], content: string): boolean {
  if (a.length === b.length && a.every((e, i) => sameEdit(e, b[i] as Edit))) return true;
  // Different words, maybe the same change: apply both and compare. An edit set that cannot be
  // applied is equivalent to nothing, so the duplicate is not silently dropped.
  const ra = applyEditSequence(content, a, { path: '', skipAlreadyApplied: false });
  const rb = applyEditSequence(content, b, { path: '', skipAlreadyApplied: false });
  return ra.ok && rb.ok && applyChanges(content, toChanges(ra.value.regions)) === applyChanges(content, toChanges(rb.value.regions));
}

function sameEdit(x: Edit, y: Edit): boolean {
  return x.old_string === y.old_string && x.new_string === y.new_string && (x.replace_all ?? false) === (y.replace_all ?? false);
}
