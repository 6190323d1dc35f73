// A step in bounded time (its `timeout`, and no step may hang a run). The step gets an AbortSignal that
// fires at its deadline or when the run is aborted; steps that wait on something (a child process, a
// regex worker, the model) honour it. A step that ignores it (a transform that never settles) is
// left behind: the job moves on, and the step's workspace is fenced so nothing it does later lands.
import { failure, isScionError, ScionError } from '../errors.js';
import type { Workspace } from '../workspace/types.js';
import { sleep } from '../util/sleep.js';

export const VERIFY_TIMEOUT_SECONDS = 600;
/** Per file, for `replace` with `regex: true` when the step names no `timeout`. */
export const REGEX_FILE_TIMEOUT_MS = 10_000;
/** How long a step may take to wind down (kill its child, end its worker) after its signal fired. */
const GRACE_MS = 3_000;

export interface Bounds {
  /** Fires at the step's deadline (reason: a `timeout` ScionError) or on the run's abort (its reason). */
  readonly signal: AbortSignal;
  /** Epoch ms at which the step's own limit runs out; null without one. */
  readonly deadline: number | null;
}

/** The abort reason of a step past its limit: a ScionError of kind `timeout` (steps/command.ts reads the kind). */
export function stepTimeout(limitMs: number): ScionError {
  return new ScionError(failure('timeout', `the step ran past its timeout of ${limitMs / 1000} s`, { timeoutSeconds: limitMs / 1000 }));
}

/** Whether an abort reason is a step's own deadline. */
export function isStepTimeout(reason: unknown): boolean {
  return isScionError(reason, 'timeout');
}

export type BoundedOutcome = 'done' | 'timeout' | 'interrupted';

/**
 * Runs `body` under a limit and the run's signal. 'done': it settled in time (a throw is rethrown).
 * 'timeout' / 'interrupted': its signal fired; it had GRACE_MS to wind down and may still be running.
 */
export async function runBounded(limitMs: number | null, runSignal: AbortSignal | undefined, body: (b: Bounds) => Promise<void>): Promise<BoundedOutcome> {
  const controller = new AbortController();
  const deadline = limitMs === null ? null : Date.now() + limitMs;
  const onRunAbort = () => controller.abort(runSignal?.reason);
  if (runSignal?.aborted) return 'interrupted';
  runSignal?.addEventListener('abort', onRunAbort, { once: true });
  const timer = limitMs === null ? null : setTimeout(() => controller.abort(stepTimeout(limitMs)), limitMs);
  const task = body({ signal: controller.signal, deadline });
  // A step left behind must not surface later as an unhandled rejection.
  task.catch(() => undefined);
  try {
    const fired = new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
    const first = await Promise.race([task.then(() => 'settled' as const), fired.then(() => 'fired' as const)]);
    // A result that comes after the deadline is a timeout, even when the timer could not fire first
    // (synchronous code held the thread): a late result is never kept.
    if (first === 'settled') {
      if (deadline === null || Date.now() <= deadline) return 'done';
      if (!controller.signal.aborted) controller.abort(stepTimeout(limitMs!));
      return isStepTimeout(controller.signal.reason) ? 'timeout' : 'interrupted';
    }
    await Promise.race([task, sleep(GRACE_MS)]).catch(() => undefined);
    return isStepTimeout(controller.signal.reason) ? 'timeout' : 'interrupted';
  } finally {
    if (timer) clearTimeout(timer);
    runSignal?.removeEventListener('abort', onRunAbort);
  }
}

/** The workspace as a step sees it: once the step's signal fired, it may no longer change anything. */
export function fencedWorkspace(ws: Workspace, signal: AbortSignal): Workspace {
  const check = () => {
    // A step left behind (its timeout, or an interrupt) that writes anyway: refused with the kind that stopped it.
    if (signal.aborted) {
      throw new ScionError(
        isStepTimeout(signal.reason) ? 'timeout' : 'interrupted',
        'the step was stopped (timeout or interrupt); its late changes are dropped',
      );
    }
  };
  return {
    get root() {
      return ws.root;
    },
    onDisk: async (signal) => {
      check();
      return ws.onDisk(signal);
    },
    paths: () => ws.paths(),
    mode: (p) => ws.mode(p),
    read: (p) => ws.read(p),
    scan: (paths, probe, signal) => ws.scan(paths, probe, signal),
    writable: (p) => ws.writable(p),
    write: async (p, bytes) => {
      check();
      await ws.write(p, bytes);
    },
    place: async (p, state) => {
      check();
      return ws.place(p, state);
    },
    sync: async () => {
      check();
      await ws.sync();
    },
    changes: () => ws.changes(),
    revert: async (paths, to) => {
      check();
      await ws.revert(paths, to);
    },
    snapshot: () => ws.snapshot(),
  };
}
