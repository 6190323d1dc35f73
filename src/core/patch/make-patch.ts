// Patches for reports and the terminal: hunks with 3 lines of context and added/removed line counts.
import type { FilePatch } from '../types.js';
import { CONTEXT_LINES } from '../limits.js';
import { changedSpan, type Change } from '../edit/regions.js';
import { diffComponents, type DiffLimits } from './components.js';
import { buildHunks } from './hunks.js';

/** The patch from oldText to newText (both LF). Only the span between common prefix and suffix is diffed. */
export function makePatch(oldText: string, newText: string): FilePatch {
  return patchFromChanges(oldText, changedSpan(oldText, newText));
}

/**
 * The patch when the caller knows what changed. jsdiff's own structuredPatch re-diffs the whole
 * file: about 260 ms for one changed line in 5 MB, and it gives up after its timeout when every
 * line changed; here only the changed lines are aligned (with jsdiff, under a timeout).
 */
export function patchFromChanges(oldText: string, changes: readonly Change[], limits?: DiffLimits): FilePatch {
  if (changes.length === 0) return { hunks: [], added: 0, removed: 0 };
  return buildHunks(oldText, diffComponents(oldText, changes, limits), CONTEXT_LINES);
}
