// What both workspaces share: the base tree, an overlay of what the job changed, and the views
// derived from the two (present paths, modes, effective changes).
import { checkPath } from '../core/index.js';
import { ScionError } from '../errors.js';
import { hashBlob, type TreeEntry } from '../git/index.js';
import type { Changes, FileState } from './types.js';

export abstract class OverlayWorkspace {
  protected overlay = new Map<string, FileState | null>();
  private sorted: string[] | null = null;

  protected constructor(protected readonly base: ReadonlyMap<string, TreeEntry>) {}

  paths(): readonly string[] {
    if (this.sorted === null) this.sorted = listPaths(this.base, this.overlay);
    return this.sorted;
  }

  mode(path: string): string | undefined {
    if (this.overlay.has(path)) return this.overlay.get(path)?.mode;
    return this.base.get(path)?.mode;
  }

  changes(): Changes {
    return effectiveChanges(this.base, this.overlay);
  }

  /** Records a file's new state; a path appearing or disappearing invalidates the sorted listing. */
  protected record(path: string, state: FileState | null): void {
    if ((this.mode(path) !== undefined) !== (state !== null)) this.sorted = null;
    this.overlay.set(path, state);
  }

  /** Replaces the whole overlay (after a rescan, a revert or an undo). */
  protected resetOverlay(next: Map<string, FileState | null>): void {
    this.overlay = next;
    this.sorted = null;
  }
}

/**
 * Behind the steps' own checks, the workspace refuses to write a path the one validator refuses: a
 * `../` or a `.git` alias joined to a worktree's folder would land outside it or in git's own files.
 */
export function assertWritable(path: string): void {
  const checked = checkPath(path);
  if (!checked.ok) throw new ScionError(checked.error);
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
