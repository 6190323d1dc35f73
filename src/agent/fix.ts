// The fix conversation of a failing verify command: one per-job conversation through the
// same tools, engine, cache and usage meter as the agent step, started from the command's diagnostics
// with the lines around them already read. The runner reruns the command after it stops.
import type { Usage } from '../model/types.js';
import { ZERO_USAGE } from '../model/usage.js';
import type { Failure } from '../errors.js';
import { cacheKey } from './cache.js';
import { Conversation } from './conversation.js';
import { DEFAULT_FIX_PROMPT, fixMessage, type FailedCommand } from './fix-message.js';
import { converse } from './interactive.js';
import { makeRun } from './make-run.js';
import { close, type StepError } from './per-file.js';
import { ReadStates } from './read-state.js';
import { replay } from './replay.js';
import { toolContext } from './tool-context.js';
import type { AgentEnv, AgentFiles, AgentStepConfig, Estimate, GuardRefusal } from './types.js';
import { estimated } from './estimate.js';
import { planJob } from './per-job.js';
import { overBudget } from './agent-run.js';

export { DEFAULT_FIX_PROMPT, type FailedCommand } from './fix-message.js';

export interface FixConfig {
  readonly prompt?: string;
  readonly model?: string;
  readonly maxTurns: number;
  readonly maxTokens: number;
  readonly timeoutMs?: number;
  /** Rounds the verify command allows: what a plan's estimate multiplies one round by. Default 1. */
  readonly maxRounds?: number;
}

export interface FixOutcome {
  /** The model stopped on its own (it thinks it is done); false when the conversation failed. */
  readonly stopped: boolean;
  /** The answer came from the response cache: no request was made. */
  readonly replayed: boolean;
  readonly usage: Usage;
  readonly errors: readonly { readonly file: string | null; readonly failure: Failure }[];
  /** The model's closing sentence. */
  readonly summary: string;
  /** Edits the guards refused in this round. */
  readonly refusals: readonly GuardRefusal[];
  /** In a plan: what the fix rounds would cost (no request was sent); else null. */
  readonly estimate: Estimate | null;
}

export async function runFix(config: FixConfig, failed: FailedCommand, files: AgentFiles, env: AgentEnv): Promise<FixOutcome> {
  const step: AgentStepConfig = {
    prompt: config.prompt ?? DEFAULT_FIX_PROMPT,
    per: 'job',
    maxTurns: config.maxTurns,
    maxTokens: config.maxTokens,
    concurrency: 1,
    batch: false,
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  };
  const made = makeRun(step, files, env);
  if (!made.ok) {
    return { stopped: false, replayed: false, usage: ZERO_USAGE, errors: [{ file: null, failure: made.error }], summary: '', refusals: [], estimate: null };
  }
  const { run } = made.value;
  try {
    const reads = new ReadStates();
    const firstMessage = await fixMessage(step.prompt, failed, files, reads);
    // The message holds the command, its diagnostics and the lines shown; the blobs cover every file
    // the model could read. The same failure over the same files gets the same answer.
    const blobs: [string, string | null][] = [];
    for (const p of [...files.paths()].sort()) {
      const bytes = await files.read(p);
      blobs.push([p, bytes === null ? null : files.blobId(bytes)]);
    }
    const key = cacheKey({ model: run.model, prompt: `fix\n${firstMessage}`, per: 'job', files: blobs });
    const entry = await run.cache.get(key);
    if (entry && (await replay(run, entry))) {
      run.meter.cachedFiles.push(...entry.changes.map((c) => c.path));
      run.log(`fix: replayed the cached answer (no request; ${entry.changes.length} file(s) changed)`);
      return { stopped: true, replayed: true, usage: run.meter.toUsage(), errors: [], summary: '', refusals: [], estimate: null };
    }
    if (run.estimate) {
      await planJob(run, firstMessage, [...files.paths()].sort(), config.maxRounds ?? 1);
      run.log('fix: estimated the fix rounds without a request (plan)');
      const estimate = estimated(run, 'fix', step.maxTurns, step.maxTokens, false);
      return { stopped: false, replayed: false, usage: ZERO_USAGE, errors: [], summary: '', refusals: [], estimate };
    }
    const broke = overBudget(run, null);
    if (broke) {
      return { stopped: false, replayed: false, usage: ZERO_USAGE, errors: [{ file: null, failure: broke }], summary: '', refusals: [], estimate: null };
    }
    const conv = new Conversation({
      id: 'fix',
      file: null,
      key,
      firstMessage,
      tools: toolContext(run, 'fix', reads),
      model: run.model,
      maxTokens: step.maxTokens,
      maxTurns: step.maxTurns,
    });
    await converse(run, conv);
    const errors: StepError[] = [];
    await close(run, conv, errors);
    const usage = run.meter.toUsage();
    run.log(
      `fix: ${run.meter.requests} request(s), ${usage.inputTokens} input + ${usage.outputTokens} output tokens, $${usage.costUsd.toFixed(4)} (${run.model})`,
    );
    return {
      stopped: conv.state.kind === 'done',
      replayed: false,
      usage,
      errors: errors.map((e) => ({ file: e.file, failure: { ...e.failure, message: run.redact(e.failure.message) } })),
      summary: run.redact(conv.finalText),
      refusals: [...run.refusals],
      estimate: null,
    };
  } finally {
    made.value.done();
  }
}
