// What both workspaces share: the base tree, an overlay of what the job changed, and the views
// derived from the two (present paths, modes, effective changes).
import { fail, failure, ok, ScionError, type Result } from '../errors.js';
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

  /**
   * THE check that a write of `path` removes nothing it does not name (SPEC §7): the path is not a
   * folder (a write there would replace every file under it), not a symlink or submodule, and no
   * folder on its way is a file, symlink or submodule (the write would have to replace it). Judged
   * on the base tree plus the overlay, so a folder an earlier step created counts too. The step gate
   * asks it before the engine runs; `write` asks it again, so no writer can get past it.
   */
  writable(path: string): Result<void> {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const mode = this.mode(dir);
      if (mode === undefined) continue;
      if (mode === '120000') return fail(failure('outside', `${path} lies under the symlink ${dir}, which may point outside the repository; edit the link's target instead.`, { path, at: dir }));
      if (mode === '160000') return fail(failure('unsupported', `${path} lies inside the submodule ${dir}; scion never writes into submodules.`, { path, at: dir }));
      return fail(failure('file-exists', `${path} cannot be written: ${dir} is a file, and a folder there would replace it; choose another path.`, { path, at: dir }));
    }
    const mode = this.mode(path);
    if (mode === '120000') return fail(failure('unsupported', `${path} is a symlink; scion never rewrites symlinks.`, { path }));
    if (mode === '160000') return fail(failure('unsupported', `${path} is a submodule; scion never rewrites submodules.`, { path }));
    if (mode === undefined && this.isFolder(path)) {
      return fail(failure('file-exists', `${path} is a folder; writing a file there would remove everything under it. Name a file inside it instead.`, { path }));
    }
    return ok(undefined);
  }

  /** Throws (a bug: a caller skipped the step gate) when `writable` refuses. */
  protected assertWritable(path: string): void {
    const r = this.writable(path);
    if (!r.ok) throw new ScionError(r.error);
  }

  /** Some present path lies under `dir/` (binary search in the sorted listing). */
  private isFolder(dir: string): boolean {
    const all = this.paths();
    const prefix = `${dir}/`;
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (all[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo < all.length && all[lo]!.startsWith(prefix);
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
