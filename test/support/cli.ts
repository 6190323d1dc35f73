// Drives the real CLI in process (same code path as bin/scion.js) and captures what it prints.
import { main } from '../../src/cli/main.js';
import type { Clock } from '../../src/host/budget.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `signal` stands for SIGINT/SIGTERM, as the process entry (src/cli/process.ts) passes it. */
export async function scion(
  args: readonly string[],
  o: { cwd: string; env?: Record<string, string | undefined>; tty?: boolean; signal?: AbortSignal; clock?: Clock },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const env: Record<string, string | undefined> = { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', ...o.env };
  const code = await main(args, {
    cwd: o.cwd,
    env,
    stdout: { write: (s: string) => (stdout += s), isTTY: o.tty ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: o.tty ?? false },
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
  });
  return { code, stdout, stderr };
}

/** A clock for host waits that never waits: each sleep moves its time on at once and is recorded. */
export function fakeClock(start = Date.parse('2026-06-01T00:00:00Z')): Clock & { readonly sleeps: number[]; at: number } {
  const c = {
    at: start,
    sleeps: [] as number[],
    now: () => c.at,
    sleep: async (ms: number) => {
      c.sleeps.push(ms);
      c.at += ms;
    },
  };
  return c;
}
