// Counts in words, said the same way in every message and report: "1 file", "3 files", "1,024 files".

/**
 * A count with en-US thousands separators. Whole numbers are grouped here, the same digits as
 * toLocaleString('en-US'), which would load ICU's number formatting (~12 ms) at the first count
 * a run prints; anything else goes to it.
 */
export function num(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n.toLocaleString('en-US');
}

/** The count and the word in the number it asks for: plural(1, 'file') is "1 file", plural(2, 'branch', 'branches') "2 branches". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${num(n)} ${pluralWord(n, word, many)}`;
}

/** The word alone, for text that prints the count itself or not at all ("the matches are on lines 3, 9"). */
export function pluralWord(n: number, word: string, many = `${word}s`): string {
  return n === 1 ? word : many;
}
