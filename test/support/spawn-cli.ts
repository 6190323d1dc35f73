// Spawns the CLI as a real process (test/support/scion-bin.ts through tsx): for what only a real
// process shows — exit codes set by the entry, signals, what reaches the real stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Resolved here, not from the child's cwd (a temp folder with no node_modules).
const tsx = import.meta.resolve('tsx');
const entry = fileURLToPath(new URL('./scion-bin.ts', import.meta.url));

/**
 * The command line of the real CLI from the sources, `bin/scion.js` without a build: for a child
 * process started some other way (a shell, `script` for a pseudo-terminal, a workflow's step).
 */
export const SCION_COMMAND: readonly string[] = [process.execPath, '--import', tsx, entry];

export interface Spawned {
  readonly child: ChildProcess;
  /** Resolves when the process has exited: its exit code (null when killed by a signal) and output. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves once stderr+stdout together contain `text`. */
  readonly waitFor: (text: string | RegExp) => Promise<void>;
}

export function spawnScion(args: readonly string[], o: { cwd: string; env?: Record<string, string | undefined> }): Spawned {
  const env: Record<string, string | undefined> = { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', CI: 'true', ...o.env };
  const child = spawn(SCION_COMMAND[0]!, [...SCION_COMMAND.slice(1), ...args], {
    cwd: o.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { test: (s: string) => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.test(stdout + stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => ((stdout += d), check()));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => ((stderr += d), check()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const waitFor = (text: string | RegExp) =>
    new Promise<void>((resolve, reject) => {
      const test = (s: string) => (typeof text === 'string' ? s.includes(text) : text.test(s));
      if (test(stdout + stderr)) return resolve();
      waiters.push({ test, resolve });
      void done.then(() => reject(new Error(`the process ended before printing ${String(text)}:\n${stdout}\n${stderr}`)));
    });
  return { child, done, waitFor };
}
