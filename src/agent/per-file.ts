// per: file — one conversation per selected file, started with the file already shown (and so read).
// Conversations run concurrently (step.concurrency) or as batch rounds; their edits are serial.
import PQueue from 'p-queue';
import { decodeText } from '../core/index.js';
import { failure, type Failure } from '../errors.js';
import { cacheKey } from './cache.js';
import { Conversation } from './conversation.js';
import { converseInBatches } from './batch.js';
import { converse } from './interactive.js';
import { fileMessage } from './prompt.js';
import { ReadStates } from './read-state.js';
import { entryOf, replay } from './replay.js';
import { estimateTokens, FIXED_TOKENS } from './estimate.js';
import { insisted } from './insisted.js';
import { overBudget, timeoutFailure, type AgentRun } from './agent-run.js';
import { toolContext } from './tool-context.js';
import { catN } from './tools/cat-n.js';

export interface StepError {
  readonly file: string | null;
  readonly failure: Failure;
}

export async function runPerFile(run: AgentRun): Promise<StepError[]> {
  const paths = [...run.files.paths()].sort();
  const errors: StepError[] = [];
  if (run.step.batch) {
    const convs: Conversation[] = [];
    for (const [i, path] of paths.entries()) {
      const c = await open(run, path, i, errors);
      if (c) convs.push(c);
    }
    await converseInBatches(run, convs);
    for (const c of convs) await close(run, c, errors);
    return errors;
  }
  const notStarted: string[] = [];
  const queue = new PQueue({ concurrency: Math.max(1, run.step.concurrency) });
  await Promise.all(
    paths.map((path, i) =>
      queue.add(async () => {
        if (run.signal.aborted) {
          notStarted.push(path);
          return;
        }
        const c = await open(run, path, i, errors);
        if (!c) return;
        await converse(run, c);
        await close(run, c, errors);
      }),
    ),
  );
  if (notStarted.length > 0) {
    const listed = notStarted.sort().slice(0, 10).join(', ');
    const more = notStarted.length > 10 ? ` and ${notStarted.length - 10} more` : '';
    const stopped = timeoutFailure(run, null);
    errors.push({
      file: null,
      failure:
        stopped.kind === 'agent'
          ? failure(
              'agent',
              `The agent step ran out of time (timeoutMs ${run.step.timeoutMs}) before it started ${notStarted.length} file(s): ` +
                `${listed}${more}; raise timeoutMs or select fewer files.`,
              {
                files: notStarted,
              },
            )
          : { ...stopped, message: `${stopped.message} ${notStarted.length} file(s) were not started: ${listed}${more}.`, data: { files: notStarted } },
    });
  }
  return errors.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? ''));
}

/**
 * A conversation for `path`, or null when none starts: the cache answered for it, it is not text,
 * the run's budget is spent (an error in `errors`), or the step only estimates (a plan).
 */
async function open(run: AgentRun, path: string, index: number, errors: StepError[]): Promise<Conversation | null> {
  const bytes = await run.files.read(path);
  if (bytes === null) return null;
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    run.log(`agent: skipped ${path}: ${decoded.error.message}`);
    return null;
  }
  const key = cacheKey({ model: run.model, prompt: run.step.prompt, per: 'file', files: [[path, run.files.blobId(bytes)]] });
  const entry = await run.cache.get(key);
  if (entry && (await replay(run, entry))) {
    run.meter.cachedFiles.push(path);
    run.log(`agent: ${path}: replayed the cached answer (no request)`);
    return null;
  }
  const text = decoded.value.text;
  const view = catN(text);
  const firstMessage = fileMessage(run.step.prompt, path, view);
  if (run.estimate) {
    run.planned.push({ context: FIXED_TOKENS + estimateTokens(firstMessage), reads: 0, files: [{ path, tokens: estimateTokens(text) }], rounds: 1 });
    return null;
  }
  const broke = overBudget(run, path);
  if (broke) {
    errors.push({ file: path, failure: broke });
    return null;
  }
  const reads = new ReadStates();
  reads.markRead(path, text, !view.whole);
  return new Conversation({
    id: `f${index}`,
    file: path,
    key,
    firstMessage,
    tools: toolContext(run, path, reads),
    model: run.model,
    maxTokens: run.step.maxTokens,
    maxTurns: run.step.maxTurns,
  });
}

/** A finished conversation is cached; a failed one is a step error (its edits stay: nothing rolls back). */
export async function close(run: AgentRun, c: Conversation, errors: StepError[]): Promise<void> {
  // A model that kept trying what the guards refuse fails the conversation whatever else it did.
  const guard = insisted(c);
  if (guard) {
    errors.push({ file: c.file, failure: guard });
    return;
  }
  if (c.state.kind === 'failed') {
    errors.push({ file: c.file, failure: c.state.failure });
    return;
  }
  if (c.finalText !== '') run.log(`agent: ${c.file ?? 'job'}: ${oneLine(c.finalText)}`);
  const entry = await entryOf(run, c);
  if (entry) await run.cache.put(c.init.key, entry);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
