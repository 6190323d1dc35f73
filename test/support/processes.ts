// Process checks for fault tests: is a pid still a live process (a zombie waiting for its reaper
// counts as gone), and polling for a condition another process brings about.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCION_COMMAND } from './spawn-cli.js';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; after the ")" that ends the command name.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `cond` every 20 ms; throws after `limitMs` (a generous bound, not a timing assertion). */
export async function waitFor(cond: () => boolean, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until each file in `dir` holds a whole pid line (a shell's `echo $$ > f` may be seen half done). */
export async function pidsIn(dir: string, files: readonly string[]): Promise<number[]> {
  const read = (f: string): number | null => {
    try {
      const text = readFileSync(join(dir, f), 'utf8');
      return /^\d+\n$/.test(text) ? Number(text.trim()) : null;
    } catch {
      return null;
    }
  };
  await waitFor(() => files.every((f) => read(f) !== null));
  return files.map((f) => read(f)!);
}

/** Starts `scion <args>` as a child process (its own process, not the test's) in `cwd`. */
export function spawnScion(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(SCION_COMMAND[0]!, [...SCION_COMMAND.slice(1), ...args], {
    cwd,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the exit code (or the signal's name) once the process has ended. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once('exit', (code, sig) => resolve(code ?? sig ?? -1)));
}

/** SIGKILL to a whole process group (a run command scion started in its own group, orphaned by kill -9). */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
