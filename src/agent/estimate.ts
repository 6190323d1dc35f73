// What the conversations of a step would cost, known before any is started (`scion plan` sends no
// request, so it cannot ask the API's token counter either). Tokens are estimated as UTF-8 bytes / 4:
// Claude's tokenizer gives about 3.5 to 4.5 bytes per token on English and code, so this is a
// planning figure, not a bill. The price is a range:
//   minimum  each conversation's context (system prompt, tools, first message) sent once, nothing
//            answered: no conversation can cost less;
//   maximum  maxTurns round trips per conversation (per fix round, times maxRounds), each answering
//            maxTokens, each sending the context again with every earlier answer and a tool result of
//            the same size, and (per: job, fixes) every file the model may read; all at the full input
//            price, as if the prompt cache never hit.
// A typical conversation sits near the minimum (README: the agent step's cost).
import type { Estimate } from './types.js';
import { BATCH_DISCOUNT, type Price } from './prices.js';
import { SYSTEM_PROMPT } from './prompt.js';
import { toolDefinitions } from './tools/schemas.js';
import { compareCodeUnits } from '../util/compare.js';

export const BYTES_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

/** The system prompt and the tool definitions, sent with every request. */
export const FIXED_TOKENS = estimateTokens(SYSTEM_PROMPT) + estimateTokens(JSON.stringify(toolDefinitions()));

/** One conversation that would start. */
export interface PlannedConversation {
  /** Tokens of its first request: the fixed part and its first message. */
  readonly context: number;
  /** Tokens of the files it may read beyond what its first message shows. */
  readonly reads: number;
  /** Files shown or readable, with their tokens. */
  readonly files: readonly { readonly path: string; readonly tokens: number }[];
  /** How many times it may run over (fix rounds); 1 for an agent step. */
  readonly rounds: number;
}

export interface EstimateSettings {
  readonly model: string;
  readonly per: Estimate['per'];
  readonly price: Price | null;
  readonly maxTurns: number;
  readonly maxTokens: number;
  readonly batch: boolean;
}

export function estimateOf(planned: readonly PlannedConversation[], s: EstimateSettings): Estimate {
  const files = new Map<string, number>();
  for (const c of planned) for (const f of c.files) files.set(f.path, f.tokens);
  let inputTokens = 0;
  let min = 0;
  let max = 0;
  const price = s.price;
  for (const c of planned) {
    inputTokens += c.context;
    if (price === null) continue;
    const T = s.maxTurns;
    const M = s.maxTokens;
    min += (c.context * price.input) / 1e6;
    const input = T * (c.context + c.reads) + M * T * (T - 1);
    max += (c.rounds * (input * price.input + T * M * price.output)) / 1e6;
  }
  const discount = s.batch ? BATCH_DISCOUNT : 1;
  const usd = (v: number) => (price === null ? null : Math.round(v * discount * 1e6) / 1e6);
  return {
    model: s.model,
    per: s.per,
    conversations: planned.length,
    files: [...files].sort(([a], [b]) => compareCodeUnits(a, b)).map(([path, tokens]) => ({ path, tokens })),
    inputTokens,
    minUsd: usd(min),
    maxUsd: usd(max),
  };
}

/** The estimate of what a plan did not ask, or null when it was not a plan (or every answer was cached). */
/** What an estimate reads of a step's shared state (the agent run, named here without importing it). */
export interface EstimatingRun {
  readonly estimate: boolean;
  readonly planned: readonly PlannedConversation[];
  readonly model: string;
  readonly price: Price | null;
}

export function estimated(run: EstimatingRun, per: Estimate['per'], maxTurns: number, maxTokens: number, batch: boolean): Estimate | null {
  if (!run.estimate || run.planned.length === 0) return null;
  return estimateOf(run.planned, { model: run.model, per, price: run.price, maxTurns, maxTokens, batch });
}
