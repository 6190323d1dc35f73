// A `run` step or verify command through the step cache: look its key up; on a hit put the recorded
// changes on disk (as the command would have) and pick them up, without running anything; on a miss
// run it and record what it did. The caller treats both the same afterwards (deny/selection checks).
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { hashBlob } from '../git/index.js';
import { changesBetween } from '../verify/changes-between.js';
import type { CommandRun } from '../verify/loop.js';
import { isMissing, writeAtomic } from '../workspace/disk.js';
import type { Changes, FileState, Workspace } from '../workspace/types.js';
import { keyedEnv, stepKey, type ChangeToRecord, type FileRecord, type StepCache, type StepKind } from './step-cache.js';

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
  /** Runs the command for real. */
  readonly exec: () => Promise<CommandRun>;
  /** Whether a result may be stored (a run step: only when it passed). */
  readonly record: (r: CommandRun) => boolean;
  /** The base's state of a path (for a file the command put back as it was). */
  readonly baseState: (path: string) => Promise<FileState | null>;
  /** `run` steps replay their file changes; a verify command's writes are not part of the result. */
  readonly withChanges: boolean;
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
  const root = i.ws.root;
  if (root === null) throw new Error('cachedCommand needs a workspace on disk');
  const key = stepKey({ kind: i.kind, command: i.command, env: keyedEnv(i.env, i.stepEnv), baseTree: i.baseTree, inputs: inputsOf(i.ws.changes()) });
  const hit = i.cache === null ? null : await i.cache.get(key);
  if (hit !== null) {
    if (i.withChanges) {
      for (const [path, state] of hit.files) {
        const file = join(root, path);
        if (state === null) await unlink(file).catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)));
        else await writeAtomic(file, state.bytes, state.mode);
      }
      await i.ws.sync();
    }
    return { status: hit.entry.status, signal: hit.entry.signal, output: hit.entry.output, cached: true };
  }
  const before = new Map(i.ws.changes());
  const r = await i.exec();
  if (i.cache !== null && !r.aborted && i.record(r)) {
    let changes: ChangeToRecord[] = [];
    if (i.withChanges) {
      await i.ws.sync();
      const delta = await changesBetween(before, i.ws.changes(), i.baseState);
      changes = [...delta].map(([path, s]) => (s === null ? { path, deleted: true as const } : { path, bytes: s.bytes, mode: s.mode }));
    }
    await i.cache.put(key, i.kind, i.command, r, changes);
  }
  return { ...r, cached: false };
}
