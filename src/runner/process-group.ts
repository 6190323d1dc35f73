// Child processes that can be ended whole. A `run` command is `sh -c …`, which may start a pipeline,
// `npm`, a test runner with workers: killing only the shell leaves those running (and holding the
// worktree). So the child leads its own process group (detached: setsid), and ending it signals the
// whole group: SIGTERM first, SIGKILL after a grace period for what ignores SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';

/** How long a group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

export interface GroupChild {
  readonly process: ChildProcess;
  /** True once the signal fired while the child ran (the group was then ended). */
  aborted(): boolean;
}

/** null when `signal` has already fired: nothing is started. */
export function spawnGroup(
  file: string,
  args: readonly string[],
  o: { cwd: string; env: Record<string, string | undefined>; signal?: AbortSignal | undefined; graceMs?: number },
): GroupChild | null {
  if (o.signal?.aborted) return null;
  const child = spawn(file, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let aborted = false;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    aborted = true;
    killGroup(child, 'SIGTERM');
    timer = setTimeout(() => killGroup(child, 'SIGKILL'), o.graceMs ?? KILL_GRACE_MS);
    timer.unref();
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  // 'close' waits for the group's members that still hold the pipes, so the SIGKILL timer keeps
  // running until then; after it, nothing of the group is left to signal.
  child.on('close', () => {
    o.signal?.removeEventListener('abort', onAbort);
    if (timer) clearTimeout(timer);
    if (aborted) killGroup(child, 'SIGKILL');
  });
  child.on('error', () => o.signal?.removeEventListener('abort', onAbort));
  return { process: child, aborted: () => aborted };
}

function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}
