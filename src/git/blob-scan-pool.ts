// The worker threads of one blob scan (blob-scan.ts): the batches they were sent, and the answers the
// caller has not taken yet.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BlobProbe } from './blob-probe.js';
import { blobScan, readHere, type Batch, type Plan, type ScannedBlob } from './blob-scan-plan.js';
import { BINARY, MATCH, RETRY, type ScanReply, type ScanRequest, type ScanWorkerData } from './blob-scan-worker.js';
import { gitError } from './errors.js';
import type { Repo } from './repo.js';

type Answer = ScannedBlob | { readonly retry: true };

/** The workers of one scan, the batches they were sent, and the answers the caller has not taken yet. */
export class ScanPool {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  private readonly answers = new Map<number, Answer>();
  /** Slots the caller has not reached yet, per batch: an answer is kept until its last use. */
  private readonly uses: Int32Array;
  private held = 0;
  /** Per worker, where in its stripe to look for the next batch to send. */
  private readonly cursor: number[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private readonly onAbort = () => this.wakeUp();

  constructor(
    private readonly repo: Repo,
    private readonly plan: Plan,
    private readonly probe: BlobProbe,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.uses = new Int32Array(plan.slotOids.length);
    for (const slot of plan.slotOf) this.uses[slot] = (this.uses[slot] as number) + 1;
    const data: ScanWorkerData = { packs: plan.packs.map((p) => p.share()), probe, cacheBytes: blobScan.cacheBytes };
    const count = Math.min(blobScan.workers, Math.ceil(plan.batches.length / blobScan.depth));
    for (let w = 0; w < count; w++) this.start(w, data);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.pump();
  }

  /** The answer for `slot` once it is there; null when the signal fired. Throws a dead worker's error, or the read's. */
  async answer(slot: number): Promise<ScannedBlob | null> {
    const batch = this.plan.batchOf[slot] as number;
    for (;;) {
      if (this.signal?.aborted) return null;
      if (this.failure) throw this.failure;
      if (batch < 0) return this.take(slot, { retry: true });
      const got = this.answers.get(slot);
      if (got !== undefined) return this.take(slot, got);
      // The batch holding the blob the caller waits for goes first, whatever is held.
      const b = this.plan.batches[batch] as Batch;
      if (!b.sent) this.send(batch);
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  async close(): Promise<void> {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.failure ??= new Error('the scan is closed');
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private take(slot: number, got: Answer): ScannedBlob {
    const left = (this.uses[slot] as number) - 1;
    this.uses[slot] = left;
    if (left <= 0) {
      this.answers.delete(slot);
      if ('bytes' in got && got.bytes) this.held -= got.bytes.length;
      this.pump();
    } else if (!('retry' in got)) {
      // A blob at more than one path: each gets its own bytes, as separate reads would give.
      return { bytes: got.bytes && Buffer.from(got.bytes), binary: got.binary };
    }
    if ('retry' in got) return readHere(this.repo, this.plan.slotOids[slot] as string, this.probe);
    return got;
  }

  private start(w: number, data: ScanWorkerData): void {
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { ...data, ...workerEntry() } });
    worker.on('message', (m: ScanReply) => this.received(w, m));
    worker.on('error', (e) => this.died(e));
    worker.on('exit', (code) => this.died(new Error(`it exited with code ${code}`)));
    this.workers.push(worker);
    this.busy.push(0);
    this.cursor.push(0);
    blobScan.onWorker?.(worker);
  }

  /**
   * Sends batches while workers have room and the caller is not too far behind. Each worker goes
   * through its own stripe of the batches in pack order (neighbours share delta bases and read
   * windows, so a stripe is read and inflated once); one that is done takes the last batches of
   * another's stripe.
   */
  private pump(): void {
    for (let w = 0; w < this.workers.length; w++) {
      while ((this.busy[w] as number) < blobScan.depth && this.held < blobScan.maxHeldBytes) {
        const b = this.nextFor(w);
        if (b < 0) break;
        this.send(b, w);
      }
    }
  }

  /** The first unsent batch of worker `w`'s stripe, else the last unsent batch of all; -1 when none is left. */
  private nextFor(w: number): number {
    const batches = this.plan.batches;
    const end = this.stripeStart(w + 1);
    for (let b = Math.max(this.cursor[w] as number, this.stripeStart(w)); b < end; b++) {
      this.cursor[w] = b;
      if (!(batches[b] as Batch).sent) return b;
    }
    for (let b = batches.length - 1; b >= 0; b--) if (!(batches[b] as Batch).sent) return b;
    return -1;
  }

  private stripeStart(w: number): number {
    return Math.floor((this.plan.batches.length * w) / this.workers.length);
  }

  /** The worker whose stripe holds batch `b`. */
  private stripeOf(b: number): number {
    let w = this.workers.length - 1;
    while (w > 0 && this.stripeStart(w) > b) w--;
    return w;
  }

  private send(batch: number, w = this.stripeOf(batch)): void {
    const b = this.plan.batches[batch] as Batch;
    b.sent = true;
    this.busy[w] = (this.busy[w] as number) + 1;
    (this.workers[w] as Worker).postMessage({ id: batch, pack: b.pack, offsets: b.offsets } satisfies ScanRequest);
  }

  private received(w: number, m: ScanReply): void {
    this.busy[w] = (this.busy[w] as number) - 1;
    const b = this.plan.batches[m.id] as Batch;
    for (const [k, slot] of b.slots.entries()) {
      const code = m.codes[k] as number;
      const blob = m.blobs[k];
      if (code & RETRY || (code & MATCH && !blob)) {
        this.answers.set(slot, { retry: true });
        continue;
      }
      const bytes = code & MATCH && blob ? Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength) : null;
      if (bytes) this.held += bytes.length;
      this.answers.set(slot, { bytes, binary: (code & BINARY) !== 0 });
    }
    this.pump();
    this.wakeUp();
  }

  private died(e: Error): void {
    if (this.failure) return;
    this.failure = gitError(
      'environment',
      `A worker thread reading blobs of ${this.repo.commonDir} ended before it was done (${e.message}); run again, or set fewer parallel jobs if memory is short.`,
      { path: this.repo.commonDir },
      e,
    );
    this.wakeUp();
  }

  private wakeUp(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}

// Plain JavaScript evaluated in the worker: it imports the worker's module, through tsx when scion
// runs from its TypeScript sources (tests), and serves. A module that fails to load ends the worker
// with an error, which fails the scan.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  const m = workerData.tsx
    ? await (await import(workerData.tsx)).tsImport(workerData.entry, { parentURL: workerData.entry })
    : await import(workerData.entry);
  m.serveBlobScan();
})().catch((e) => setImmediate(() => { throw e; }));
`;

/**
 * The worker's module: blob-scan-worker.ts beside this file when running from the sources (with
 * tsx's API to load it), the built blob-scan-worker.js beside this file, or, when this code sits in
 * a bundle's chunk elsewhere, dist/git/blob-scan-worker.js under the package's folder.
 */
function workerEntry(): { readonly entry: string; readonly tsx: string | null } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return { entry: new URL('./blob-scan-worker.ts', here).href, tsx: import.meta.resolve('tsx/esm/api') };
  const beside = new URL('./blob-scan-worker.js', here);
  if (existsSync(beside)) return { entry: beside.href, tsx: null };
  for (let dir = dirname(fileURLToPath(here)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return { entry: pathToFileURL(join(dir, 'dist/git/blob-scan-worker.js')).href, tsx: null };
  }
  return { entry: beside.href, tsx: null };
}
