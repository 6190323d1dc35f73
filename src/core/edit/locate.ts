// Finding old_string in the text: exact first, then with the API's short tags restored, then through
// curly quotes. Every occurrence is returned, so uniqueness and replace_all see the same matches.
import { applyPairs, desanitize } from './desanitize.js';
import { normalizeQuotes } from './quotes.js';

export interface Match {
  readonly index: number;
  /** The file's own text at the match (differs from old_string only in quote style). */
  readonly actual: string;
}

export interface Located {
  readonly matches: readonly Match[];
  /** True when the match needed quote normalisation: new_string then takes the file's quote style. */
  readonly viaQuotes: boolean;
  /** old_string and new_string as they apply to this text (desanitised where that was needed). */
  readonly oldString: string;
  readonly newString: string;
}

export function locate(text: string, oldString: string, newString: string): Located | null {
  const exact = findAll(text, oldString);
  if (exact.length > 0) return { matches: exact, viaQuotes: false, oldString, newString };

  const d = desanitize(oldString);
  const restored = d.applied.length > 0 ? { old: d.result, new: applyPairs(newString, d.applied) } : null;
  if (restored) {
    const m = findAll(text, restored.old);
    if (m.length > 0) return { matches: m, viaQuotes: false, oldString: restored.old, newString: restored.new };
  }

  // Quote normalisation maps one code unit to one, so offsets in the normalised text are offsets here.
  const normalised = normalizeQuotes(text);
  for (const [o, n] of restored ? [[oldString, newString], [restored.old, restored.new]] : [[oldString, newString]]) {
    const positions = findAll(normalised, normalizeQuotes(o as string));
    if (positions.length > 0) {
      const matches = positions.map((m) => ({ index: m.index, actual: text.slice(m.index, m.index + (o as string).length) }));
      return { matches, viaQuotes: true, oldString: o as string, newString: n as string };
    }
  }
  return null;
}

/** Non-overlapping occurrences, left to right (what split() would cut at). */
export function findAll(text: string, search: string): Match[] {
  const out: Match[] = [];
  if (search === '') return out;
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) out.push({ index: i, actual: search });
  return out;
}
