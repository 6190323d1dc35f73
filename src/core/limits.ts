// Fixed numbers of the edit engine, named once.

/** Files above this size are refused before decoding: V8 strings top out near 2^30 code units. */
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;

/** Lines of context around each hunk, as in the seed's patches. */
export const CONTEXT_LINES = 3;

/** How long one line diff may run before it gives up and reports the region as replaced wholesale. */
export const DIFF_TIMEOUT_MS = 5_000;

/** Line endings are decided by a majority vote over this many leading code units, as the seed does. */
export const LINE_ENDING_SAMPLE = 4096;
