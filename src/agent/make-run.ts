// The checks every agent conversation needs before its first request, and the shared state of one
// step (or one fix round) built from them: the agent step and the verify fix loop both start here,
// so they refuse, price, log and cache the same way.
import { failure, fail, ok, type Result } from '../errors.js';
import { makeRedactor } from '../redact.js';
import { ResponseCache } from './cache.js';
import { DEFAULT_MAX_RETRIES, makeClient } from './client.js';
import { Guards } from './guards/index.js';
import { Mutex } from './mutex.js';
import { PRICES_DATE, priceOf } from './prices.js';
import { agentTimeout, type AgentRun } from './agent-run.js';
import type { AgentEnv, AgentFiles, AgentStepConfig } from './types.js';
import { UsageMeter } from './usage.js';

export const DEFAULT_MODEL = 'claude-sonnet-4-5';
/** Above this max_tokens the SDK refuses a non-streaming request (it could outlast 10 minutes). */
export const MAX_INTERACTIVE_TOKENS = 21_333;

export interface MadeRun {
  readonly run: AgentRun;
  /** Clears the step's timer. */
  readonly done: () => void;
}

export function makeRun(step: AgentStepConfig, files: AgentFiles, env: AgentEnv): Result<MadeRun> {
  const estimate = env.estimate === true;
  const apiKey = env.env['ANTHROPIC_API_KEY'];
  // A plan sends nothing, so it needs no key.
  if (!apiKey && !estimate) {
    return fail(
      failure(
        'agent',
        'The agent step needs ANTHROPIC_API_KEY in the environment and it is not set; set it (in CI, from a secret) and run again. No request was made.',
      ),
    );
  }
  if (!step.batch && step.maxTokens > MAX_INTERACTIVE_TOKENS) {
    return fail(
      failure(
        'agent',
        `maxTokens ${step.maxTokens} is above ${MAX_INTERACTIVE_TOKENS}, the most a non-streaming request may ask for; lower maxTokens or set batch: true.`,
      ),
    );
  }
  // The run's one redaction pass (the key is one of the environment's secrets, so it is masked too).
  const redact = env.redact ?? makeRedactor(env.env);
  const log = (m: string) => env.log(redact(m));
  const model = step.model ?? env.env['SCION_MODEL'] ?? DEFAULT_MODEL;
  const price = priceOf(model);
  if (price === null) log(`agent: no price is known for model ${model} (price table of ${PRICES_DATE}); its cost is reported as $0`);

  const clientOpts = env.client ?? {};
  // One signal for everything the step waits on (requests, batch polls, grep workers, tool calls):
  // it fires at the step's own timeoutMs or when the caller's signal (an interrupt) fires.
  const controller = new AbortController();
  const timer = step.timeoutMs === undefined ? null : setTimeout(() => controller.abort(agentTimeout()), step.timeoutMs);
  const outer = env.signal;
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  const guards = new Guards(files.guards, log);
  let client: ReturnType<typeof makeClient> | undefined;
  const run: AgentRun = {
    step,
    files,
    model,
    price,
    // Made on first use: a plan (estimate) never asks, and must not be able to.
    get client() {
      // Cannot happen: a plan's conversation (estimate) only counts tokens and never reads the client,
      // and a run without an API key fails before its first conversation; reaching here is a bug.
      if (estimate || !apiKey) throw new Error('scion bug: a request was about to be sent while estimating');
      client ??= makeClient(apiKey, env.env, clientOpts, log, redact);
      return client;
    },
    maxRetries: clientOpts.maxRetries ?? DEFAULT_MAX_RETRIES,
    signal: controller.signal,
    lock: new Mutex(),
    meter: new UsageMeter(),
    cache: new ResponseCache({ dir: env.cacheDir, readOnly: env.cacheReadOnly, noRead: env.noCache, warn: log }),
    redact,
    log,
    batchPoll: {
      firstMs: clientOpts.batchPollMs ?? 5_000,
      maxMs: clientOpts.batchPollMaxMs ?? 60_000,
      deadlineMs: clientOpts.batchDeadlineMs ?? 24 * 60 * 60 * 1000,
    },
    refusedCalls: 0,
    guards,
    refusals: [],
    budget: env.budget ?? null,
    estimate,
    planned: [],
  };
  return ok({
    run,
    done: () => {
      if (timer !== null) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
      guards.close();
    },
  });
}
