// `replace`: the same edit on every selected file that contains old_string. Files without a match
// are left alone; a file that matches but cannot be edited safely (not unique, binary, bad encoding)
// is an error for that file only.
import { applyEdits, RegexRunner, replaceRegexBounded, type Bounded, type RegexMatch } from '../../core/index.js';
import { failure, fail, ok, type Result } from '../../errors.js';
import { matcher } from '../../recipe/index.js';
import { REGEX_FILE_TIMEOUT_MS } from '../step-bounds.js';
import { bufferIsBinary, type BlobProbe } from '../../git/index.js';
import { engineOptions, guardPath, LFS_POINTERS, refuseLfs, type StepContext } from '../step-context.js';
import { Findings, type StepOutcome } from '../step-outcome.js';

export interface ReplaceStep {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
  readonly regex?: boolean;
  readonly files?: { readonly include?: readonly string[]; readonly exclude?: readonly string[] };
}

export async function runReplace(ctx: StepContext, step: ReplaceStep): Promise<StepOutcome> {
  const found = new Findings();
  const narrow = step.files ? matcher({ include: step.files.include ?? ['**'], exclude: step.files.exclude ?? [] }) : () => true;
  const candidates: string[] = [];
  // Paths scion never edits are left alone and said so (the kind `unsupported` is for a step that names one).
  for (const p of ctx.ws.paths()) {
    if (!ctx.selected(p) || !narrow(p)) continue;
    const mode = ctx.ws.mode(p);
    if (isRegularFile(mode)) candidates.push(p);
    else if (mode === '120000') found.skip(p, 'symlink');
    else if (mode === '160000') found.skip(p, 'submodule');
  }
  // User patterns run in a worker under a deadline (core/engine/regex-runner.ts): one worker for the whole step.
  const regex = step.regex ? new RegexRunner() : null;
  const literal = literalProbe(step.old_string);
  // The scan reads ahead of the edits (they stay serial and in path order) and hands back only the
  // files that may hold old_string and the LFS pointers (refused by name); a regular expression
  // cannot be tested on bytes, so then every file comes back.
  const probe: BlobProbe = { needles: regex ? null : literalNeedles(step.old_string), small: LFS_POINTERS };
  try {
    for await (const file of ctx.ws.scan(candidates, probe, ctx.signal)) {
      const { path, bytes } = file;
      if (bytes === null) {
        if (file.binary) found.skip(path, 'binary');
        continue;
      }
      if (!refuseLfs(path, bytes).ok) {
        found.skip(path, 'lfs-pointer');
        continue;
      }
      let may: boolean;
      if (regex) {
        const probe = await regexProbe(ctx, regex, step.old_string, path, bytes);
        if (!probe.ok) {
          found.error(path, probe.error);
          return found.outcome();
        }
        may = probe.value;
      } else may = literal(bytes);
      if (!may) {
        if (bufferIsBinary(bytes)) found.skip(path, 'binary');
        continue;
      }
      if (ctx.signal.aborted) return found.outcome();
      const stop = await replaceIn(ctx, found, step, path, bytes, regex);
      if (stop) return found.outcome();
    }
  } finally {
    regex?.close();
  }
  return found.outcome();
}

/** The time one file's regular expression may take: the step's remaining time, else 10 s. */
function fileLimitMs(ctx: StepContext): number {
  return ctx.deadline === null ? REGEX_FILE_TIMEOUT_MS : ctx.deadline - Date.now();
}

/** A worker's answer as a Result: a pattern that ran out of time is the step's `timeout`. */
function bounded<T>(ctx: StepContext, r: Bounded<T>, pattern: string, path: string): Result<T> {
  if (r.ok) return ok(r.value);
  if (r.error.reason === 'timeout') {
    const limit = ctx.deadline === null ? `the ${REGEX_FILE_TIMEOUT_MS / 1000} s limit per file` : "the step's timeout";
    return fail(
      failure(
        'timeout',
        `The pattern /${pattern}/ ran past ${limit} on ${path} (the regular expression backtracks too much); nothing this step changed was kept.`,
        { path, pattern },
      ),
    );
  }
  if (r.error.reason === 'aborted') return fail(failure('interrupted', `The step was stopped while matching /${pattern}/ on ${path}.`, { path }));
  return fail(failure('unsupported', `The pattern /${pattern}/ could not run on ${path}: ${r.error.message}`, { path, pattern }));
}

