// Many blobs tested with one probe (blob-probe.ts), as `git grep` reads a tree: on worker threads
// ahead of the caller, each batch in pack order (one read window and a small delta-base cache then
// serve it), and only the blobs the probe wants come back (transferred, not copied); the rest are
// dropped in the worker as soon as they are tested. Answers come in the caller's order. A few
// blobs are read on the main thread: starting workers would cost more.
//
// The main thread stays the one reader whose errors a caller sees: an object a worker could not
// read (loose, a base in another pack, a pack `git repack -d` removed, damaged bytes) is read again
// here, through ObjectStore, and fails or succeeds exactly as a plain read would. A worker that
// dies costs only speed: the main thread reads the rest of the scan.
import type { BlobProbe } from './blob-probe.js';
import { planScan, readHere, scanWorkers, type ScannedBlob } from './blob-scan-plan.js';
import { ScanPool } from './blob-scan-pool.js';
import { BLOB_SCAN, type BlobScanSettings } from './read-settings.js';
import { repoState, type Repo } from './repo.js';

export type { ScannedBlob } from './blob-scan-plan.js';

/** A scan's options: the signal that ends it, and settings over the repository's (openRepo's `scan`). */
export interface ScanBlobsOptions extends Partial<BlobScanSettings> {
  readonly signal?: AbortSignal;
}

/**
 * The blobs `oids` (in this order, repeats allowed) tested with `probe`. Throws what reading the blob
 * throws (`missing-object`, `corrupt`, …) when the caller reaches that blob; a worker thread that
 * dies only slows it down. Ends early, its workers terminated, when `signal` fires or the caller stops.
 */
export async function* scanBlobs(
  repo: Repo,
  oids: readonly string[],
  probe: BlobProbe,
  opts: ScanBlobsOptions = {},
): AsyncGenerator<ScannedBlob, void, undefined> {
  const { signal, ...own } = opts;
  const settings: BlobScanSettings = { ...BLOB_SCAN, ...repoState(repo).scan, ...own };
  const workers = scanWorkers(settings);
  if (workers < 1 || new Set(oids).size < settings.minBlobs) {
    for (const oid of oids) {
      if (signal?.aborted) return;
      yield readHere(repo, oid, probe);
    }
    return;
  }
  const pool = new ScanPool(repo, probe, signal, workers, settings);
  try {
    const plan = planScan(oids, settings.batch);
    pool.run(plan);
    for (let i = 0; i < oids.length; i++) {
      const got = await pool.answer(plan.slotOf[i] as number);
      if (got === null) return;
      yield got;
    }
  } finally {
    await pool.close();
  }
}
