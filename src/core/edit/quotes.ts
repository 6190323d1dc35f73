// Curly quotes: match through them, and keep the file's typographic style in what is written.

const LEFT_DOUBLE = '\u201C';
const RIGHT_DOUBLE = '\u201D';
const LEFT_SINGLE = '\u2018';
const RIGHT_SINGLE = '\u2019';

/** Curly quotes to straight ones. One code unit for one, so offsets line up with the original. */
export function normalizeQuotes(s: string): string {
  return s.replace(/[\u2018\u2019\u201C\u201D]/g, (q) => (q === LEFT_SINGLE || q === RIGHT_SINGLE ? "'" : '"'));
}

/** Exact match first; failing that, the file's text at the first quote-normalised match. */
export function findActualString(content: string, search: string): string | null {
  if (content.includes(search)) return search;
  const at = normalizeQuotes(content).indexOf(normalizeQuotes(search));
  return at === -1 ? null : content.slice(at, at + search.length);
}

/**
 * When old_string matched only after quote normalisation, the file uses curly quotes there; write
 * new_string's straight quotes curly as well, so the edit does not mix styles.
 */
export function preserveQuoteStyle(oldString: string, actualOldString: string, newString: string): string {
  if (oldString === actualOldString) return newString;
  const doubles = actualOldString.includes(LEFT_DOUBLE) || actualOldString.includes(RIGHT_DOUBLE);
  const singles = actualOldString.includes(LEFT_SINGLE) || actualOldString.includes(RIGHT_SINGLE);
  if (!doubles && !singles) return newString;
  const chars = [...newString];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '"' && doubles) out += isOpening(chars[i - 1]) ? LEFT_DOUBLE : RIGHT_DOUBLE;
    else if (c === "'" && singles) {
      // An apostrophe inside a word (don't, it's) is typeset as a right single quote.
      if (isLetter(chars[i - 1]) && isLetter(chars[i + 1])) out += RIGHT_SINGLE;
      else out += isOpening(chars[i - 1]) ? LEFT_SINGLE : RIGHT_SINGLE;
    } else out += c;
  }
  return out;
}

function isOpening(prev: string | undefined): boolean {
  return prev === undefined || /[\s([{\u2014\u2013-]/u.test(prev);
}

function isLetter(c: string | undefined): boolean {
  return c !== undefined && /\p{L}/u.test(c);
}
