// A workspace whose files are on disk: a job's linked worktree, or (in a dry run) a scratch copy
// outside the repository. Steps write through it atomically; commands change files behind its back,
// so `sync()` asks a scanner what differs from the base.
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { failure, type Failure } from '../errors.js';
import { readBlob, type Repo, type TreeEntry } from '../git/index.js';
import { OverlayWorkspace } from './overlay.js';
import type { Changes, CloseOptions, FileState, OwnedWorkspace } from './types.js';

export type Scanner = () => Promise<ReadonlyMap<string, FileState | null>>;

export class DiskWorkspace extends OverlayWorkspace implements OwnedWorkspace {
  constructor(
    readonly root: string,
    protected readonly repo: Repo,
    base: ReadonlyMap<string, TreeEntry>,
    private readonly scanner: Scanner,
    /** Ends the folder, told how the workspace was closed (a scratch copy is removed whatever it is told). */
    private readonly release: (o: CloseOptions) => Promise<void> = async () => undefined,
  ) {
    super(base);
  }

  async read(path: string): Promise<Uint8Array | null> {
    // A changed file reads as the job recorded it: after a command, as `git add` would store it
    // (CRLF made LF under core.autocrlf), which is what will be committed.
    if (this.overlay.has(path)) return this.overlay.get(path)?.bytes ?? null;
    try {
      return new Uint8Array(await readFile(join(this.root, path)));
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  /**
   * The tree's checks (overlay.ts), then the disk's: files git does not track (ignored build output,
   * a folder or symlink a command made) are no less the user's, and a kept worktree hands them back.
   * A write may not replace an untracked folder or symlink, nor go through a file or a symlink on
   * its way (a symlink could lead outside the worktree).
   */
  protected override wayProblem(path: string): Failure | null {
    const inTree = super.wayProblem(path);
    if (inTree !== null) return inTree;
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const st = lstatSync(join(this.root, dir), { throwIfNoEntry: false });
      if (st === undefined) break;
      if (st.isDirectory()) continue;
      if (st.isSymbolicLink()) {
        return failure('outside', `${path} lies under ${dir}, a symlink git does not track, which may point outside the repository; choose another path.`, {
          path,
          at: dir,
        });
      }
      return failure(
        'file-exists',
        `${path} cannot be written: ${dir} is a file git does not track (ignored or untracked), and a folder there would replace it; choose another path.`,
        { path, at: dir },
      );
    }
    return null;
  }

  protected override leafProblem(path: string): Failure | null {
    const inTree = super.leafProblem(path);
    if (inTree !== null) return inTree;
    const st = lstatSync(join(this.root, path), { throwIfNoEntry: false });
    if (st?.isDirectory()) return untrackedFolder(path);
    if (st?.isSymbolicLink() && this.mode(path) === undefined) {
      return failure('unsupported', `${path} is a symlink git does not track; scion never replaces symlinks.`, { path });
    }
    return null;
  }

  protected override placeProblem(path: string): Failure | null {
    const inTree = super.placeProblem(path);
    if (inTree !== null) return inTree;
    return lstatSync(join(this.root, path), { throwIfNoEntry: false })?.isDirectory() ? untrackedFolder(path) : null;
  }

  protected override async putInPlace(path: string, state: FileState | null): Promise<void> {
    await this.put(path, state);
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    this.assertWritable(path);
    const mode = this.mode(path) ?? '100644';
    await writeAtomic(join(this.root, path), bytes, mode);
    this.record(path, { bytes, mode });
  }

  async sync(): Promise<void> {
    this.resetOverlay(new Map(await this.scanner()));
  }

  async onDisk(_signal?: AbortSignal): Promise<string> {
    return this.root;
  }

  async revert(paths: readonly string[], to?: Changes): Promise<void> {
    const next = new Map(this.overlay);
    for (const path of paths) {
      if (to?.has(path)) {
        const state = to.get(path) ?? null;
        await this.put(path, state);
        next.set(path, state);
      } else {
        await this.put(path, await this.baseState(path));
        next.delete(path);
      }
    }
    this.resetOverlay(next);
  }

  async snapshot(): Promise<() => Promise<void>> {
    const saved = new Map(this.overlay);
    return async () => {
      await this.sync();
      const touched = new Set([...saved.keys(), ...this.overlay.keys()]);
      for (const path of touched) {
        await this.put(path, saved.has(path) ? saved.get(path)! : await this.baseState(path));
      }
      this.resetOverlay(saved);
    };
  }

  private async put(path: string, want: FileState | null): Promise<void> {
    const file = join(this.root, path);
    if (want === null) await unlink(file).catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)));
    else await writeAtomic(file, want.bytes, want.mode);
  }

  async close(o: CloseOptions): Promise<void> {
    await this.release(o);
  }

  dispose(keep: boolean): Promise<void> {
    return this.close({ keep });
  }

  private async baseState(path: string): Promise<FileState | null> {
    const entry = this.base.get(path);
    return entry ? { bytes: await readBlob(this.repo, entry.oid), mode: entry.mode } : null;
  }
}

/**
 * Write beside the target and rename over it: a reader never sees half a file. A symlink's state
 * (mode 120000, its bytes the link's target) is made a symlink again, never a file holding the
 * target's name. The rename replaces a symlink at `file` itself; it never follows it.
 */
export async function writeAtomic(file: string, bytes: Uint8Array, mode: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.scion-${randomBytes(4).toString('hex')}.tmp`;
  try {
    if (mode === '120000') {
      await symlink(Buffer.from(bytes).toString('utf8'), tmp);
    } else {
      await writeFile(tmp, bytes);
      await chmod(tmp, mode === '100755' ? 0o755 : 0o644);
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

function untrackedFolder(path: string): Failure {
  const why = `${path} is a folder of files git does not track (ignored or untracked); writing a file there would remove everything under it.`;
  return failure('file-exists', `${why} Name a file inside it instead.`, { path });
}

export function isMissing(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'code' in e && (e.code === 'ENOENT' || e.code === 'ENOTDIR');
}
