// The process, as the CLI sees it: streams, environment, whether to colour. Injected so tests can
// drive the CLI in process and read what it printed.
export interface CliIo {
  readonly stdout: { write(s: string): unknown; readonly isTTY?: boolean; readonly columns?: number; readonly rows?: number };
  readonly stderr: { write(s: string): unknown; readonly isTTY?: boolean; readonly columns?: number; readonly rows?: number };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: CliIo, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return io[stream].isTTY === true;
}
