// Finding old_string in the text: exact first, then with the API's short tags restored, then through
// curly quotes. Every occurrence is returned, so uniqueness and replace_all see the same matches.
import { applyPairs, desanitize } from './desanitize.js';
import { findAllIn, textOf, type PieceText } from './piece-text.js';
import { normalizeQuotes } from './quotes.js';

export interface Match {
  readonly index: number;
  /** The file's own text at the match (differs from old_string only in quote style). */
  readonly actual: string;
}

export interface OldStringMatches {
  readonly matches: readonly Match[];
  /** True when the match needed quote normalisation: new_string then takes the file's quote style. */
  readonly viaQuotes: boolean;
  /** old_string and new_string as they apply to this text (desanitised where that was needed). */
  readonly oldString: string;
  readonly newString: string;
}

export function findOldString(t: PieceText, oldString: string, newString: string): OldStringMatches | null {
  const exact = findAllIn(t, oldString);
  if (exact.length > 0) return { matches: exact.map((index) => ({ index, actual: oldString })), viaQuotes: false, oldString, newString };

  const d = desanitize(oldString);
  const restored = d.applied.length > 0 ? { old: d.result, new: applyPairs(newString, d.applied) } : null;
  if (restored) {
    const m = findAllIn(t, restored.old);
    if (m.length > 0)
      return { matches: m.map((index) => ({ index, actual: restored.old })), viaQuotes: false, oldString: restored.old, newString: restored.new };
  }

  // Rare path: the whole text is needed. Quote normalisation maps one code unit to one, so offsets
  // in the normalised text are offsets in the text.
  const text = textOf(t);
  const normalised = normalizeQuotes(text);
  const tries: [string, string][] = restored
    ? [
        [oldString, newString],
        [restored.old, restored.new],
      ]
    : [[oldString, newString]];
  for (const [o, n] of tries) {
    const needle = normalizeQuotes(o);
    const matches: Match[] = [];
    for (let i = normalised.indexOf(needle); i !== -1; i = normalised.indexOf(needle, i + needle.length)) {
      matches.push({ index: i, actual: text.slice(i, i + o.length) });
    }
    if (matches.length > 0) return { matches, viaQuotes: true, oldString: o, newString: n };
  }
  return null;
}
