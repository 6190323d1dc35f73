// `transform` (module recipes): a function from a file's text to its new text, on every selected file.
// The text is LF; the file's encoding and line endings are restored on the way back.
import { decodeText, encodeText, writeContent } from '../../core/index.js';
import { failure } from '../../errors.js';
import type { TransformFn } from '../../recipe/index.js';
import { engineOptions, guardPath, refuseLfs, type StepContext } from '../step-context.js';
import { Findings, type StepOutcome } from '../step-outcome.js';

const TRANSFORM_THREW =
  'The transform function threw: fix the recipe module (its message and the file are given), or make it return undefined for files it cannot handle.';
const TRANSFORM_RESULT = 'Make the transform return a string (the whole new content) or undefined to leave the file alone.';

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v} (${String(v).slice(0, 40)})`;
}

export async function runTransform(ctx: StepContext, fn: TransformFn): Promise<StepOutcome> {
  const found = new Findings();
  for (const candidate of ctx.ws.paths()) {
    const mode = ctx.ws.mode(candidate);
    if (!ctx.selected(candidate) || (mode !== '100644' && mode !== '100755')) continue;
    const path = guardPath(ctx, candidate);
    if (!path.ok) continue; // denied files are simply not offered to the transform
    const bytes = refuseLfs(path.value, await ctx.ws.read(path.value));
    if (!bytes.ok || bytes.value === null) continue;
    const decoded = decodeText(bytes.value);
    if (!decoded.ok) continue; // binary or undecodable: nothing a text transform can safely see
    let next: unknown;
    try {
      next = await fn({ path: path.value, content: decoded.value.text });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      found.error(
        path.value,
        failure('command-failed', `The transform threw on ${path.value}: ${why}`, { path: path.value }, TRANSFORM_THREW),
      );
      continue;
    }
    if (ctx.signal.aborted) return found.outcome();
    if (next === undefined || next === null) continue;
    if (typeof next !== 'string') {
      // A transform that returns a number or an object has a bug; writing String(next) would be worse.
      found.error(
        path.value,
        failure('invalid-result', `The transform returned ${describe(next)} for ${path.value}; it must return the new content as a string, or undefined to leave the file alone.`, { path: path.value }, TRANSFORM_RESULT),
      );
      continue;
    }
    if (next === decoded.value.text) continue;
    const result = writeContent({ path: path.value, bytes: bytes.value }, next, engineOptions(ctx, path.value));
    if (!result.ok) {
      found.error(path.value, result.error);
      continue;
    }
    const { encoding, lineEndings } = decoded.value;
    const after = lineEndings === 'CRLF' ? encodeText(result.value.newText, encoding, 'CRLF') : result.value.after;
    await ctx.ws.write(path.value, after);
  }
  return found.outcome();
}
