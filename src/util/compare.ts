// String order by UTF-16 code units, what JavaScript's `<` compares: the same on every machine and in
// every locale (localeCompare is neither), for reports, cache keys and listings. Git's own path order
// is UTF-8 bytes, which differs where a surrogate pair meets U+E000..U+FFFF: that is git/paths.ts.

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
