// One worker thread of a blob scan (blob-scan.ts). It opens the repository's packs with the indexes
// the main thread already holds (shared memory, no copy), finds each blob of a batch in them, reads
// the batch in pack order (its read window and delta-base cache work best so), tests each blob with
// the scan's probe and answers per blob with a code; a blob the probe wants comes back whole, its
// buffer transferred, never copied. Anything unusual (not in these packs, a base in another pack, a
// pack gone, damaged bytes, not a blob) is answered RETRY: the main thread reads that object itself,
// through the one reader whose errors a caller sees.
import { parentPort, workerData } from 'node:worker_threads';
import { probeBlob, type BlobProbe } from './blob-probe.js';
import { ByteLru } from './lru.js';
import { Pack, type RawObject, type SharedPack } from './pack.js';
import type { PackReading } from './read-settings.js';

export interface ScanWorkerData {
  readonly probe: BlobProbe;
  /** The worker's delta-base cache. */
  readonly cacheBytes: number;
  /** How the main thread's store reads packs: the worker reads them the same way. */
  readonly reading: PackReading;
}

/** The first message: the repository's packs, in the order its store searches them. */
export interface ScanSetup {
  readonly packs: readonly SharedPack[];
}

/** A batch: blobs by oid. */
export interface ScanRequest {
  readonly id: number;
  readonly oids: readonly string[];
}

/** Per object of the batch, in its order: a code, and the blob where the code says MATCH. */
export interface ScanReply {
  readonly id: number;
  readonly codes: Uint8Array;
  readonly blobs: readonly (Uint8Array | null)[];
}

/** Codes, as bits: git would call the blob binary. */
export const BINARY = 1;
/** The probe wants the blob: it comes back. */
export const MATCH = 2;
/** The main thread must read this one itself. */
export const RETRY = 4;

/** Transferring moves a whole ArrayBuffer: only one the blob has to itself (never a slice of Node's shared pool) may go. */
const OWN_BUFFER_MIN = 4096;

class ElsewhereError extends Error {}

export function serveBlobScan(): void {
  const port = parentPort;
  if (port === null) throw new Error('serveBlobScan runs in a worker thread');
  const data = workerData as ScanWorkerData;
  const cache = new ByteLru<RawObject>(data.cacheBytes, Math.max(1, data.cacheBytes >>> 3));
  let packs: Pack[] = [];
  // A REF_DELTA base outside its pack is the main thread's to find (another pack, a loose object).
  const elsewhere = (): RawObject => {
    throw new ElsewhereError();
  };
  port.on('message', (m: ScanSetup | ScanRequest) => {
    if ('packs' in m) {
      packs = m.packs.map((p, k) => Pack.fromShared(p, k, cache, data.reading));
      return;
    }
    const n = m.oids.length;
    const codes = new Uint8Array(n).fill(RETRY);
    const blobs: (Uint8Array | null)[] = new Array<Uint8Array | null>(n).fill(null);
    const transfer: ArrayBuffer[] = [];
    for (const { k, pack, offset } of inPackOrder(packs, m.oids)) {
      let obj: RawObject;
      try {
        obj = pack.readOffset(offset, elsewhere, true);
      } catch {
        continue;
      }
      if (obj.type !== 'blob') continue;
      const found = probeBlob(obj.data, data.probe);
      codes[k] = (found.binary ? BINARY : 0) | (found.match ? MATCH : 0);
      if (!found.match) continue;
      const own = ownBuffer(obj.data);
      blobs[k] = own;
      transfer.push(own.buffer as ArrayBuffer);
    }
    port.postMessage({ id: m.id, codes, blobs } satisfies ScanReply, transfer);
  });
  // The pack files stay open until the thread ends: the main thread terminates it when the scan is done.
  port.postMessage({ ready: true });
}

/** The batch's blobs found in the packs (the others stay RETRY), sorted by pack and offset. */
function inPackOrder(packs: readonly Pack[], oids: readonly string[]): { k: number; pack: Pack; offset: number }[] {
  const raw = Buffer.alloc(20);
  const found: { k: number; no: number; pack: Pack; offset: number }[] = [];
  for (const [k, oid] of oids.entries()) {
    raw.write(oid, 'hex');
    for (const [no, pack] of packs.entries()) {
      const i = pack.indexOf(raw);
      if (i < 0) continue;
      found.push({ k, no, pack, offset: pack.offsetAt(i) });
      break;
    }
  }
  return found.sort((a, b) => a.no - b.no || a.offset - b.offset);
}

/** `bytes` on an ArrayBuffer of its own, so that it can be transferred (a copy when it shares one). */
function ownBuffer(bytes: Buffer): Uint8Array {
  const ab = bytes.buffer;
  if (bytes.byteOffset === 0 && bytes.byteLength >= OWN_BUFFER_MIN && ab.byteLength <= bytes.byteLength + 1 && !(ab instanceof SharedArrayBuffer)) {
    return new Uint8Array(ab, 0, bytes.byteLength);
  }
  return new Uint8Array(bytes);
}
