// SCION_SCAN_WORKERS: how many worker threads a whole-tree scan (a `replace` or structural step over
// every file) uses to inflate and test blobs ahead of the step. Unset: two when two cores are idle,
// none otherwise (the git layer's own choice). A machine with cores to spare and nothing else running
// can ask for more; a shared CI runner can ask for none.
import { usageError } from '../errors.js';

/** The most a run may ask for: past a handful, threads only contend for the one pack they all read. */
export const MAX_SCAN_WORKERS = 8;

/** The worker count SCION_SCAN_WORKERS asks for; undefined when it is unset; a usage error for anything but 0–8. */
export function scanWorkersFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env['SCION_SCAN_WORKERS']?.trim();
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 0 && n <= MAX_SCAN_WORKERS)) {
    throw usageError(
      `SCION_SCAN_WORKERS is "${raw}"; give a whole number from 0 to ${MAX_SCAN_WORKERS} (the worker threads a whole-tree scan uses), or unset it.`,
    );
  }
  return n;
}
