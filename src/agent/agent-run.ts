// Everything one agent step shares between its conversations: settings, the client, the edit lock,
// the meters and the cache. Built once per step by runAgentStep; passed down, never global.
import type Anthropic from '@anthropic-ai/sdk';
import { sdk } from './client.js';
import { failure, isJobKind, isScionError, ScionError, type ErrorKind, type Failure } from '../errors.js';
import type { ResponseCache } from './cache.js';
import type { Mutex } from './mutex.js';
import type { Price } from './prices.js';
import type { Redactor } from '../redact.js';
import type { CostBudget } from './budget.js';
import type { PlannedConversation } from './estimate.js';
import type { Guards } from './guards/index.js';
import type { AgentFiles, AgentStepConfig, GuardRefusal } from './types.js';
import type { ApiUsage, UsageMeter } from './usage.js';

export interface AgentRun {
  readonly step: AgentStepConfig;
  readonly files: AgentFiles;
  readonly model: string;
  readonly price: Price | null;
  readonly client: Anthropic;
  readonly maxRetries: number;
  readonly signal: AbortSignal;
  readonly lock: Mutex;
  readonly meter: UsageMeter;
  readonly cache: ResponseCache;
  readonly redact: Redactor;
  readonly log: (message: string) => void;
  readonly batchPoll: { readonly firstMs: number; readonly maxMs: number; readonly deadlineMs: number };
  /** Refused tool calls so far (the model was told why; not job errors). */
  refusedCalls: number;
  /** The guards every edit of the model passes before it is written. */
  readonly guards: Guards;
  /** Every edit the guards refused in this step, in order. */
  readonly refusals: GuardRefusal[];
  /** The run's --max-cost, when it has one. */
  readonly budget: CostBudget | null;
  /** Estimate, never ask (`scion plan`): the client must not be used. */
  readonly estimate: boolean;
  /** In estimate mode: the conversations that would have started. */
  readonly planned: PlannedConversation[];
}

/** Usage of one response, counted for the step and for the conversation that asked. */
export function account(run: AgentRun, conversation: UsageMeter, u: ApiUsage, batch: boolean): void {
  const before = run.meter.costUsd;
  run.meter.add(u, run.price, batch);
  conversation.add(u, run.price, batch);
  run.budget?.spend(run.meter.costUsd - before);
}

/** Asked before a conversation starts: the budget's failure when the run's --max-cost is spent, else null. */
export function overBudget(run: AgentRun, file: string | null): Failure | null {
  return run.budget?.admit(who(file), file === null ? {} : { file }) ?? null;
}

const who = (file: string | null): string => (file === null ? 'the job' : file);

/** The abort reason of the step's own `timeoutMs`: kind `agent` (the model ran out of time, as out of turns). */
export function agentTimeout(): ScionError {
  return new ScionError('agent', 'the agent step ran past its timeoutMs');
}

/**
 * Why `run.signal` fired, as the failure of a conversation it stopped: the step's own timeoutMs
 * (kind `agent`), or the caller's abort: an interrupt (kind `interrupted`) or whatever kind its
 * reason carries (the runner's step deadline is a ScionError of kind `timeout`).
 */
export function timeoutFailure(run: AgentRun, file: string | null): Failure {
  const data = file === null ? {} : { file };
  const reason: unknown = run.signal.reason;
  if (!run.signal.aborted || isScionError(reason, 'agent')) {
    return failure(
      'agent',
      `The agent step ran out of time (timeoutMs ${run.step.timeoutMs ?? '?'}) before it finished ${who(file)}; raise timeoutMs or select fewer files.`,
      data,
    );
  }
  const kind: ErrorKind = reason instanceof ScionError && isJobKind(reason.kind) ? reason.kind : 'interrupted';
  if (kind === 'interrupted')
    return failure('interrupted', `The run was interrupted while the agent worked on ${who(file)}; its request was cancelled. Run again.`, data);
  return failure(kind, `The agent step was stopped before it finished ${who(file)} (${reason instanceof Error ? reason.message : kind}).`, data);
}

/** A request that failed for good (the SDK already retried 429/529/5xx), as a conversation failure. */
export function apiFailure(run: AgentRun, e: unknown, file: string | null): Failure {
  if (run.signal.aborted) return timeoutFailure(run, file);
  const data = file === null ? {} : { file };
  const Anthropic = sdk();
  if (e instanceof Anthropic.APIConnectionError) {
    return failure(
      'agent',
      run.redact(`Could not reach the Claude API for ${who(file)} (${e.message}) after ${run.maxRetries} retries; check the network and ANTHROPIC_BASE_URL.`),
      data,
    );
  }
  if (e instanceof Anthropic.APIError) {
    const status = e.status ?? 'no status';
    const hint =
      e.status === 401 || e.status === 403
        ? ' Check ANTHROPIC_API_KEY.'
        : e.status === 404
          ? ` Check the model name (${run.model}).`
          : e.status === 429 || e.status === 529 || (typeof e.status === 'number' && e.status >= 500)
            ? ` It was retried ${run.maxRetries} times; try again later or lower concurrency.`
            : '';
    return failure('agent', run.redact(`The Claude API refused the request for ${who(file)}: ${status} ${apiMessage(e)}.${hint}`), { ...data, status });
  }
  if (e instanceof Anthropic.AnthropicError) return failure('agent', run.redact(`The Claude client failed for ${who(file)}: ${e.message}`), data);
  throw e;
}

/** The API's own sentence when the body had one ({"error": {"message"}}), else the SDK's summary. */
function apiMessage(e: InstanceType<typeof Anthropic.APIError>): string {
  const body = e.error as { error?: { message?: unknown } } | undefined;
  const said = body?.error?.message;
  return typeof said === 'string' ? said : e.message;
}
