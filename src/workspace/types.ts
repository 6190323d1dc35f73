// A job's view of its files: the base tree plus what its steps changed. Steps read and write through
// it; the runner turns `changes()` into commits, then closes it. Paths are repository-relative POSIX paths.
import type { Result } from '../errors.js';
import type { BlobProbe } from '../git/index.js';

export interface FileState {
  readonly bytes: Uint8Array;
  readonly mode: string;
}

/** One file of a scan: its bytes when the probe wanted them, else null; and git's test for a binary file. */
export interface ScannedFile {
  readonly path: string;
  readonly bytes: Uint8Array | null;
  readonly binary: boolean;
}

/** path → new content and mode, or null where the file was deleted. */
export type Changes = ReadonlyMap<string, FileState | null>;

export interface Workspace {
  /** The folder the files live in when they are on disk (a worktree or a scratch copy), else null. */
  readonly root: string | null;
  /**
   * The folder, the files put on disk first where they are not yet (a workspace that starts at object
   * level gets them when the first command must run). Throws for a workspace that never has one.
   * `signal` stops the files going to disk (kind `interrupted`; nothing half written is left).
   */
  onDisk(signal?: AbortSignal): Promise<string>;
  /** Every path present now (base ± changes), sorted. */
  paths(): readonly string[];
  /** The git mode of a present path ('100644', '100755', '120000', '160000'), undefined when absent. */
  mode(path: string): string | undefined;
  read(path: string): Promise<Uint8Array | null>;
  /**
   * Reads `paths` (absent ones are passed by) and tests each file's bytes with `probe`: the files it
   * wants come back whole, the others as null, in the order given. Reading many files this way is
   * faster than `read` one by one: the object-level workspace reads base blobs in pack order on
   * worker threads ahead of the caller. Ends early when `signal` fires or the caller stops; throws
   * what `read` would throw for a file when the caller reaches it.
   */
  scan(paths: readonly string[], probe: BlobProbe, signal?: AbortSignal): AsyncIterable<ScannedFile>;
  /**
   * Whether writing `path` would remove nothing it does not name: refused (kind file-exists,
   * unsupported or outside) over a folder, symlink or submodule, or under a file.
   */
  writable(path: string): Result<void>;
  /** Replace a file's content whole (atomically on disk). A new file gets mode 100644. Throws where `writable` refuses. */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /**
   * Put a path's state in place as a command left it (a step replayed from the step cache): through
   * the path validator and the symlink rule of a first write; it may replace or remove a symlink at
   * the path, never follow one. A refusal is a value, with nothing written.
   */
  place(path: string, state: FileState | null): Promise<Result<void>>;
  /** Pick up changes a command made on disk. No-op for object-level workspaces. */
  sync(): Promise<void>;
  /** What differs from the base now. */
  changes(): Changes;
  /**
   * Put these paths back as they are in `to` where it names them (the job's changes before a
   * command ran), else as they are in the base tree.
   */
  revert(paths: readonly string[], to?: Changes): Promise<void>;
  /** Undo everything since `snapshot()` (a failed step with onError: stop). */
  snapshot(): Promise<() => Promise<void>>;
}

/** The job's branch, whose head `commit` holds exactly the job's changes on the base. */
export interface WorktreeHead {
  readonly branch: string;
  readonly commit: string;
}

export interface CloseOptions {
  /** Leave a real worktree on disk (--keep-worktrees); else it is removed, or given back to its pool. */
  readonly keep: boolean;
  /**
   * Where the worktree ends, clean under `git status`: a kept one checked out on the branch, a pooled
   * one given back detached at the commit. Absent or null (a job that failed or committed nothing):
   * at the base.
   */
  readonly head?: WorktreeHead | null;
}

/** A workspace as its maker holds it: the files, and its end. Steps see only `Workspace`. */
export interface OwnedWorkspace extends Workspace {
  /** Release the workspace once: a real worktree is moved to `head` and kept, or removed. */
  close(o: CloseOptions): Promise<void>;
  /** `close({ keep })`, for holders that move no head. */
  dispose(keep: boolean): Promise<void>;
}