/** Returns true when the step must stop here (its time ran out). */
async function replaceIn(
  ctx: StepContext,
  found: Findings,
  step: ReplaceStep,
  candidate: string,
  content: Uint8Array,
  regex: RegexRunner | null,
): Promise<boolean> {
  const path = guardPath(ctx, candidate);
  if (!path.ok) {
    found.error(candidate, path.error);
    return false;
  }
  const bytes = refuseLfs(path.value, content);
  if (!bytes.ok) {
    found.error(path.value, bytes.error);
    return false;
  }
  const file = { path: path.value, bytes: bytes.value };
  const opts = engineOptions(ctx, path.value);
  const matchIn = async (text: string): Promise<Result<readonly RegexMatch[]>> =>
    bounded(ctx, await regex!.run('matches', step.old_string, 'g', text, fileLimitMs(ctx), ctx.signal), step.old_string, path.value);
  const result = regex
    ? await replaceRegexBounded(file, step.old_string, step.new_string, step.replace_all ?? false, opts, matchIn)
    : applyEdits(file, [{ old_string: step.old_string, new_string: step.new_string, replace_all: step.replace_all ?? false }], opts);
  if (!result.ok) {
    // The probe is a necessary condition only: a file it let through may still lack the string.
    if (result.error.kind === 'not-found') return false;
    // A binary file is an error only when it holds the match (a literal one, byte for byte).
    if (result.error.kind === 'binary' && !regex && !Buffer.from(content).includes(Buffer.from(step.old_string, 'utf8'))) {
      found.skip(path.value, 'binary');
      return false;
    }
    found.error(path.value, result.error);
    return result.error.kind === 'timeout' || result.error.kind === 'interrupted';
  }
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
  return false;
}

function isRegularFile(mode: string | undefined): boolean {
  return mode === '100644' || mode === '100755';
}

/**
 * The longest piece of old_string that the engine never rewrites on its way to a match (curly
 * quotes, API desanitisation and CRLF may match other bytes than old_string's own): a file that
 * may contain old_string holds this piece's bytes.
 */
function stablePiece(oldString: string): string {
  const pieces = oldString.split(/['"\u2018\u2019\u201c\u201d<>\n\r:]/);
  return pieces.reduce((a, b) => (b.length > a.length ? b : a), '');
}

/**
 * A cheap byte-level test that a file may contain old_string, before any decoding: it holds the
 * stable piece's UTF-8 bytes. UTF-16 files always pass (their bytes differ).
 */
export function literalProbe(oldString: string): (bytes: Uint8Array) => boolean {
  const needle = Buffer.from(stablePiece(oldString), 'utf8');
  return (bytes) => {
    if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return true;
    if (needle.length === 0) return true;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) !== -1;
  };
}

/**
 * What a scan looks for so as to hand back every file `literalProbe` lets through but UTF-16 files
 * without old_string: the stable piece in UTF-8 and in UTF-16LE (a UTF-16 file holding old_string
 * holds it so). Null (every file) when old_string has no such piece.
 */
export function literalNeedles(oldString: string): Uint8Array[] | null {
  const piece = stablePiece(oldString);
  return piece === '' ? null : [Buffer.from(piece, 'utf8'), Buffer.from(piece, 'utf16le')];
}

/** Does the pattern match the file's text (UTF-8, or UTF-16LE with BOM; CRLF read as LF)? Bounded like every match. */
async function regexProbe(ctx: StepContext, runner: RegexRunner, pattern: string, path: string, bytes: Uint8Array): Promise<Result<boolean>> {
  const utf16 = bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe;
  const text = new TextDecoder(utf16 ? 'utf-16le' : 'utf-8').decode(bytes).replaceAll('\r\n', '\n');
  return bounded(ctx, await runner.run('test', pattern, '', text, fileLimitMs(ctx), ctx.signal), pattern, path);
}
