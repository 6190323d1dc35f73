// `run --max-cost USD`: one meter for the whole run (every job, every repository of a campaign), fed
// by each response as it arrives. Once what was spent reaches the limit, no conversation starts:
// those that would have are failed with kind `budget` and nothing is asked. Conversations already
// under way finish (stopping one half way would leave its file half migrated), so a run can end a
// little above the limit: by at most what the conversations in flight spend.
import { failure, type Failure } from '../errors.js';

export class CostBudget {
  private spent = 0;
  private refused = 0;

  constructor(readonly maxCostUsd: number) {}

  /** Adds what one response cost. */
  spend(usd: number): void {
    this.spent += usd;
  }

  get spentUsd(): number {
    return Math.round(this.spent * 1e6) / 1e6;
  }

  /** Conversations not started because the budget was spent. */
  get notStarted(): number {
    return this.refused;
  }

  /**
   * Asked before each conversation starts: null to go ahead, else the failure of the conversation
   * about `who` (a file, or the job), counted as not started.
   */
  admit(who: string, data: Record<string, unknown> = {}): Failure | null {
    if (this.spent < this.maxCostUsd) return null;
    this.refused++;
    return failure(
      'budget',
      `The run's --max-cost of $${this.maxCostUsd} was reached ($${dollars(this.spentUsd)} spent) ` +
        `before the conversation about ${who} started; nothing was asked. ` +
        'Raise --max-cost or run again: answers already paid for are replayed from the cache.',
      { maxCostUsd: this.maxCostUsd, spentUsd: this.spentUsd, ...data },
    );
  }
}

/** Cents for a dollar and more, four decimals below (as the summary prints costs). */
function dollars(usd: number): string {
  return usd >= 1 ? usd.toFixed(2) : usd.toFixed(4);
}
