// The agent step: Claude edits the job's files through the same gate and engine as every
// other step. This wrapper checks what can be checked before any request, builds the step's shared
// state, and hands over to the per-file or per-job worker.
import type { Failure } from '../errors.js';
import { ZERO_USAGE } from '../model/usage.js';
import { makeRun } from './make-run.js';
import { runPerFile } from './per-file.js';
import { runPerJob } from './per-job.js';
import { estimated } from './estimate.js';
import type { AgentEnv, AgentFiles, AgentOutcome, AgentStepConfig } from './types.js';

export type { AgentClientOptions, AgentEnv, AgentFiles, AgentOutcome, AgentStepConfig, Estimate, GuardRefusal } from './types.js';
export { CostBudget } from './budget.js';
export { configFilesOf, DEFAULT_GUARDS, GUARD_NAMES, type GuardName, type GuardSettings } from './guards/index.js';
export { PRICES_DATE, priceOf, costOf, type Price } from './prices.js';
export { TOOLSET_VERSION } from './tools/schemas.js';

export { DEFAULT_MODEL, MAX_INTERACTIVE_TOKENS } from './make-run.js';

export async function runAgentStep(step: AgentStepConfig, files: AgentFiles, env: AgentEnv): Promise<AgentOutcome> {
  const made = makeRun(step, files, env);
  if (!made.ok) return refuse(made.error);
  const { run } = made.value;
  const { log, redact, model } = run;
  try {
    const errors = step.per === 'job' ? await runPerJob(run) : await runPerFile(run);
    if (run.refusedCalls > 0)
      log(`agent: ${run.refusedCalls} tool call(s) were refused and explained to the model; only conversations that gave up are errors`);
    const usage = run.meter.toUsage();
    const estimate = estimated(run, step.per, step.maxTurns, step.maxTokens, step.batch);
    if (estimate) log(`agent: estimated ${estimate.conversations} conversation(s) without a request (${model})`);
    else {
      const tokens = `${usage.inputTokens} input + ${usage.outputTokens} output tokens`;
      log(`agent: ${run.meter.requests} request(s), ${tokens}, $${usage.costUsd.toFixed(4)} (${model})`);
    }
    return {
      errors: errors.map((e) => ({ file: e.file, failure: { ...e.failure, message: redact(e.failure.message) } })),
      usage,
      refusals: [...run.refusals],
      estimate,
    };
  } finally {
    made.value.done();
  }
}

function refuse(f: Failure): AgentOutcome {
  return { errors: [{ file: null, failure: f }], usage: ZERO_USAGE, refusals: [], estimate: null };
}
