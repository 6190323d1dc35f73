// How the git layer reads objects: which packs and indexes are read whole, the read-ahead window of
// the others, and how a blob scan uses worker threads. Defaults are below; a repository takes other
// values where it is opened (openRepo's `packs` and `scan`), a scan where it starts (scanBlobs'
// options). The benchmark and tests use them; nothing reads them from a global.
import type { Worker } from 'node:worker_threads';

export interface PackReading {
  /**
   * Packs up to this many bytes are read into memory whole (one read, then slices); larger ones stay
   * on disk and each object's compressed bytes are read at its offset. Memory then follows what is
   * read and the delta-base cache, not the size of the repository.
   */
  readonly wholePackLimit: number;
  /**
   * The read-ahead window of a pack read at offsets (64 KB: on babel/babel a tree listing, whose
   * objects lie among blobs, read 15 MB through it where 256 KB windows read 36 MB; a scan in pack
   * order uses most of what either reads).
   */
  readonly readAhead: number;
  /** Pack indexes up to this many bytes are read whole; larger ones in pieces, as lookups need them. */
  readonly wholeIndexLimit: number;
}

export const PACK_READING: PackReading = Object.freeze({ wholePackLimit: 16 * 1024 * 1024, readAhead: 64 * 1024, wholeIndexLimit: 1024 * 1024 });

export interface BlobScanSettings {
  /** Worker threads (0: everything on the main thread); null: two when two cores are idle, else none (see `scanWorkers`). */
  readonly workers: number | null;
  /**
   * Below this many distinct blobs the main thread reads them all: a worker takes ~40 ms of a core
   * to start and more to warm up, and the main thread reads ~60 blobs a millisecond meanwhile.
   */
  readonly minBlobs: number;
  /** Objects in one message to a worker. */
  readonly batch: number;
  /** Batches sent to a worker and not yet answered. */
  readonly depth: number;
  /** Each worker's delta-base cache (in pack order a delta's base is near: a small one serves). */
  readonly cacheBytes: number;
  /**
   * Each worker's young generation, in MB. Blobs dropped after their test are freed only when a
   * garbage collection runs, and small JS objects alone fill a large young generation slowly: a
   * small one collects often and keeps fewer dead blobs (on babel/babel, 12 MB less at the peak).
   */
  readonly youngGenerationMb: number;
  /** Bytes of wanted blobs answered but not yet taken by the caller: past it, no batch is sent ahead. */
  readonly maxHeldBytes: number;
  /** Called with each worker started (tests end one to see what the scan does then). */
  readonly onWorker: ((w: Worker) => void) | null;
  /** Hears why a scan stopped using its worker threads (one died, or none could start) and read the rest on the main thread. */
  readonly onWorkersDropped: ((why: string) => void) | null;
}

export const BLOB_SCAN: BlobScanSettings = Object.freeze({
  workers: null,
  minBlobs: 4000,
  batch: 128,
  depth: 4,
  cacheBytes: 8 * 1024 * 1024,
  youngGenerationMb: 2,
  maxHeldBytes: 32 * 1024 * 1024,
  onWorker: null,
  onWorkersDropped: null,
});
