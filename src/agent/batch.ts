// The Message Batches transport (batch: true): every conversation waiting on the model goes out in one
// batch; when it has ended, the answers are handed to their conversations (tool calls run serially,
// as in the interactive path) and the next round goes out. Half price, at the cost of latency.
import type Anthropic from '@anthropic-ai/sdk';
import { fail, failure, ok, type Result } from '../errors.js';
import type { Conversation } from './conversation.js';
import { account, apiFailure, timeoutFailure, type AgentRun } from './agent-run.js';
import { plural } from '../util/plural.js';
import { sleep } from '../util/sleep.js';

type BatchResult = Anthropic.Messages.Batches.MessageBatchResult;

export async function converseInBatches(run: AgentRun, convs: readonly Conversation[]): Promise<void> {
  for (let round = 1; ; round++) {
    const waiting = convs.filter((c) => c.state.kind === 'waiting');
    if (waiting.length === 0) return;
    if (run.signal.aborted) {
      for (const c of waiting) c.fail(timeoutFailure(run, c.file));
      return;
    }
    const parts = chunks(waiting);
    const answers = await Promise.all(parts.map((part) => oneBatch(run, part, round)));
    const results = new Map<string, BatchResult>();
    for (const [k, a] of answers.entries()) {
      if (a.ok) for (const [id, r] of a.value) results.set(id, r);
      else for (const c of parts[k] as Conversation[]) c.fail({ ...a.error, data: { ...a.error.data, ...(c.file === null ? {} : { file: c.file }) } });
    }
    for (const c of waiting) {
      if (c.state.kind !== 'waiting') continue;
      const r = results.get(c.init.id);
      if (r?.type === 'succeeded') {
        account(run, c.usage, r.message.usage, true);
        await c.receive(r.message);
      } else {
        c.fail(
          failure(
            'agent',
            run.redact(`The batch request for ${c.file ?? 'the job'} did not succeed: ${describe(r)}.`),
            c.file === null ? {} : { file: c.file },
          ),
        );
      }
    }
  }
}

// The API takes at most 100,000 requests or 256 MB per batch; stay well inside both.
const MAX_REQUESTS = 10_000;
const MAX_BYTES = 128 * 1024 * 1024;

function chunks(convs: readonly Conversation[]): Conversation[][] {
  const out: Conversation[][] = [];
  let part: Conversation[] = [];
  let bytes = 0;
  for (const c of convs) {
    const size = JSON.stringify(c.request()).length;
    if (part.length > 0 && (part.length >= MAX_REQUESTS || bytes + size > MAX_BYTES)) {
      out.push(part);
      part = [];
      bytes = 0;
    }
    part.push(c);
    bytes += size;
  }
  if (part.length > 0) out.push(part);
  return out;
}

async function oneBatch(run: AgentRun, waiting: readonly Conversation[], round: number): Promise<Result<Map<string, BatchResult>>> {
  const { client, signal } = run;
  try {
    let batch = await client.messages.batches.create({ requests: waiting.map((c) => ({ custom_id: c.init.id, params: c.request() })) }, { signal });
    run.log(`agent: round ${round}: batch ${batch.id} sent with ${plural(waiting.length, 'request')}`);
    const deadline = Date.now() + run.batchPoll.deadlineMs;
    let wait = run.batchPoll.firstMs;
    while (batch.processing_status !== 'ended') {
      if (Date.now() + wait > deadline) {
        // Best effort: stop paying for a batch nobody will read.
        await client.messages.batches.cancel(batch.id, {}, { signal }).catch(() => undefined);
        return fail(
          failure('agent', `Message batch ${batch.id} had not ended after ${run.batchPoll.deadlineMs} ms; it was cancelled. Run again, or without batch.`),
        );
      }
      // Cut short by an interrupt or the step's limit, which the catch below reports.
      await sleep(wait, signal);
      signal.throwIfAborted();
      wait = Math.min(wait * 2, run.batchPoll.maxMs);
      batch = await client.messages.batches.retrieve(batch.id, {}, { signal });
    }
    const out = new Map<string, BatchResult>();
    for await (const line of await client.messages.batches.results(batch.id, {}, { signal })) out.set(line.custom_id, line.result);
    return ok(out);
  } catch (e) {
    if (signal.aborted) return fail(timeoutFailure(run, null));
    return fail(apiFailure(run, e, null));
  }
}

function describe(r: BatchResult | undefined): string {
  if (r === undefined) return 'the batch returned no result for it';
  if (r.type === 'errored') return `errored (${r.error.error.type}: ${r.error.error.message})`;
  return r.type;
}
