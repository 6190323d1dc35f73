// A job's workspace that works on git objects until a command must really run. Steps edit blobs in
// memory, and commands whose result the step cache holds are replayed there too (their key needs only
// the base tree and the job's changes); the first command that must run asks `onDisk()`, which gets a
// folder holding the base tree (a worktree, or a scratch copy in a dry run) and writes the job's
// changes so far onto it. From then on everything goes to that folder. A job whose every command
// replays from the cache, or that runs none, never has its files put on disk.
import type { BlobProbe, Repo, TreeEntry } from '../git/index.js';
import type { Result } from '../errors.js';
import { ObjectWorkspace, type ObjectWorkspaceOptions } from './objects.js';
import type { Changes, CloseOptions, FileState, OwnedWorkspace, ScannedFile, Workspace } from './types.js';

/** Opens the folder: the base tree on disk, owned by the caller until it is closed; `signal` stops it. */
export type DiskOpener = (signal?: AbortSignal) => Promise<OwnedWorkspace>;

export class LazyWorkspace implements OwnedWorkspace {
  private readonly objects: ObjectWorkspace;
  private readonly release: () => Promise<void>;
  private disk: OwnedWorkspace | null = null;
  private opening: Promise<OwnedWorkspace> | null = null;

  constructor(
    repo: Repo,
    base: ReadonlyMap<string, TreeEntry>,
    private readonly open: DiskOpener,
    /** `release` ends the workspace (the job's lock), after the folder is given back; `log` as for ObjectWorkspace. */
    opts: ObjectWorkspaceOptions = {},
  ) {
    this.objects = new ObjectWorkspace(repo, base, { log: opts.log });
    this.release = opts.release ?? (async () => undefined);
  }

  private get ws(): Workspace {
    return this.disk ?? this.objects;
  }

  get root(): string | null {
    return this.disk?.root ?? null;
  }

  async onDisk(signal?: AbortSignal): Promise<string> {
    let opening = this.opening;
    if (opening === null) {
      const started = this.materialise(signal);
      // Stopped (a step's time limit): the next command that must run starts it again.
      started.catch(() => {
        if (this.opening === started) this.opening = null;
      });
      this.opening = opening = started;
    }
    this.disk = await opening;
    return this.disk.onDisk();
  }

  /** The folder at the base, with the job's changes so far written onto it (as revert writes a path's state). */
  private async materialise(signal: AbortSignal | undefined): Promise<OwnedWorkspace> {
    const disk = await this.open(signal);
    try {
      const changes = this.objects.changes();
      // Deletions first: a file written under a folder that stands where a deleted file was finds its way clear.
      const paths = [...changes.keys()].sort((a, b) => Number(changes.get(a) !== null) - Number(changes.get(b) !== null));
      await disk.revert(paths, changes);
      return disk;
    } catch (e) {
      await disk.close({ keep: false });
      throw e;
    }
  }

  paths(): readonly string[] {
    return this.ws.paths();
  }

  mode(path: string): string | undefined {
    return this.ws.mode(path);
  }

  read(path: string): Promise<Uint8Array | null> {
    return this.ws.read(path);
  }

  scan(paths: readonly string[], probe: BlobProbe, signal?: AbortSignal): AsyncIterable<ScannedFile> {
    return this.ws.scan(paths, probe, signal);
  }

  writable(path: string): Result<void> {
    return this.ws.writable(path);
  }

  write(path: string, bytes: Uint8Array): Promise<void> {
    return this.ws.write(path, bytes);
  }

  place(path: string, state: FileState | null): Promise<Result<void>> {
    return this.ws.place(path, state);
  }

  sync(): Promise<void> {
    return this.ws.sync();
  }

  changes(): Changes {
    return this.ws.changes();
  }

  revert(paths: readonly string[], to?: Changes): Promise<void> {
    return this.ws.revert(paths, to);
  }

  /**
   * Undo everything since now. Taken at object level and undone after the files went to disk (a
   * command ran in between), the folder is put back path by path: what was changed then as it was,
   * everything else as the base has it.
   */
  async snapshot(): Promise<() => Promise<void>> {
    if (this.disk !== null) return this.disk.snapshot();
    const saved = new Map(this.objects.changes());
    const undoObjects = await this.objects.snapshot();
    return async () => {
      if (this.disk === null) return undoObjects();
      await this.disk.sync();
      const touched = new Set([...saved.keys(), ...this.disk.changes().keys()]);
      await this.disk.revert([...touched], saved);
    };
  }

  /**
   * Gives the folder back (a pooled worktree goes back to its pool, at the job's head when it has one;
   * none is kept), then ends the workspace.
   */
  async close(o: CloseOptions): Promise<void> {
    try {
      // A folder still being opened (the job was interrupted meanwhile) is given back too.
      const disk = this.disk ?? (this.opening ? await this.opening.catch(() => null) : null);
      await disk?.close({ keep: false, head: o.head ?? null });
    } finally {
      await this.release();
    }
  }

  dispose(keep: boolean): Promise<void> {
    return this.close({ keep });
  }
}
