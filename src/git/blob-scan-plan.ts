// What a blob scan (blob-scan.ts) works from: the distinct blobs in the caller's order, cut into
// batches for the workers (each finds a batch's blobs in the packs and reads them in pack order; a
// tree's blobs lie in the pack about in path order, so neighbours in the caller's order are near).
import { availableParallelism, loadavg } from 'node:os';
import { readBlobSync } from './blob.js';
import { probeBlob, type BlobProbe } from './blob-probe.js';
import type { BlobScanSettings } from './read-settings.js';
import type { Repo } from './repo.js';

/** One blob's answer: its bytes when the probe wanted it, else null; and git's binary test. */
export interface ScannedBlob {
  readonly bytes: Buffer | null;
  readonly binary: boolean;
}

/**
 * Workers for a scan: two when the machine has two idle cores (its cores less the one-minute load
 * average), else none. On a busy machine threads only share the time the process already had, and
 * each adds its start and its own warm-up (on babel/babel under a load of 6 on 2 cores, a scan took
 * 1.0 s with two workers and 0.48 s without). One worker alone only moves the scan off the main
 * thread, which waits for it: on babel/babel it took as long as the main thread alone and the
 * process's peak memory went from ~195 MB to ~240 MB (the worker's heap and cache, the index
 * copied whole into shared memory).
 */
export function scanWorkers(settings: BlobScanSettings): number {
  if (settings.workers !== null) return settings.workers;
  const idle = Math.floor(availableParallelism() - (loadavg()[0] ?? 0));
  return idle >= 2 ? 2 : 0;
}

/** A blob read and tested on the main thread, through the store (and its errors). */
export function readHere(repo: Repo, oid: string, probe: BlobProbe): ScannedBlob {
  const bytes = readBlobSync(repo, oid);
  const found = probeBlob(bytes, probe);
  return { bytes: found.match ? bytes : null, binary: found.binary };
}

export interface Batch {
  readonly slots: readonly number[];
  readonly oids: readonly string[];
  sent: boolean;
}

export interface Plan {
  /** Caller's position → slot (one per distinct oid). */
  readonly slotOf: Int32Array;
  /** Slot → oid. */
  readonly slotOids: readonly string[];
  readonly batches: readonly Batch[];
  /** Slot → its batch. */
  readonly batchOf: Int32Array;
}

/** Distinct oids, in the order of their first use, cut into batches of `batch`. */
export function planScan(oids: readonly string[], batch: number): Plan {
  const slotByOid = new Map<string, number>();
  const slotOf = new Int32Array(oids.length);
  const slotOids: string[] = [];
  for (const [i, oid] of oids.entries()) {
    let slot = slotByOid.get(oid);
    if (slot === undefined) {
      slot = slotOids.length;
      slotByOid.set(oid, slot);
      slotOids.push(oid);
    }
    slotOf[i] = slot;
  }
  const batches: Batch[] = [];
  const batchOf = new Int32Array(slotOids.length);
  for (let from = 0; from < slotOids.length; from += batch) {
    const slots: number[] = [];
    for (let slot = from; slot < Math.min(from + batch, slotOids.length); slot++) {
      slots.push(slot);
      batchOf[slot] = batches.length;
    }
    batches.push({ slots, oids: slots.map((slot) => slotOids[slot] as string), sent: false });
  }
  return { slotOf, slotOids, batches, batchOf };
}
