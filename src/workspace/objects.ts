// The object-level workspace: nothing on disk. Reads come from the base tree's blobs (through the
// repository's shared cache), writes stay in memory until the runner commits them.
import { readBlob, scanBlobs, type BlobProbe, type Repo, type TreeEntry } from '../git/index.js';
import { OverlayWorkspace, scanned } from './overlay.js';
import type { Changes, OwnedWorkspace, ScannedFile } from './types.js';

export interface ObjectWorkspaceOptions {
  /** Ends the workspace (the job's lock), when it is closed. */
  readonly release?: () => Promise<void>;
  /** Where the workspace says what the job's progress may show: a scan that lost its worker threads. */
  readonly log?: (message: string) => void;
}

export class ObjectWorkspace extends OverlayWorkspace implements OwnedWorkspace {
  readonly root = null;
  private readonly release: () => Promise<void>;
  private readonly log: ((message: string) => void) | undefined;

  constructor(
    private readonly repo: Repo,
    base: ReadonlyMap<string, TreeEntry>,
    opts: ObjectWorkspaceOptions = {},
  ) {
    super(base);
    this.release = opts.release ?? (async () => undefined);
    this.log = opts.log;
  }

  async read(path: string): Promise<Uint8Array | null> {
    if (this.overlay.has(path)) return this.overlay.get(path)?.bytes ?? null;
    const entry = this.base.get(path);
    return entry ? readBlob(this.repo, entry.oid) : null;
  }

  /**
   * Base blobs go to the git layer's scan (pack order, worker threads); files the job changed are
   * tested in memory, as they are when the caller reaches them.
   */
  override async *scan(paths: readonly string[], probe: BlobProbe, signal?: AbortSignal): AsyncGenerator<ScannedFile, void, undefined> {
    const fromBase = paths.map((p) => !this.overlay.has(p) && this.base.has(p));
    const oids = paths.filter((_, i) => fromBase[i]).map((p) => this.base.get(p)!.oid);
    const log = this.log;
    const blobs = scanBlobs(this.repo, oids, probe, { signal, ...(log ? { onWorkersDropped: (why: string) => log(`blob scan: ${why}`) } : {}) });
    try {
      for (const [i, path] of paths.entries()) {
        if (signal?.aborted) return;
        const blob = fromBase[i] ? await blobs.next() : null;
        if (blob?.done) return;
        if (blob && !this.overlay.has(path)) {
          yield { path, ...blob.value };
          continue;
        }
        const bytes = this.overlay.get(path)?.bytes;
        if (bytes) yield scanned(path, bytes, probe);
      }
    } finally {
      await blobs.return();
    }
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    this.assertWritable(path);
    this.record(path, { bytes, mode: this.mode(path) ?? '100644' });
  }

  async sync(): Promise<void> {}

  /** A bug when asked: a job whose commands need files on disk gets a workspace that can put them there. */
  async onDisk(_signal?: AbortSignal): Promise<string> {
    throw new Error('an object-level workspace has no files on disk');
  }

  async revert(paths: readonly string[], to?: Changes): Promise<void> {
    const next = new Map(this.overlay);
    for (const path of paths) {
      if (to?.has(path)) next.set(path, to.get(path) ?? null);
      else next.delete(path);
    }
    this.resetOverlay(next);
  }

  async snapshot(): Promise<() => Promise<void>> {
    const saved = new Map(this.overlay);
    return async () => this.resetOverlay(new Map(saved));
  }

  /** Nothing on disk: there is no head to move and nothing to keep. */
  async close(): Promise<void> {
    await this.release();
  }

  async dispose(): Promise<void> {
    await this.close();
  }
}
