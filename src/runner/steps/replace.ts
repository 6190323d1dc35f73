// `replace`: the same edit on every selected file that contains old_string. Files without a match
// are left alone; a file that matches but cannot be edited safely (not unique, binary, bad encoding)
// is an error for that file only.
import { applyEdits, replaceRegex } from '../../core/index.js';
import { matcher } from '../../recipe/index.js';
import { engineOptions, guardPath, refuseLfs, reportError, type StepContext } from '../step-context.js';

export interface ReplaceStep {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
  readonly regex?: boolean;
  readonly files?: { readonly include?: readonly string[]; readonly exclude?: readonly string[] };
}

const PARALLEL_READS = 32;

export async function runReplace(ctx: StepContext, step: ReplaceStep): Promise<void> {
  const narrow = step.files ? matcher({ include: step.files.include ?? ['**'], exclude: step.files.exclude ?? [] }) : () => true;
  const mayContain = step.regex ? regexProbe(step.old_string) : literalProbe(step.old_string);
  const candidates = ctx.ws.paths().filter((p) => ctx.selected(p) && narrow(p) && isRegularFile(ctx.ws.mode(p)));

  // Reads run in parallel (they dominate on big trees); edits and writes stay serial and in order.
  for (let i = 0; i < candidates.length; i += PARALLEL_READS) {
    const batch = candidates.slice(i, i + PARALLEL_READS);
    const contents = await Promise.all(batch.map((p) => ctx.ws.read(p)));
    for (const [k, path] of batch.entries()) {
      const bytes = contents[k];
      if (!bytes || !mayContain(bytes)) continue;
      await replaceIn(ctx, step, path, bytes);
    }
  }
}

async function replaceIn(ctx: StepContext, step: ReplaceStep, candidate: string, content: Uint8Array): Promise<void> {
  const path = guardPath(ctx, candidate);
  if (!path.ok) return reportError(ctx, candidate, path.error);
  const bytes = refuseLfs(path.value, content);
  if (!bytes.ok) return reportError(ctx, path.value, bytes.error);
  const file = { path: path.value, bytes: bytes.value };
  const opts = engineOptions(ctx, path.value);
  const result = step.regex
    ? replaceRegex(file, step.old_string, step.new_string, step.replace_all ?? false, opts)
    : applyEdits(file, [{ old_string: step.old_string, new_string: step.new_string, replace_all: step.replace_all ?? false }], opts);
  if (!result.ok) {
    // The probe is a necessary condition only: a file it let through may still lack the string.
    if (result.error.kind === 'not-found') return;
    return reportError(ctx, path.value, result.error);
  }
  if (result.value.changed) await ctx.ws.write(path.value, result.value.after);
}

function isRegularFile(mode: string | undefined): boolean {
  return mode === '100644' || mode === '100755';
}

/**
 * A cheap byte-level test that a file may contain old_string, before any decoding. The engine may
 * still match through curly quotes, API desanitisation or CRLF, so the probe looks for the longest
 * piece of old_string that none of those rewrite. UTF-16 files always pass (their bytes differ).
 */
export function literalProbe(oldString: string): (bytes: Uint8Array) => boolean {
  const pieces = oldString.split(/['"\u2018\u2019\u201c\u201d<>\n\r:]/);
  const longest = pieces.reduce((a, b) => (b.length > a.length ? b : a), '');
  const needle = Buffer.from(longest, 'utf8');
  return (bytes) => {
    if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return true;
    if (needle.length === 0) return true;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) !== -1;
  };
}

function regexProbe(pattern: string): (bytes: Uint8Array) => boolean {
  const re = new RegExp(pattern);
  const utf16 = new TextDecoder('utf-16le');
  const utf8 = new TextDecoder('utf-8');
  return (bytes) => {
    const text = bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe ? utf16.decode(bytes) : utf8.decode(bytes);
    return re.test(text.replaceAll('\r\n', '\n'));
  };
}
