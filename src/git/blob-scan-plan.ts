// What a blob scan (blob-scan.ts) works from: each distinct blob located in its pack, sorted by pack
// and offset and cut into batches for the workers; and the tunables.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { readBlobSync } from './blob.js';
import { probeBlob, type BlobProbe } from './blob-probe.js';
import type { Pack } from './pack.js';
import { repoState, type Repo } from './repo.js';

/** One blob's answer: its bytes when the probe wanted it, else null; and git's binary test. */
export interface ScannedBlob {
  readonly bytes: Buffer | null;
  readonly binary: boolean;
}

/** Tunables, for the benchmark and tests. */
export const blobScan = {
  /** Worker threads (0: everything on the main thread). */
  workers: Math.min(2, availableParallelism()),
  /** Below this many distinct blobs the main thread reads them (a worker costs ~30 ms to start). */
  minBlobs: 200,
  /** Objects in one message to a worker. */
  batch: 128,
  /** Batches sent to a worker and not yet answered. */
  depth: 2,
  /** Each worker's delta-base cache (in pack order a delta's base is near: a small one serves). */
  cacheBytes: 8 * 1024 * 1024,
  /**
   * Each worker's young generation, in MB. Blobs dropped after their test are freed only when a
   * garbage collection runs, and small JS objects alone fill a large young generation slowly: a
   * small one collects often and keeps fewer dead blobs (on babel/babel, 12 MB less at the peak).
   */
  youngGenerationMb: 2,
  /** Bytes of wanted blobs answered but not yet taken by the caller: past it, no batch is sent ahead. */
  maxHeldBytes: 32 * 1024 * 1024,
  /** Called with each worker started (tests end one to see the scan fail). */
  onWorker: null as ((w: Worker) => void) | null,
};

/** A blob read and tested on the main thread, through the store (and its errors). */
export function readHere(repo: Repo, oid: string, probe: BlobProbe): ScannedBlob {
  const bytes = readBlobSync(repo, oid);
  const found = probeBlob(bytes, probe);
  return { bytes: found.match ? bytes : null, binary: found.binary };
}

export interface Batch {
  readonly pack: number;
  readonly slots: readonly number[];
  readonly offsets: Float64Array;
  sent: boolean;
}

export interface Plan {
  readonly oids: readonly string[];
  /** Caller's position → slot (one per distinct oid). */
  readonly slotOf: Int32Array;
  /** Slot → oid. */
  readonly slotOids: readonly string[];
  readonly packs: readonly Pack[];
  readonly batches: readonly Batch[];
  /** Slot → its batch, or -1 (read on the main thread). */
  readonly batchOf: Int32Array;
}

/** Distinct oids located in their packs, sorted by pack and offset, cut into batches. */
export function planScan(repo: Repo, oids: readonly string[]): Plan {
  const store = repoState(repo).store;
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
  const packs: Pack[] = [];
  const packNo = new Map<Pack, number>();
  const located: { slot: number; pack: number; offset: number }[] = [];
  for (const [slot, oid] of slotOids.entries()) {
    const at = store.locate(oid);
    if (at === null) continue;
    let no = packNo.get(at.pack);
    if (no === undefined) {
      no = packs.length;
      packNo.set(at.pack, no);
      packs.push(at.pack);
    }
    located.push({ slot, pack: no, offset: at.offset });
  }
  located.sort((a, b) => a.pack - b.pack || a.offset - b.offset);
  const batches: Batch[] = [];
  const batchOf = new Int32Array(slotOids.length).fill(-1);
  for (let k = 0; k < located.length;) {
    const pack = (located[k] as (typeof located)[number]).pack;
    const part: typeof located = [];
    while (k < located.length && part.length < blobScan.batch && (located[k] as (typeof located)[number]).pack === pack) part.push(located[k++]!);
    for (const l of part) batchOf[l.slot] = batches.length;
    batches.push({
      pack,
      slots: part.map((l) => l.slot),
      offsets: Float64Array.from(part, (l) => l.offset),
      sent: false,
    });
  }
  return { oids, slotOf, slotOids, packs, batches, batchOf };
}
