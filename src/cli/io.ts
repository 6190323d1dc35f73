// The process, as the CLI sees it: streams, environment, whether to colour. Injected so tests can
// drive the CLI in process and read what it printed.
import { makeRedactor, terminalText, type Redactor } from '../api/text.js';
import type { Clock } from '../api/track.js';

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
  /** The clock the write budget waits on; a test injects one (default: the system's). */
  readonly clock?: Clock;
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
 * The CLI's edge: stdout and stderr as seen below main() pass every write through one redactor built
 * from the environment (`redact` is the same one for files, files.ts), and through `terminalText`:
 * text from outside (a host's answer, a repository's name in an org listing, a server's error, a
 * command's output) never reaches the terminal with a live escape sequence or carriage return, on
 * whichever line it is printed. scion's own colours and the live view's cursor moves go through
 * `styled()` instead, whose callers show outside fields with `visible`; data meant for another
 * program (a patch) through `data()`. Applied once, in main(); idempotent.
 */
export function atEdge(io: CliIo): CliIo {
  if (io.redact) return io;
  const redact = makeRedactor(io.env);
  return { ...io, stdout: edge(io.stdout, redact), stderr: edge(io.stderr, redact), redact };
}

/** The unsanitised write of an edge stream (still redacted). */
const RAW = Symbol('scion.rawWrite');
type EdgeStream = CliStream & { readonly [RAW]?: (s: string) => unknown };

function edge(stream: CliStream, redact: Redactor): EdgeStream {
  return {
    write: (s: string) => stream.write(terminalText(redact(s))),
    [RAW]: (s: string) => stream.write(redact(s)),
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

/** `stream` with `write` replaced, its terminal facts kept live. */
function withWrite(stream: CliStream, write: (s: string) => unknown): CliStream {
  return {
    write,
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

/**
 * For scion's own styled output (renderers' colours, the live view): escape sequences pass the edge.
 * Every field from outside in it must already be shown with `visible` (report/ansi.ts).
 */
export function styled(stream: CliStream): CliStream {
  const raw = (stream as EdgeStream)[RAW];
  return raw === undefined ? stream : withWrite(stream, raw);
}

/** Data for another program (a patch for `git apply`): byte for byte through a pipe, made safe on a terminal. */
export function data(stream: CliStream): CliStream {
  return stream.isTTY === true ? stream : styled(stream);
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
