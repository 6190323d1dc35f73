// What every step gets: the job's workspace, its selection and deny rules, its limits and a meter for
// model usage. What a step found it returns (step-outcome.ts). `guardPath` is the one gate every
// path a step names goes through before the edit engine sees it.
import { checkPath, type EngineOptions } from '../core/index.js';
import { failure, type Result, ok, fail } from '../errors.js';
import type { JobSpec, Recipe } from '../recipe/index.js';
import type { Usage } from '../model/types.js';
import type { StructuralPool } from '../structural/index.js';
import type { FileState, Workspace } from '../workspace/types.js';
import type { CommandCache } from './cached-command.js';
import type { RunContext } from './types.js';

export interface StepContext {
  readonly recipe: Recipe;
  readonly job: JobSpec;
  readonly ws: Workspace;
  readonly run: RunContext;
  readonly dryRun: boolean;
  /** In the job's file selection. */
  readonly selected: (path: string) => boolean;
  /** Matches the recipe's `deny`. */
  readonly isDenied: (path: string) => boolean;
  /** A JSON Schema the recipe names for this path, if any. */
  readonly schemaFor: (path: string) => object | undefined;
  /** A path's state in the base tree (null where the base has no such file). */
  readonly baseState: (path: string) => Promise<FileState | null>;
  /** The repository's common git dir (the agent's response cache lives under it). */
  readonly gitDir: string;
  readonly noCache: boolean;
  /** The run's structural workers (astgrep, jscodeshift steps); absent: the step starts its own. */
  readonly structural?: () => StructuralPool;
  /** `scion plan`: model conversations are estimated, never started (no request is sent). */
  readonly estimate?: boolean;
  /** The step cache for `run` steps; absent: commands always run. */
  readonly commands?: CommandCache;
  /**
   * Fires when the step runs past its `timeout` (reason: a `timeout` ScionError) or the run is aborted
   * (RunOptions.signal). Whatever the step waits on (child processes, workers, requests) must stop.
   */
  readonly signal: AbortSignal;
  /** Epoch ms at which the step's own `timeout` runs out; null when it has none. */
  readonly deadline: number | null;
  log(message: string): void;
  /** Model usage is metered as it is spent: a step cut by its limit still spent it. */
  addUsage(u: Usage): void;
}

const LFS_POINTER = 'version https://git-lfs.github.com/spec/v1';
/** The files `refuseLfs` refuses, as a scan's probe names them (so a scan hands them back to be refused by name). */
export const LFS_POINTERS = { prefix: Buffer.from(LFS_POINTER, 'latin1'), below: 1024 } as const;

/**
 * Normalise a path a step names and check it may be touched: not UNC, not escaping the repository
 * (also through a symlinked folder), not denied, inside the selection, and a regular file.
 */
export function guardPath(ctx: StepContext, raw: string): Result<string> {
  const checked = checkPath(raw, { isDenied: ctx.isDenied });
  if (!checked.ok) return checked;
  const path = checked.value;
  // The workspace's one "does this write remove anything?" check (symlinks, submodules, folders).
  const writable = ctx.ws.writable(path);
  if (!writable.ok) return writable;
  if (!ctx.selected(path)) {
    return fail(failure('denied', `${path} is not in this job's files selection; widen files.include or narrow the step.`, { path }));
  }
  return ok(path);
}

/** Reads a guarded path, refusing Git LFS pointer files (rewriting one would corrupt the LFS object). */
export async function readGuarded(ctx: StepContext, path: string): Promise<Result<Uint8Array | null>> {
  return refuseLfs(path, await ctx.ws.read(path));
}

export function refuseLfs(path: string, bytes: Uint8Array | null): Result<Uint8Array | null> {
  if (bytes !== null && bytes.length < LFS_POINTERS.below && Buffer.from(bytes.subarray(0, LFS_POINTER.length)).toString('latin1') === LFS_POINTER) {
    return fail(failure('unsupported', `${path} is a Git LFS pointer; scion never rewrites LFS files.`, { path }));
  }
  return ok(bytes);
}

export function engineOptions(ctx: StepContext, path: string, extra: Partial<EngineOptions> = {}): EngineOptions {
  const schema = ctx.schemaFor(path);
  return {
    isDenied: ctx.isDenied,
    suggestPaths: (p) => similarPaths(ctx.ws.paths(), p),
    ...(schema ? { jsonSchema: schema } : {}),
    ...extra,
  };
}

/** Up to three existing paths that look like the missing one: same name elsewhere, or a near name. */
export function similarPaths(paths: readonly string[], missing: string): string[] {
  const base = missing.slice(missing.lastIndexOf('/') + 1).toLowerCase();
  const stem = base.replace(/\.[^.]*$/, '');
  const scored: [number, string][] = [];
  for (const p of paths) {
    const name = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
    if (name === base) scored.push([0, p]);
    else if (stem.length >= 3 && name.startsWith(stem)) scored.push([1, p]);
  }
  return scored
    .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]))
    .slice(0, 3)
    .map(([, p]) => p);
}
