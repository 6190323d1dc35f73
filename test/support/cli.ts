// Drives the real CLI in process (same code path as bin/scion.js) and captures what it prints.
import { main } from '../../src/cli/main.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `signal` stands for SIGINT/SIGTERM, as the process entry (src/cli/process.ts) passes it. */
export async function scion(
  args: readonly string[],
  o: { cwd: string; env?: Record<string, string | undefined>; tty?: boolean; signal?: AbortSignal },
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
  });
  return { code, stdout, stderr };
}
