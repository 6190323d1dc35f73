// Counts in words, said the same way in every message and report: "1 file", "3 files", "1,024 files".

/** A count with en-US thousands separators. */
export function num(n: number): string {
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
