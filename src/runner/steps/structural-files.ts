// What the `astgrep` and `jscodeshift` steps share: the files they are offered (the job's selection,
// the step's `files`, the extensions the rule's languages or the transform's parser read), read
// through the workspace's scan (ahead of the engine) and sent to the run's pool of structural
// workers under the step's deadline and signal, the answers handled in path order; and a changed
// file written through the edit engine's checks (deny, paths, secrets, JSON validity, .gitmodules,
// encoding), as `replace` writes.
import { applyChanges } from '../../core/index.js';
import type { Change } from '../../core/edit/regions.js';
import { failure, type Failure, type Result } from '../../errors.js';
import { matcher } from '../../recipe/index.js';
import { StructuralPool, type PoolFile, type RunLimits } from '../../structural/index.js';
import { engineOptions, guardPath, refuseLfs, type StepContext } from '../step-context.js';
import type { Findings } from '../step-outcome.js';

/** Files handed to the pool ahead of the one being handled: enough to keep every worker busy. */
const AHEAD = 64;

export type Selection = { readonly include?: readonly string[]; readonly exclude?: readonly string[] } | undefined;

/**
 * The selected regular files the step reads, in path order. Symbolic links and submodules it would
 * have read are listed as skipped (scion never edits them), as `replace` lists them.
 */
export function offeredPaths(ctx: StepContext, files: Selection, reads: (path: string) => boolean, found: Findings): string[] {
  const narrow = files ? matcher({ include: files.include ?? ['**'], exclude: files.exclude ?? [] }) : () => true;
  const out: string[] = [];
  for (const p of ctx.ws.paths()) {
    if (!ctx.selected(p) || !narrow(p) || !reads(p)) continue;
    const mode = ctx.ws.mode(p);
    if (mode === '100644' || mode === '100755') out.push(p);
    else if (mode === '120000') found.skip(p, 'symlink');
    else if (mode === '160000') found.skip(p, 'submodule');
  }
  return out.sort();
}

/** What a step does with one answer: go on to the next file, or stop the step here. */
export type Verdict = 'go' | 'stop';

/** One file sent to the pool, and the request that answers for it. */
export interface Sent<T> {
  readonly file: PoolFile;
  readonly answer: Promise<Result<T> | Error>;
}

/**
 * Reads `paths` (through the workspace's scan), sends each file `send` accepts to the pool (`send`
 * returns the request, or null to pass the file by) and hands the answers to `handle` in path order.
 * Git LFS pointers are skipped. Stops when `handle` says so or the step's signal fires; requests still queued then are
 * withdrawn, so a stopped step leaves no work behind in the run's pool.
 */
export async function throughPool<T>(
  ctx: StepContext,
  paths: readonly string[],
  found: Findings,
  send: (file: PoolFile, limits: RunLimits) => Promise<Result<T>> | null,
  handle: (file: PoolFile, answer: Result<T> | Error) => Promise<Verdict>,
): Promise<void> {
  const own = new AbortController();
  const onAbort = () => own.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const limits = (): RunLimits => {
    const timeoutMs = ctx.deadline === null ? undefined : Math.max(0, ctx.deadline - Date.now());
    return timeoutMs === undefined ? { signal: own.signal } : { signal: own.signal, timeoutMs };
  };
  const queue: Sent<T>[] = [];
  const drain = async (keep: number): Promise<Verdict> => {
    while (queue.length > keep) {
      const next = queue.shift() as Sent<T>;
      if ((await handle(next.file, await next.answer)) === 'stop') return 'stop';
    }
    return 'go';
  };
  try {
    // Every file comes back from the scan (the engine reads all of them); LFS pointers are refused by name.
    for await (const { path, bytes } of ctx.ws.scan(paths, { needles: null }, ctx.signal)) {
      if (!bytes) continue;
      if (!refuseLfs(path, bytes).ok) {
        found.skip(path, 'lfs-pointer');
        continue;
      }
      const file = { path, bytes };
      const request = send(file, limits());
      if (request === null) continue;
      // A crashed worker rejects; it is answered like any other outcome, in order.
      queue.push({ file, answer: request.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))) });
      if ((await drain(AHEAD)) === 'stop') return;
    }
    if (ctx.signal.aborted) return;
    await drain(0);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    own.abort();
  }
}

/** The run's pool, or one of the step's own (closed by `done`) when the step runs outside a run. */
export function poolFor(ctx: StepContext): { readonly pool: StructuralPool; readonly done: () => void } {
  if (ctx.structural) return { pool: ctx.structural(), done: () => undefined };
  const pool = new StructuralPool();
  return { pool, done: () => pool.close() };
}

/**
 * A failure the engine or the pool answered for one file: a timeout or an interrupt ends the step
 * (the runner keeps nothing of it); a binary file is passed by; anything else fails that file only.
 */
export function settleFailure(found: Findings, path: string, f: Failure): Verdict {
  if (f.kind === 'binary') {
    found.skip(path, 'binary');
    return 'go';
  }
  found.error(path, f);
  return f.kind === 'timeout' || f.kind === 'interrupted' ? 'stop' : 'go';
}

/**
 * Writes a structural result: the path through the one gate (deny, selection, what the write would
 * remove), then the changed spans through the edit engine's checks. False when refused (said in `found`).
 */
export async function writeChanged(ctx: StepContext, found: Findings, file: PoolFile, changes: readonly Change[]): Promise<boolean> {
  const path = guardPath(ctx, file.path);
  if (!path.ok) {
    found.error(file.path, path.error);
    return false;
  }
  const result = applyChanges({ path: path.value, bytes: file.bytes }, changes, engineOptions(ctx, path.value));
  if (!result.ok) {
    found.error(path.value, result.error);
    return false;
  }
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
  return true;
}

/** A worker that died on a file (a native crash, a transform that exits): that file's failure. */
export function crashed(kind: 'unsupported' | 'transform', path: string, e: Error, what: string): Failure {
  return failure(kind, `${what} stopped while working on ${path} (${e.message}); the file was left as it was.`, { path });
}
