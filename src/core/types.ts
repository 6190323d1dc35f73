// The edit engine's vocabulary. Pure data: no fs, git, clock or env anywhere in src/core.
import type { Result } from '../errors.js';

export type Encoding = 'utf8' | 'utf8-bom' | 'utf16le';
export type LineEndings = 'LF' | 'CRLF';

/** Text decoded from bytes: always LF inside, with what is needed to write it back the same way. */
export interface DecodedText {
  readonly text: string;
  readonly encoding: Encoding;
  readonly lineEndings: LineEndings;
}

/** One FileEditTool edit. */
export interface Edit {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
}

/** A notebook cell edit (NotebookEditTool). `cell` is a cell id or `cell-N`. */
export interface NotebookEdit {
  readonly cell?: string;
  readonly source: string;
  readonly type?: 'code' | 'markdown';
  readonly mode?: 'replace' | 'insert' | 'delete';
}

/** What the model (or a step) last saw of a file: the seed's readFileState entry. */
export interface ReadState {
  /** The LF text as it was read. */
  readonly text: string;
  /** Read with offset/limit: enough to edit, not enough to overwrite the whole file. */
  readonly partial: boolean;
}

/** A file as the engine receives it. `bytes` null: the file does not exist. */
export interface FileInput {
  /** Repository-relative POSIX path, already checked by `checkPath`. */
  readonly path: string;
  readonly bytes: Uint8Array | null;
}

export interface EngineOptions {
  /** True when a path may not be changed (the recipe's `deny`, the agent's selection). */
  readonly isDenied?: (path: string) => boolean;
  /** Files above this size are refused (`too-large`). Default 1 GiB. */
  readonly maxBytes?: number;
  /** A JSON Schema the result must still satisfy (`invalid-result`). */
  readonly jsonSchema?: object;
  /** Similar existing paths for a `file-missing` message. */
  readonly suggestPaths?: (path: string) => readonly string[];
  /**
   * Read-before-edit (agent only). Omitted: no check. `null`: never read (`not-read`).
   * A ReadState whose text differs from the current text: `stale`.
   */
  readonly read?: ReadState | null;
  /**
   * Recipe steps only: an edit whose old_string is absent but whose non-empty new_string is present
   * counts as already applied and is skipped instead of failing.
   */
  readonly skipAlreadyApplied?: boolean;
}

export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

export interface FilePatch {
  readonly hunks: readonly Hunk[];
  readonly added: number;
  readonly removed: number;
}

/** The outcome of a successful edit/write/notebook call on one file. */
export interface FileChange {
  readonly path: string;
  readonly before: Uint8Array | null;
  readonly after: Uint8Array;
  /** LF text before and after, for patches and follow-up edits. */
  readonly oldText: string;
  readonly newText: string;
  readonly patch: FilePatch;
  /** False when every edit was skipped as already applied: `after` then equals `before`. */
  readonly changed: boolean;
  /** Indexes of edits skipped as already applied (only with `skipAlreadyApplied`). */
  readonly skipped: readonly number[];
}

export type EngineResult = Result<FileChange>;
