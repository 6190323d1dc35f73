// The object-level workspace: nothing on disk. Reads come from the base tree's blobs (through the
// repository's shared cache), writes stay in memory until the runner commits them.
import { hashBlob, readBlob, type Repo, type TreeEntry } from '../git/index.js';
import type { Changes, FileState, Workspace } from './types.js';

export class ObjectWorkspace implements Workspace {
  readonly root = null;
  private overlay = new Map<string, FileState | null>();
  private sorted: string[] | null = null;

  constructor(
    private readonly repo: Repo,
    private readonly base: ReadonlyMap<string, TreeEntry>,
  ) {}

  paths(): readonly string[] {
    if (this.sorted === null) this.sorted = listPaths(this.base, this.overlay);
    return this.sorted;
  }

  mode(path: string): string | undefined {
    if (this.overlay.has(path)) return this.overlay.get(path)?.mode;
    return this.base.get(path)?.mode;
  }

  async read(path: string): Promise<Uint8Array | null> {
    if (this.overlay.has(path)) return this.overlay.get(path)?.bytes ?? null;
    const entry = this.base.get(path);
    return entry ? readBlob(this.repo, entry.oid) : null;
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    if (this.mode(path) === undefined) this.sorted = null;
    this.overlay.set(path, { bytes, mode: this.mode(path) ?? '100644' });
  }

  async sync(): Promise<void> {}

  changes(): Changes {
    return effectiveChanges(this.base, this.overlay);
  }

  async revert(paths: readonly string[]): Promise<void> {
    for (const path of paths) this.overlay.delete(path);
    this.sorted = null;
  }

  async snapshot(): Promise<() => Promise<void>> {
    const saved = new Map(this.overlay);
    return async () => {
      this.overlay = new Map(saved);
      this.sorted = null;
    };
  }

  async dispose(): Promise<void> {}
}

/** Base paths plus created ones, minus deleted ones, sorted by code unit like git sorts them. */
export function listPaths(base: ReadonlyMap<string, TreeEntry>, overlay: ReadonlyMap<string, FileState | null>): string[] {
  const out = new Set(base.keys());
  for (const [path, state] of overlay) {
    if (state === null) out.delete(path);
    else out.add(path);
  }
  return [...out].sort();
}

/** Overlay entries that really differ from the base (a write of the same bytes is no change). */
export function effectiveChanges(base: ReadonlyMap<string, TreeEntry>, overlay: ReadonlyMap<string, FileState | null>): Changes {
  const out = new Map<string, FileState | null>();
  for (const [path, state] of overlay) {
    const entry = base.get(path);
    if (state === null) {
      if (entry) out.set(path, null);
      continue;
    }
    if (entry && entry.mode === state.mode && hashBlob(state.bytes) === entry.oid) continue;
    out.set(path, state);
  }
  return out;
}
