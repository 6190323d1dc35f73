// `--sample N`: N jobs spread evenly over a list (the middle of each of N equal stretches), so a
// recipe is tuned on a slice that looks like the whole before the sweep. No randomness: the same list
// gives the same sample every time, and the full run that follows reuses it through the caches.

/** Indexes of `n` items spread evenly over `total` (all of them when n >= total), ascending. */
export function sampleIndices(total: number, n: number): number[] {
  if (n >= total) return Array.from({ length: total }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.floor(((2 * i + 1) * total) / (2 * n)));
}

export function sampleOf<T>(items: readonly T[], n: number): T[] {
  return sampleIndices(items.length, n).map((i) => items[i] as T);
}

/**
 * How many of `n` sampled jobs each of `count` repositories gets: the same share each, the rest spread
 * evenly over the list (one each to repositories picked as `sampleIndices` picks).
 */
export function sharesOver(count: number, n: number): number[] {
  const base = Math.floor(n / count);
  const shares = Array.from({ length: count }, () => base);
  for (const i of sampleIndices(count, n % count)) shares[i] = (shares[i] ?? 0) + 1;
  return shares;
}
