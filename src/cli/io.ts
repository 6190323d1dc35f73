// The process, as the CLI sees it: streams, environment, whether to colour. Injected so tests can
// drive the CLI in process and read what it printed.
import { makeRedactor, type Redactor } from '../redact.js';

export interface CliStream {
  write(s: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
}

export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Fires on SIGINT/SIGTERM (installed by the process entry, src/cli/process.ts); absent in tests that do not interrupt. */
  readonly signal?: AbortSignal;
  /** Reads all of standard input (`--repos -`); absent where there is none. */
  readonly readStdin?: () => Promise<string>;
  /** Masks secrets in everything the CLI prints or writes; set by `atEdge`. */
  readonly redact?: Redactor;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), readStdin: () => readAll(process.stdin) };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The CLI's edge (SPEC §7): stdout and stderr as seen below main() pass every write through one
 * redactor built from the environment, and `redact` is the same one for files (files.ts). Applied
 * once, in main(); idempotent.
 */
export function atEdge(io: CliIo): CliIo {
  if (io.redact) return io;
  const redact = makeRedactor(io.env);
  return { ...io, stdout: redacting(io.stdout, redact), stderr: redacting(io.stderr, redact), redact };
}

function redacting(stream: CliStream, redact: Redactor): CliStream {
  return {
    write: (s: string) => stream.write(redact(s)),
    // Live values: a terminal may be resized during a run.
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    get rows() {
      return stream.rows;
    },
  };
}

export function redactorOf(io: CliIo): Redactor {
  return io.redact ?? makeRedactor(io.env);
}

/**
 * Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org); FORCE_COLOR
 * turns it on anywhere. A `--color always|never` given on the command line overrides both.
 */
export function useColor(io: CliIo, stream: 'stdout' | 'stderr' = 'stdout', flag: 'auto' | 'always' | 'never' = 'auto'): boolean {
  if (flag !== 'auto') return flag === 'always';
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return io[stream].isTTY === true;
}
