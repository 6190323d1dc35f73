// per: job — one conversation for the whole job: it explores with glob, grep and read_file, and
// must read each file before editing it. Its cache key covers every file it could see.
import { cacheKey } from './cache.js';
import { Conversation } from './conversation.js';
import { converseInBatches } from './batch.js';
import { converse } from './interactive.js';
import { close, type StepError } from './per-file.js';
import { jobMessage } from './prompt.js';
import { replay } from './replay.js';
import { overBudget, type AgentRun } from './agent-run.js';
import { catN } from './tools/cat-n.js';
import { decodeText } from '../core/index.js';
import { estimateTokens, FIXED_TOKENS } from './estimate.js';
import { toolContext } from './tool-context.js';

export async function runPerJob(run: AgentRun): Promise<StepError[]> {
  const paths = [...run.files.paths()].sort();
  const blobs: [string, string | null][] = [];
  for (const p of paths) {
    const bytes = await run.files.read(p);
    blobs.push([p, bytes === null ? null : run.files.blobId(bytes)]);
  }
  const key = cacheKey({ model: run.model, prompt: run.step.prompt, per: 'job', files: blobs });
  const entry = await run.cache.get(key);
  if (entry && (await replay(run, entry))) {
    run.meter.cachedFiles.push(...entry.changes.map((c) => c.path));
    run.log(`agent: replayed the cached answer for the job (no request; ${entry.changes.length} file(s) changed)`);
    return [];
  }
  const firstMessage = jobMessage(run.step.prompt, paths);
  if (run.estimate) {
    await planJob(run, firstMessage, paths, 1);
    return [];
  }
  const broke = overBudget(run, null);
  if (broke) return [{ file: null, failure: broke }];
  const conv = new Conversation({
    id: 'job',
    file: null,
    key,
    firstMessage,
    tools: toolContext(run, 'job'),
    model: run.model,
    maxTokens: run.step.maxTokens,
    maxTurns: run.step.maxTurns,
  });
  if (run.step.batch) await converseInBatches(run, [conv]);
  else await converse(run, conv);
  const errors: StepError[] = [];
  await close(run, conv, errors);
  return errors;
}

/** In a plan: one conversation over the job, which may read every file of it (in cat -n form). */
export async function planJob(run: AgentRun, firstMessage: string, paths: readonly string[], rounds: number): Promise<void> {
  const files: { path: string; tokens: number }[] = [];
  // What reading them costs: read_file shows them in cat -n form.
  let reads = 0;
  for (const p of paths) {
    const bytes = await run.files.read(p);
    const d = bytes === null ? null : decodeText(bytes);
    if (!d?.ok) continue;
    files.push({ path: p, tokens: estimateTokens(d.value.text) });
    reads += estimateTokens(catN(d.value.text).text);
  }
  run.planned.push({ context: FIXED_TOKENS + estimateTokens(firstMessage), reads, files, rounds });
}
