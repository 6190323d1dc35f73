// Exit statuses, and the one place that maps an error's kind to one of them and to the sentence the
// user reads. Nothing below the CLI knows about exit codes; everything it throws is a ScionError whose
// kind decides here.
import { fixHint, isJobKind, ScionError, type ScionErrorKind } from '../api/errors.js';
import { environmentError } from './environment.js';
import { inFlagWords } from './flags/words.js';
import type { CliIo } from './io.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
/** 128 + SIGINT: the run was interrupted (SIGINT/SIGTERM). */
export const EXIT_INTERRUPTED = 130;

/**
 * Kinds that mean nothing was run because of how scion was called: a flag, a recipe, a plan, a glob,
 * a --repo that is no repository, a base that names no commit, a repository layout scion cannot read.
 */
const USAGE_KINDS: ReadonlySet<ScionErrorKind> = new Set<ScionErrorKind>([
  'usage',
  'recipe',
  'plan',
  'bad-glob',
  'not-a-repository',
  'bad-revision',
  'unsupported',
]);

/** Kinds that are scion's own mistake (a caller inside scion broke a rule): reported as a bug. */
const BUG_KINDS: ReadonlySet<ScionErrorKind> = new Set<ScionErrorKind>(['invalid-argument']);

/** The exit status of an error of `kind`. */
export function exitCodeOf(kind: ScionErrorKind): number {
  if (USAGE_KINDS.has(kind)) return EXIT_USAGE;
  if (kind === 'interrupted') return EXIT_INTERRUPTED;
  return EXIT_FAILED;
}

/** `e` as the command line says it: the options the library named, as `command`'s flags. */
export function inCommandWords(e: ScionError, command: string | undefined): ScionError {
  const said = (s: string) => inFlagWords(s, command);
  const message = said(e.message);
  const problems = e.problems.map(said);
  const hint = e.hint === undefined ? undefined : said(e.hint);
  if (message === e.message && problems.every((p, i) => p === e.problems[i]) && hint === e.hint) return e;
  return new ScionError(e.kind, message, { data: { ...e.data }, problems, ...(hint === undefined ? {} : { hint }), cause: e });
}

/** Whether a usage error came from the command line itself (yargs' parse or a flag rule): its sentence ends with where --help is. */
export function fromArgv(e: ScionError): boolean {
  return e.kind === 'usage' && (e.data['argv'] === true || typeof e.data['flag'] === 'string');
}

/**
 * Prints what went wrong as one sentence (and each problem, and the fix where the kind has one) and
 * returns the exit status. A network failure, a host's refusal or the machine refusing is said as
 * such; only an error scion cannot name is reported as a bug.
 */
export function reportError(io: CliIo, e: unknown): number {
  const known = e instanceof ScionError ? e : (environmentError(e) ?? networkError(e));
  if (known !== undefined && !BUG_KINDS.has(known.kind)) {
    io.stderr.write(`scion: ${known.message}\n`);
    for (const p of known.problems) io.stderr.write(`  ${p}\n`);
    const code = exitCodeOf(known.kind);
    const hint = code !== EXIT_FAILED || known.kind === 'environment' ? undefined : (known.hint ?? (isJobKind(known.kind) ? fixHint(known.kind) : undefined));
    if (hint !== undefined) io.stderr.write(`  fix: ${hint}\n`);
    return code;
  }
  const msg = e instanceof Error ? e.message : String(e);
  const debug = io.env['SCION_DEBUG'] ? '' : ' (set SCION_DEBUG=1 for a stack trace)';
  io.stderr.write(`scion: internal error: ${msg}\nThis is a bug in scion; please report it with the command you ran${debug}.\n`);
  if (io.env['SCION_DEBUG'] && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
  return EXIT_FAILED;
}

/** Node's network errors (no answer at all) as kind `remote`: the network is not a bug. */
function networkError(e: unknown): ScionError | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !NETWORK_CODES.has(code)) return undefined;
  const msg = e instanceof Error ? e.message : String(e);
  return new ScionError('remote', `Could not reach the server (${msg}); check the network and the remote's URL, then run again.`, { data: { code } });
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);
