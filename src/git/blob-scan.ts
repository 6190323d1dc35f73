// Many blobs tested with one probe (blob-probe.ts), as `git grep` reads a tree: on worker threads
// ahead of the caller, each batch in pack order (one read window and a small delta-base cache then
// serve it), and only the blobs the probe wants come back (transferred, not copied); the rest are
// dropped in the worker as soon as they are tested. Answers come in the caller's order. A few
// blobs are read on the main thread: starting workers would cost more.
//
// The main thread stays the one reader whose errors a caller sees: an object a worker could not
// read (loose, a base in another pack, a pack `git repack -d` removed, damaged bytes) is read again
// here, through ObjectStore, and fails or succeeds exactly as a plain read would.
import type { BlobProbe } from './blob-probe.js';
import { blobScan, planScan, readHere, scanWorkers, type ScannedBlob } from './blob-scan-plan.js';
import { ScanPool } from './blob-scan-pool.js';
import type { Repo } from './repo.js';

export { blobScan, type ScannedBlob } from './blob-scan-plan.js';

/**
 * The blobs `oids` (in this order, repeats allowed) tested with `probe`. Throws what reading the blob
 * throws (`missing-object`, `corrupt`, …) when the caller reaches that blob, and `environment` when a
 * worker thread dies. Ends early, its workers terminated, when `signal` fires or the caller stops.
 */
export async function* scanBlobs(repo: Repo, oids: readonly string[], probe: BlobProbe, signal?: AbortSignal): AsyncGenerator<ScannedBlob, void, undefined> {
  const workers = scanWorkers();
  if (workers < 1 || new Set(oids).size < blobScan.minBlobs) {
    for (const oid of oids) {
      if (signal?.aborted) return;
      yield readHere(repo, oid, probe);
    }
    return;
  }
  const pool = new ScanPool(repo, probe, signal, workers);
  try {
    const plan = planScan(oids);
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
