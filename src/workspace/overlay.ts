// What both workspaces share: the base tree, an overlay of what the job changed, and the views
// derived from the two (present paths, modes, effective changes).
import { checkPath } from '../core/index.js';
import { fail, failure, ok, ScionError, type Failure, type Result } from '../errors.js';
import { hashBlob, probeBlob, type BlobProbe, type TreeEntry } from '../git/index.js';
import type { Changes, FileState, ScannedFile } from './types.js';

/** Files a scan reads at once where reads wait on the disk (its reads then overlap). */
const PARALLEL_READS = 32;

/** The modes a command's change may leave: a file, an executable, a symlink. */
const PLACEABLE_MODES: ReadonlySet<string> = new Set(['100644', '100755', '120000']);

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

  abstract read(path: string): Promise<Uint8Array | null>;

  /** Reads in batches whose reads overlap, then tests each file in order (see Workspace.scan). */
  async *scan(paths: readonly string[], probe: BlobProbe, signal?: AbortSignal): AsyncGenerator<ScannedFile, void, undefined> {
    for (let i = 0; i < paths.length; i += PARALLEL_READS) {
      if (signal?.aborted) return;
      const batch = paths.slice(i, i + PARALLEL_READS);
      const contents = await Promise.all(batch.map((p) => this.read(p)));
      for (const [k, path] of batch.entries()) {
        const bytes = contents[k];
        if (!bytes) continue;
        yield scanned(path, bytes, probe);
      }
    }
  }

  /**
   * THE check that a write of `path` removes nothing it does not name: the path is not a
   * folder (a write there would replace every file under it), not a symlink or submodule, and no
   * folder on its way is a file, symlink or submodule (the write would have to replace it). Judged
   * on the base tree plus the overlay, so a folder an earlier step created counts too. The step gate
   * asks it before the engine runs; `write` asks it again, so no writer can get past it. First of
   * all the path itself must be one git accepts (the one path validator): a `../` or a `.git` alias
   * joined to a worktree's folder would land outside it or in git's own files.
   */
  writable(path: string): Result<void> {
    const checked = checkPath(path);
    if (!checked.ok) return checked;
    const problem = this.wayProblem(path) ?? this.leafProblem(path);
    return problem === null ? ok(undefined) : fail(problem);
  }

  /**
   * Puts a file's state in place as a command left it (a step replayed from the step cache), through
   * the same rules as a first write: the path validator (with the state's mode and bytes), nothing on
   * the way that is a file, symlink or submodule, and no folder or submodule at the path itself. Unlike
   * a step's write, it may replace or remove a symlink at the path (a command may retarget a link),
   * which never follows it. A refusal is a value, and nothing was written.
   */
  async place(path: string, state: FileState | null): Promise<Result<void>> {
    const checked = checkPath(path, state === null ? {} : { mode: state.mode, content: state.bytes });
    if (!checked.ok) return checked;
    if (state !== null && !PLACEABLE_MODES.has(state.mode)) {
      const why = `${path} would get mode ${state.mode}; a command's change is a file (100644 or 100755) or a symlink (120000).`;
      return fail(failure('unsupported', why, { path, mode: state.mode }));
    }
    const problem = this.wayProblem(path) ?? this.placeProblem(path);
    if (problem !== null) return fail(problem);
    await this.putInPlace(path, state);
    this.record(path, state);
    return ok(undefined);
  }

  /** What stands on the way to `path`: a file, symlink or submodule where a folder must be. */
  protected wayProblem(path: string): Failure | null {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const mode = this.mode(dir);
      if (mode === undefined) continue;
      if (mode === '120000')
        return failure('outside', `${path} lies under the symlink ${dir}, which may point outside the repository; edit the link's target instead.`, {
          path,
          at: dir,
        });
      if (mode === '160000') return failure('unsupported', `${path} lies inside the submodule ${dir}; scion never writes into submodules.`, { path, at: dir });
      return failure('file-exists', `${path} cannot be written: ${dir} is a file, and a folder there would replace it; choose another path.`, {
        path,
        at: dir,
      });
    }
    return null;
  }

  /** What a step's write may not replace at `path` itself: a symlink, a submodule, a folder. */
  protected leafProblem(path: string): Failure | null {
    const mode = this.mode(path);
    if (mode === '120000') return failure('unsupported', `${path} is a symlink; scion never rewrites symlinks.`, { path });
    if (mode === '160000') return failure('unsupported', `${path} is a submodule; scion never rewrites submodules.`, { path });
    if (mode === undefined && this.isFolder(path)) {
      return failure('file-exists', `${path} is a folder; writing a file there would remove everything under it. Name a file inside it instead.`, { path });
    }
    return null;
  }

  /** What a replayed change may not replace at `path`: a submodule or a folder. */
  protected placeProblem(path: string): Failure | null {
    const mode = this.mode(path);
    if (mode === '160000') return failure('unsupported', `${path} is a submodule; scion never rewrites submodules.`, { path });
    if (mode === undefined && this.isFolder(path)) return failure('file-exists', `${path} is a folder; a file cannot replace it.`, { path });
    return null;
  }

  /** Where the files live besides the overlay (on disk), the state is put there; nothing to do for objects. */
  protected async putInPlace(_path: string, _state: FileState | null): Promise<void> {}

  /** Throws (a bug: a caller skipped the step gate) when `writable` refuses. */
  protected assertWritable(path: string): void {
    const r = this.writable(path);
    if (!r.ok) throw new ScionError(r.error);
  }

  /** Some present path lies under `dir/` (binary search in the sorted listing). */
  protected isFolder(dir: string): boolean {
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
    return effectiveChanges(this.base, this.overlay, this.hashOf);
  }

  /**
   * A file's blob oid, once per content: a job asks for its changes around every step, and hashing
   * every changed file each time cost more than the rest of that question.
   */
  private readonly hashes = new WeakMap<Uint8Array, string>();
  private readonly hashOf = (bytes: Uint8Array): string => {
    let oid = this.hashes.get(bytes);
    if (oid === undefined) this.hashes.set(bytes, (oid = hashBlob(bytes)));
    return oid;
  };

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

/** A file's answer in a scan, tested where it is (in memory or read from disk). */
export function scanned(path: string, bytes: Uint8Array, probe: BlobProbe): ScannedFile {
  const found = probeBlob(bytes, probe);
  return { path, bytes: found.match ? bytes : null, binary: found.binary };
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
export function effectiveChanges(
  base: ReadonlyMap<string, TreeEntry>,
  overlay: ReadonlyMap<string, FileState | null>,
  hash: (bytes: Uint8Array) => string = hashBlob,
): Changes {
  const out = new Map<string, FileState | null>();
  for (const [path, state] of overlay) {
    const entry = base.get(path);
    if (state === null) {
      if (entry) out.set(path, null);
      continue;
    }
    if (entry && entry.mode === state.mode && hash(state.bytes) === entry.oid) continue;
    out.set(path, state);
  }
  return out;
}
