// `transform` (module recipes): a function from a file's text to its new text, on every selected file.
// The text is LF; the file's encoding and line endings are restored on the way back. The function runs
// in a worker thread (transform-worker.ts), so its step's timeout and an interrupt stop it even when
// it never yields.
import { decodeText, encodeText, writeContent } from '../../core/index.js';
import { failure } from '../../errors.js';
import { transformOrigin, type TransformFn } from '../../recipe/index.js';
import { engineOptions, guardPath, refuseLfs, type StepContext } from '../step-context.js';
import { Findings, type StepOutcome } from '../step-outcome.js';
import { TransformWorker, type TransformReply } from './transform-worker.js';

const TRANSFORM_THREW =
  'The transform function threw: fix the recipe module (its message and the file are given), or make it return undefined for files it cannot handle.';
const TRANSFORM_RESULT = 'Make the transform return a string (the whole new content) or undefined to leave the file alone.';

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v} (${String(v).slice(0, 40)})`;
}

type Call = (path: string, content: string) => Promise<TransformReply>;

/**
 * A transform given as a function in code (the library API, no module to load it from) runs on this
 * thread: a function cannot be sent to a worker. The step's deadline holds for what it returns late
 * (step-bounds.ts): a result after the deadline stops the step, so no further file is offered to it
 * (synchronous code holds the thread, and the deadline's timer cannot fire until it returns). Code
 * that never returns cannot be stopped here; async code that never settles is left behind.
 */
function inProcess(fn: TransformFn, deadline: number | null): Call {
  return async (path, content) => {
    try {
      const v: unknown = await fn({ path, content });
      if (deadline !== null && Date.now() > deadline) return { kind: 'stopped' };
      if (v === undefined || v === null) return { kind: 'value', value: null };
      return typeof v === 'string' ? { kind: 'value', value: v } : { kind: 'invalid', what: describe(v) };
    } catch (e) {
      return { kind: 'threw', message: e instanceof Error ? e.message : String(e) };
    }
  };
}

export async function runTransform(ctx: StepContext, fn: TransformFn): Promise<StepOutcome> {
  // A transform from a recipe module runs in a worker thread, stopped at the step's deadline (transform-worker.ts).
  const origin = transformOrigin(fn);
  const worker = origin ? new TransformWorker(origin, ctx.signal, (line) => ctx.log(`transform: ${line}`)) : null;
  try {
    return await transformFiles(ctx, worker ? (path, content) => worker.call(path, content) : inProcess(fn, ctx.deadline));
  } finally {
    worker?.close();
  }
}

async function transformFiles(ctx: StepContext, call: Call): Promise<StepOutcome> {
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
    const reply = await call(path.value, decoded.value.text);
    // Stopped by the deadline or an interrupt: the runner reports which, and keeps nothing.
    if (reply.kind === 'stopped' || ctx.signal.aborted) return found.outcome();
    if (reply.kind === 'load-failed') {
      found.error(null, failure('command-failed', `The transform could not be loaded in its worker: ${reply.message}`, {}, TRANSFORM_THREW));
      return found.outcome();
    }
    if (reply.kind === 'exited') {
      // A transform that exits would do so on every file: the step ends here.
      const message = `The transform ${reply.message} on ${path.value}; it must return the new content or undefined, never exit.`;
      found.error(path.value, failure('command-failed', message, { path: path.value }, TRANSFORM_THREW));
      return found.outcome();
    }
    if (reply.kind === 'threw') {
      found.error(path.value, failure('command-failed', `The transform threw on ${path.value}: ${reply.message}`, { path: path.value }, TRANSFORM_THREW));
      continue;
    }
    if (reply.kind === 'invalid') {
      // A transform that returns a number or an object has a bug; writing String(next) would be worse.
      const message = `The transform returned ${reply.what} for ${path.value}; it must return the new content as a string, or undefined to leave the file.`;
      found.error(path.value, failure('invalid-result', message, { path: path.value }, TRANSFORM_RESULT));
      continue;
    }
    const next = reply.value;
    if (next === null || next === decoded.value.text) continue;
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
