// How much a campaign's clone may bring: isomorphic-git holds a clone's whole pack in memory (and
// about three times that while indexing it: a 3 GB answer took a run to 9.7 GB), so the bytes one
// clone or fetch may receive are capped. SCION_CLONE_MAX_BYTES sets the cap (`2G`, `500M`, bytes).
import { usageError } from '../errors.js';

/** 512 MiB: the pack of a depth-1 clone of the Linux kernel fits, with room for the memory it takes to index. */
export const DEFAULT_CLONE_MAX_BYTES = 512 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/** The cap from SCION_CLONE_MAX_BYTES (K, M, G, T are powers of 1024), else the default; a usage error for anything else. */
export function cloneLimit(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['SCION_CLONE_MAX_BYTES']?.trim();
  if (raw === undefined || raw === '') return DEFAULT_CLONE_MAX_BYTES;
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?$/i.exec(raw);
  const bytes = m ? Math.floor(Number(m[1]) * UNITS[m[2]!.toUpperCase()]!) : NaN;
  if (!Number.isFinite(bytes) || bytes <= 0) {
    throw usageError(`SCION_CLONE_MAX_BYTES is "${raw}"; give the most a clone may download, in bytes or with K, M or G (e.g. SCION_CLONE_MAX_BYTES=2G).`);
  }
  return bytes;
}

/** `512 MiB`, `1.5 GiB`, `900 bytes`: a limit as a person reads it. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['TiB', 1024 ** 4],
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  }
  return `${n} bytes`;
}
