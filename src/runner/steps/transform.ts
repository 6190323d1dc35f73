// `transform` (module recipes): a function from a file's text to its new text, on every selected file.
// The text is LF; the file's encoding and line endings are restored on the way back.
import { decodeText, encodeText, writeContent } from '../../core/index.js';
import { failure } from '../../errors.js';
import type { TransformFn } from '../../recipe/index.js';
import { engineOptions, guardPath, refuseLfs, reportError, type StepContext } from '../step-context.js';


export async function runTransform(ctx: StepContext, fn: TransformFn): Promise<void> {
  for (const candidate of ctx.ws.paths()) {
    const mode = ctx.ws.mode(candidate);
    if (!ctx.selected(candidate) || (mode !== '100644' && mode !== '100755')) continue;
    const path = guardPath(ctx, candidate);
    if (!path.ok) continue; // denied files are simply not offered to the transform
    const bytes = refuseLfs(path.value, await ctx.ws.read(path.value));
    if (!bytes.ok || bytes.value === null) continue;
    const decoded = decodeText(bytes.value);
    if (!decoded.ok) continue; // binary or undecodable: nothing a text transform can safely see
    let next: string | undefined | null;
    try {
      next = await fn({ path: path.value, content: decoded.value.text });
    } catch (e) {
      reportError(ctx, path.value, failure('command-failed', `The transform threw on ${path.value}: ${e instanceof Error ? e.message : String(e)}`));
      continue;
    }
    if (typeof next !== 'string' || next === decoded.value.text) continue;
    const result = writeContent({ path: path.value, bytes: bytes.value }, next, engineOptions(ctx, path.value));
    if (!result.ok) {
      reportError(ctx, path.value, result.error);
      continue;
    }
    const { encoding, lineEndings } = decoded.value;
    const after = lineEndings === 'CRLF' ? encodeText(result.value.newText, encoding, 'CRLF') : result.value.after;
    await ctx.ws.write(path.value, after);
  }
}
