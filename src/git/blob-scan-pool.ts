// The worker threads of one blob scan (blob-scan.ts): the batches they were sent, and the answers the
// caller has not taken yet. Workers only make the scan faster: the main thread can read every blob
// itself, so a worker that dies (killed, out of memory, its module not found in a broken install)
// hands its unanswered batches back to the main thread, and the rest of the scan is read there.
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BlobProbe } from './blob-probe.js';
import { readHere, type Batch, type Plan, type ScannedBlob } from './blob-scan-plan.js';
import { BINARY, MATCH, RETRY, type ScanReply, type ScanRequest, type ScanSetup, type ScanWorkerData } from './blob-scan-worker.js';
import type { BlobScanSettings } from './read-settings.js';
import { repoState, type Repo } from './repo.js';
import { FROM_SOURCE, ownModule } from '../util/own-files.js';

type Answer = ScannedBlob | { readonly retry: true };

/**
 * The workers of one scan, the batches they were sent, and the answers the caller has not taken yet.
 * Workers start at once (one takes ~40 ms of a core to start); until one is ready, the main thread
 * reads the batches the caller waits for itself. Then it only waits: blobs it reads stay in its
 * large young generation until a collection, where a worker's small one frees them soon.
 */
export class ScanPool {
  private readonly workers: Worker[] = [];
  private readonly ready: boolean[] = [];
  private readonly busy: number[] = [];
  private readonly answers = new Map<number, Answer>();
  /** Per slot, the caller's uses not yet taken: an answer is kept until its last use. */
  private uses = new Int32Array(0);
  private held = 0;
  /** Per worker, where in its stripe to look for the next batch to send. */
  private readonly cursor: number[] = [];
  private plan: Plan | null = null;
  /** Per batch, the worker it was sent to that has not answered yet; -1: none. */
  private owner = new Int32Array(0);
  /** A worker died: every worker is ended, and the main thread reads what is left. */
  private dropped = false;
  /** Some worker said it was ready (a scan whose workers never got there may have a broken install). */
  private started = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private readonly onAbort = () => this.wakeUp();

