// Token usage and cost: summed across steps, jobs and shards.
import type { Usage } from './types.js';

/** No tokens and no cost: what a job or step that never called the model used. Frozen, so it is shared. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, costUsd: 0 });

export function usageIsZero(u: Usage): boolean {
  return u.costUsd === 0 && u.inputTokens === 0 && u.outputTokens === 0 && (u.cacheReadTokens ?? 0) === 0 && (u.cacheWriteTokens ?? 0) === 0;
}

export function sumUsage(usages: readonly Usage[]): Usage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  let costUsd = 0;
  const cachedFiles: string[] = [];
  for (const u of usages) {
    inputTokens += u.inputTokens;
    outputTokens += u.outputTokens;
    cacheReadTokens += u.cacheReadTokens ?? 0;
    cacheWriteTokens += u.cacheWriteTokens ?? 0;
    costUsd += u.costUsd;
    cachedFiles.push(...(u.cachedFiles ?? []));
  }
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd, cachedFiles };
}
