// Token and cost totals: one meter per step, and one per conversation (what its cache entry records).
import type { Usage } from '../model/types.js';
import { costOf, type Price, type TokenCounts } from './prices.js';

/** The usage fields of an API response (Message.usage). */
export interface ApiUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

export function tokensOf(u: ApiUsage): TokenCounts {
  return {
    input: u.input_tokens,
    output: u.output_tokens,
    cacheWrite: u.cache_creation_input_tokens ?? 0,
    cacheRead: u.cache_read_input_tokens ?? 0,
  };
}

export class UsageMeter {
  input = 0;
  output = 0;
  cacheWrite = 0;
  cacheRead = 0;
  costUsd = 0;
  requests = 0;
  readonly cachedFiles: string[] = [];

  /** `price` null: an unknown model, counted at no cost (the caller logs that once). */
  add(u: ApiUsage, price: Price | null, batch: boolean): void {
    const t = tokensOf(u);
    this.input += t.input;
    this.output += t.output;
    this.cacheWrite += t.cacheWrite;
    this.cacheRead += t.cacheRead;
    if (price) this.costUsd += costOf(price, t, batch);
    this.requests++;
  }

  toUsage(): Usage {
    return {
      inputTokens: this.input,
      outputTokens: this.output,
      cacheReadTokens: this.cacheRead,
      cacheWriteTokens: this.cacheWrite,
      // Sub-micro-dollar float noise is not money.
      costUsd: Math.round(this.costUsd * 1e6) / 1e6,
      ...(this.cachedFiles.length > 0 ? { cachedFiles: [...this.cachedFiles].sort() } : {}),
    };
  }
}