  constructor(
    private readonly repo: Repo,
    private readonly probe: BlobProbe,
    private readonly signal: AbortSignal | undefined,
    workers: number,
    private readonly settings: BlobScanSettings,
  ) {
    const data: ScanWorkerData = { probe, cacheBytes: settings.cacheBytes, reading: repoState(repo).store.reading };
    for (let w = 0; w < workers && !this.dropped; w++) this.start(w, data);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Starts the scan of `plan`'s batches. */
  run(plan: Plan): void {
    this.plan = plan;
    this.uses = new Int32Array(plan.slotOids.length);
    for (const slot of plan.slotOf) this.uses[slot] = (this.uses[slot] as number) + 1;
    this.owner = new Int32Array(plan.batches.length).fill(-1);
    if (this.dropped) return;
    const setup: ScanSetup = { packs: repoState(this.repo).store.sharedPacks() };
    for (const w of this.workers) w.postMessage(setup);
    this.pump();
  }

  /** The answer for `slot` once it is there; null when the signal fired. Throws what reading the blob on the main thread throws. */
  async answer(slot: number): Promise<ScannedBlob | null> {
    const plan = this.plan as Plan;
    const batch = plan.batchOf[slot] as number;
    for (;;) {
      if (this.signal?.aborted) return null;
      if (this.failure) throw this.failure;
      const got = this.answers.get(slot);
      if (got !== undefined) return this.take(slot, got);
      if (!(plan.batches[batch] as Batch).sent) {
        // The caller waits for it: it goes to a worker first, whatever is held. While no worker is
        // ready the main thread reads it, then lets a worker that got ready say so.
        const w = this.readyWorkerFor(batch);
        if (w >= 0) this.send(batch, w);
        else {
          this.readBatchHere(batch);
          if (!this.dropped) await new Promise<void>((r) => setImmediate(r));
          continue;
        }
      }
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
    if ('retry' in got) return readHere(this.repo, (this.plan as Plan).slotOids[slot] as string, this.probe);
    return got;
  }

  private start(w: number, data: ScanWorkerData): void {
    let worker: Worker;
    try {
      worker = new Worker(BOOTSTRAP, {
        eval: true,
        workerData: { ...data, ...workerEntry() },
        resourceLimits: { maxYoungGenerationSizeMb: this.settings.youngGenerationMb },
      });
    } catch (e) {
      this.died(e as Error);
      return;
    }
    worker.on('message', (m: ScanReply | { ready: true }) => {
      // A worker's last messages may arrive after the scan dropped the workers: their batches are the main thread's now.
      if (this.dropped) return;
      if ('ready' in m) {
        this.ready[w] = true;
        this.started = true;
        this.pump();
      } else this.received(w, m);
    });
    worker.on('error', (e) => this.died(e));
    worker.on('exit', (code) => this.died(new Error(`it exited with code ${code}`)));
    this.workers.push(worker);
    this.ready.push(false);
    this.busy.push(0);
    this.cursor.push(0);
    this.settings.onWorker?.(worker);
  }

  /**
   * Sends batches while ready workers have room and the caller is not too far behind. The batches
   * are cut in stripes, one per worker, and each worker goes through its own from the start
   * (neighbours in the caller's order share delta bases and read windows, so a stripe is read and
   * inflated once); one that is done takes the last batches of another's stripe.
   */
  private pump(): void {
    if (this.plan === null) return;
    for (let w = 0; w < this.workers.length; w++) {
      while (this.ready[w] && (this.busy[w] as number) < this.settings.depth && this.held < this.settings.maxHeldBytes) {
        const b = this.nextFor(w);
        if (b < 0) break;
        this.send(b, w);
      }
    }
  }

  /** The first unsent batch of worker `w`'s stripe, else the last unsent batch of all; -1 when none is left. */
  private nextFor(w: number): number {
    const batches = (this.plan as Plan).batches;
    const end = this.stripeStart(w + 1);
    for (let b = Math.max(this.cursor[w] as number, this.stripeStart(w)); b < end; b++) {
      this.cursor[w] = b;
      if (!(batches[b] as Batch).sent) return b;
    }
    for (let b = batches.length - 1; b >= 0; b--) if (!(batches[b] as Batch).sent) return b;
    return -1;
  }

  /** Where worker `w`'s stripe starts. */
  private stripeStart(w: number): number {
    return Math.floor(((this.plan as Plan).batches.length * w) / this.workers.length);
  }

  /** The worker whose stripe holds batch `b` if it is ready, else any ready one; -1 when none is. */
  private readyWorkerFor(b: number): number {
    let own = this.workers.length - 1;
    while (own > 0 && this.stripeStart(own) > b) own--;
    return this.ready[own] ? own : this.ready.indexOf(true);
  }

  /** Reads a batch on the main thread, through the store. */
  private readBatchHere(batch: number): void {
    const b = (this.plan as Plan).batches[batch] as Batch;
    b.sent = true;
    for (const slot of b.slots) {
      let got: Answer;
      try {
        got = readHere(this.repo, (this.plan as Plan).slotOids[slot] as string, this.probe);
      } catch {
        // Read again when the caller reaches it: the error is then the caller's.
        got = { retry: true };
      }
      if ('bytes' in got && got.bytes) this.held += got.bytes.length;
      this.answers.set(slot, got);
    }
  }

  private send(batch: number, w: number): void {
    const b = (this.plan as Plan).batches[batch] as Batch;
    b.sent = true;
    this.busy[w] = (this.busy[w] as number) + 1;
    this.owner[batch] = w;
    (this.workers[w] as Worker).postMessage({ id: batch, oids: b.oids } satisfies ScanRequest);
  }

  private received(w: number, m: ScanReply): void {
    this.busy[w] = (this.busy[w] as number) - 1;
    this.owner[m.id] = -1;
    const b = (this.plan as Plan).batches[m.id] as Batch;
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

  /**
   * A worker ended before the scan was done (or could not be made): the batches workers were sent
   * and have not answered go back to the main thread, which reads them and every batch after them;
   * the other workers are ended too (one that died may mean memory is short). The scan's
   * `onWorkersDropped` hears why, the one place a broken install (no worker ever ready) shows.
   */
  private died(e: Error): void {
    // After close(), workers ending is the scan ending them.
    if (this.dropped || this.failure) return;
    this.dropped = true;
    this.ready.fill(false);
    const plan = this.plan;
    if (plan !== null) {
      for (const [b, w] of this.owner.entries()) {
        if (w < 0) continue;
        this.owner[b] = -1;
        (plan.batches[b] as Batch).sent = false;
      }
    }
    for (const worker of this.workers) void worker.terminate();
    const where = `reading blobs of ${this.repo.commonDir}`;
    this.settings.onWorkersDropped?.(
      this.started
        ? `a worker thread ${where} ended (${e.message}); the rest of the scan is read on the main thread`
        : `no worker thread ${where} could start (${e.message}); the scan is read on the main thread (if this repeats, scion's install may be incomplete)`,
    );
    this.wakeUp();
  }

  private wakeUp(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}

// Plain JavaScript evaluated in the worker: it imports the worker's module (src/git/blob-scan-worker.ts
// through tsx when scion runs from its sources, in tests; the bundle's entry of that name in dist/)
// and serves. A module that fails to load ends the worker with an error: the main thread reads instead.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  const m = workerData.tsx
    ? await (await import(workerData.tsx)).tsImport(workerData.entry, { parentURL: workerData.entry })
    : await import(workerData.entry);
  m.serveBlobScan();
})().catch((e) => setImmediate(() => { throw e; }));
`;

function workerEntry(): { readonly entry: string; readonly tsx: string | null } {
  const entry = pathToFileURL(ownModule('git/blob-scan-worker')).href;
  return { entry, tsx: FROM_SOURCE ? import.meta.resolve('tsx/esm/api') : null };
}
