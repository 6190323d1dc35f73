// The messages between pool.ts and worker.ts.
import type { Result } from '../errors.js';
import type { ParserName } from './jscodeshift.js';
import type { AstgrepSource } from './load.js';

/** What a worker needs to rebuild the step's engine: plain data, loaded once per worker. */
export type PoolJob =
  | {
      readonly kind: 'astgrep';
      readonly source: AstgrepSource;
      readonly fromDir: string;
      /** Only these rules of the program (by index): a file that a rule file's own `files`/`ignores` leave to some rules. Default: all. */
      readonly rules?: readonly number[];
    }
  /** The agent's structural search: one pattern in one built-in language (search.ts). */
  | { readonly kind: 'search'; readonly pattern: string; readonly language: string }
  | {
      readonly kind: 'jscodeshift';
      readonly specifier: string;
      readonly fromDir: string;
      readonly parser?: ParserName;
      readonly options?: Readonly<Record<string, unknown>>;
    };

export interface PoolFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

export interface PoolRequest {
  readonly id: number;
  readonly job: PoolJob;
  readonly file: PoolFile;
}

export type PoolReply = { readonly id: number; readonly result: Result<unknown> } | { readonly id: number; readonly crash: string };
