// A `run` step or verify command through the step cache: look its key up; on a hit put the recorded
// changes in place (as the command would have) and pick them up, without running anything; on a miss
// run it and record what it did. The caller treats both the same afterwards (deny/selection checks).
// The key needs no files on disk (the base tree and the job's changes), nor does a replay: `exec`
// asks the workspace for its folder, so a job's files go to disk only when a command really runs.
// Output is recorded with the job's folder written as a placeholder, and read back with the folder
// the job has then: a pooled worktree's name changes from run to run, and a replay may come before
// any folder, so the absolute paths a command printed (ESLint's, a compiler's) still name the files.
import { hashBlob } from '../git/index.js';
import { makeRedactor } from '../redact.js';
import { changesBetween } from '../verify/changes-between.js';
import type { CommandRun } from '../verify/loop.js';
import type { Changes, FileState, Workspace } from '../workspace/types.js';
import { keyedEnv, stepKey, type ChangeToRecord, type FileRecord, type StepCache, type StepCacheHit, type StepKind } from './step-cache.js';

export interface CachedCommandInput {
  /** null: no step cache (the command always runs, nothing is recorded). */
  readonly cache: StepCache | null;
  readonly kind: StepKind;
  readonly command: string;
  /** The run's environment, and what the recipe gives this step. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stepEnv?: Readonly<Record<string, string>>;
  readonly baseTree: string;
  readonly ws: Workspace;
  /** Runs the command for real (in the workspace's folder: `ws.onDisk()`). */
  readonly exec: () => Promise<CommandRun>;
  /** Whether a result may be stored (a run step: only when it passed). */
  readonly record: (r: CommandRun) => boolean;
  /** The base's state of a path (for a file the command put back as it was). */
  readonly baseState: (path: string) => Promise<FileState | null>;
  /** `run` steps replay their file changes; a verify command's writes are not part of the result. */
  readonly withChanges: boolean;
  /** Progress lines (an ignored cache entry is said here). */
  readonly log: (message: string) => void;
}

export interface CachedCommandRun extends CommandRun {
  readonly cached: boolean;
}

export function inputsOf(changes: Changes): Map<string, FileRecord | null> {
  const out = new Map<string, FileRecord | null>();
  for (const [path, state] of changes) out.set(path, state === null ? null : { oid: hashBlob(state.bytes), mode: state.mode });
  return out;
}

export async function cachedCommand(i: CachedCommandInput): Promise<CachedCommandRun> {
  // The output goes to disk (.git/scion/step-cache) and back into reports: secrets of the command's
  // own environment (the run's and the step's `env`) are masked before it is stored, and
  // again when an entry is read (one written before masking, or by a run with other secrets).
  const redact = makeRedactor({ ...i.env, ...i.stepEnv });
  const key = stepKey({ kind: i.kind, command: i.command, env: keyedEnv(i.env, i.stepEnv), baseTree: i.baseTree, inputs: inputsOf(i.ws.changes()) });
  const hit = i.cache === null ? null : await i.cache.get(key, i.log);
  if (hit !== null && (!i.withChanges || (await replay(i.ws, hit, i.log)))) {
    return { status: hit.entry.status, signal: hit.entry.signal, output: withRoot(redact(hit.entry.output), i.ws.root), cached: true };
  }
  const before = new Map(i.ws.changes());
  const ran = await i.exec();
  const r: CommandRun = { ...ran, output: redact(ran.output) };
  if (i.cache !== null && !r.aborted && i.record(r)) {
    let changes: ChangeToRecord[] = [];
    if (i.withChanges) {
      await i.ws.sync();
      const delta = await changesBetween(before, i.ws.changes(), i.baseState);
      changes = [...delta].map(([path, s]) => (s === null ? { path, deleted: true as const } : { path, bytes: s.bytes, mode: s.mode }));
    }
    await i.cache.put(key, i.kind, redact(i.command), { ...r, output: withPlaceholder(r.output, i.ws.root) }, changes);
  }
  return { ...r, cached: false };
}

/** Stands for the job's folder in recorded output. */
const ROOT_PLACEHOLDER = '\u0000scion-job-folder\u0000';

function withPlaceholder(output: string, root: string | null): string {
  // A root of one character (`/`) would be found everywhere: it is left as it is.
  return root === null || root.length < 2 ? output : output.split(root).join(ROOT_PLACEHOLDER);
}

/** Recorded output with the job's folder now; `.` (paths relative to where the command runs) before there is one. */
function withRoot(output: string, root: string | null): string {
  return output.split(ROOT_PLACEHOLDER).join(root ?? '.');
}

/**
 * Puts a hit's recorded changes in place, in path order (a deleted symlink before the folder that
 * replaced it), each through the workspace's rules for a first write. One it refuses (an entry edited
 * to reach through a symlink, or into .git) undoes those before it, and the entry is ignored.
 */
async function replay(ws: Workspace, hit: StepCacheHit, log: (message: string) => void): Promise<boolean> {
  const undo = await ws.snapshot();
  for (const [path, state] of hit.files) {
    const placed = await ws.place(path, state);
    if (!placed.ok) {
      await undo();
      const why = placed.error.message;
      log(`step cache entry ${hit.file} would change ${JSON.stringify(path)}, which a command's change may not reach (${why}); ignored, the command runs`);
      return false;
    }
  }
  await ws.sync();
  return true;
}

/** What a job gives its `run` steps to go through the step cache. */
export interface CommandCache {
  readonly cache: StepCache;
  readonly baseTree: string;
  readonly baseState: (path: string) => Promise<FileState | null>;
}

/** A `run` step's shell command through the cache, in execShell's terms (code, signal, output). */
export async function cachedRunStep(
  c: CommandCache,
  ws: Workspace,
  step: { readonly command: string; readonly env?: Readonly<Record<string, string>> },
  env: Readonly<Record<string, string | undefined>>,
  exec: () => Promise<{ readonly code: number | null; readonly signal: string | null; readonly output: string; readonly aborted?: boolean }>,
  log: (message: string) => void,
): Promise<{ code: number | null; signal: string | null; output: string; aborted?: boolean }> {
  const r = await cachedCommand({
    cache: c.cache,
    kind: 'run',
    command: step.command,
    env,
    ...(step.env ? { stepEnv: step.env } : {}),
    baseTree: c.baseTree,
    ws,
    exec: async () => {
      const out = await exec();
      return { status: out.code, signal: out.signal, output: out.output, ...(out.aborted ? { aborted: true } : {}) };
    },
    record: (x) => x.status === 0,
    baseState: c.baseState,
    withChanges: true,
    log,
  });
  if (r.cached) log(`$ ${step.command} (replayed ${r.status === 0 ? 'its recorded changes' : 'its result'} from the step cache: not run)`);
  return { code: r.status, signal: r.signal, output: r.output, ...(r.aborted ? { aborted: true } : {}) };
}
