// The agent step (SPEC §6): Claude edits the job's files through the same gate and engine as every
// other step. This wrapper checks what can be checked before any request, builds the step's shared
// state, and hands over to the per-file or per-job worker.
import { failure, type Failure } from '../errors.js';
import { makeRedactor } from '../redact.js';
import type { Usage } from '../model/types.js';
import { ResponseCache } from './cache.js';
import { DEFAULT_MAX_RETRIES, makeClient } from './client.js';
import { Mutex } from './mutex.js';
import { runPerFile } from './per-file.js';
import { runPerJob } from './per-job.js';
import { PRICES_DATE, priceOf } from './prices.js';
import type { AgentRun } from './run.js';
import type { AgentEnv, AgentFiles, AgentOutcome, AgentStepConfig } from './types.js';
import { UsageMeter } from './usage.js';

export type { AgentClientOptions, AgentEnv, AgentFiles, AgentOutcome, AgentStepConfig } from './types.js';
export { PRICES_DATE, priceOf, costOf, type Price } from './prices.js';
export { TOOLSET_VERSION } from './tools/schemas.js';

export const DEFAULT_MODEL = 'claude-sonnet-4-5';
/** Above this max_tokens the SDK refuses a non-streaming request (it could outlast 10 minutes). */
export const MAX_INTERACTIVE_TOKENS = 21_333;

const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

export async function runAgentStep(step: AgentStepConfig, files: AgentFiles, env: AgentEnv): Promise<AgentOutcome> {
  const apiKey = env.env['ANTHROPIC_API_KEY'];
  if (!apiKey) {
    return refuse(
      failure('agent', 'The agent step needs ANTHROPIC_API_KEY in the environment and it is not set; set it (in CI, from a secret) and run again. No request was made.'),
    );
  }
  if (!step.batch && step.maxTokens > MAX_INTERACTIVE_TOKENS) {
    return refuse(
      failure('agent', `maxTokens ${step.maxTokens} is above ${MAX_INTERACTIVE_TOKENS}, the most a non-streaming request may ask for; lower maxTokens or set batch: true.`),
    );
  }
  // The run's one redaction pass (the key is one of the environment's secrets, so it is masked too).
  const redact = env.redact ?? makeRedactor(env.env);
  const log = (m: string) => env.log(redact(m));
  const model = step.model ?? env.env['SCION_MODEL'] ?? DEFAULT_MODEL;
  const price = priceOf(model);
  if (price === null) log(`agent: no price is known for model ${model} (price table of ${PRICES_DATE}); its cost is reported as $0`);

  const clientOpts = env.client ?? {};
  const controller = new AbortController();
  const timer = step.timeoutMs === undefined ? null : setTimeout(() => controller.abort(), step.timeoutMs);
  const run: AgentRun = {
    step,
    files,
    model,
    price,
    client: makeClient(apiKey, env.env, clientOpts, log, redact),
    maxRetries: clientOpts.maxRetries ?? DEFAULT_MAX_RETRIES,
    signal: controller.signal,
    lock: new Mutex(),
    meter: new UsageMeter(),
    cache: new ResponseCache({ dir: env.cacheDir, readOnly: env.cacheReadOnly, noRead: env.noCache }),
    redact,
    log,
    batchPoll: {
      firstMs: clientOpts.batchPollMs ?? 5_000,
      maxMs: clientOpts.batchPollMaxMs ?? 60_000,
      deadlineMs: clientOpts.batchDeadlineMs ?? 24 * 60 * 60 * 1000,
    },
    refusedCalls: 0,
  };
  try {
    const errors = step.per === 'job' ? await runPerJob(run) : await runPerFile(run);
    if (run.refusedCalls > 0) log(`agent: ${run.refusedCalls} tool call(s) were refused and explained to the model; only conversations that gave up are errors`);
    const usage = run.meter.toUsage();
    log(`agent: ${run.meter.requests} request(s), ${usage.inputTokens} input + ${usage.outputTokens} output tokens, $${usage.costUsd.toFixed(4)} (${model})`);
    return { errors: errors.map((e) => ({ file: e.file, failure: { ...e.failure, message: redact(e.failure.message) } })), usage };
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

function refuse(f: Failure): AgentOutcome {
  return { errors: [{ file: null, failure: f }], usage: NO_USAGE };
}
