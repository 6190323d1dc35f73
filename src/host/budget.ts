// The write budget: hosts limit how fast one identity may create content (GitHub's secondary limits:
// about 80 content-creating requests a minute and 500 an hour per token), whatever repository the
// requests go to. Every request that writes (POST, PATCH, PUT, DELETE) spends one unit from the budget
// of its host and token before it is sent; a secondary-limit answer (403/429 with retry-after or a
// reset header) holds that budget until the host's time, so no other writer of the same token sends
// in between. One WriteBudgets serves the whole process: pull requests, labels, reviewers, comments
// and issue edits all draw from it, in every repository of a campaign.
import { createHash } from 'node:crypto';
import { sleep } from '../util/sleep.js';

/** Time as the budget sees it: tests pass one whose sleep moves time on at once. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep };

export interface BudgetLimits {
  readonly perMinute: number;
  readonly perHour: number;
}

export const DEFAULT_WRITE_BUDGET: BudgetLimits = { perMinute: 80, perHour: 500 };

/** One wait the budget made, for the progress line. */
export interface BudgetWait {
  /** The host's origin (never the token). */
  readonly host: string;
  readonly ms: number;
  /** `budget`: the writes of the last minute or hour used it up; `host`: the host asked scion to wait. */
  readonly reason: 'budget' | 'host';
}

export interface WriteBudgetsOptions {
  readonly limits?: BudgetLimits;
  /**
   * Kept after a write leaves its window before the slot is used again: the host stamps a write when
   * it arrives, scion when it sends, and the network's delay between the two varies. Default 1000.
   */
  readonly guardMs?: number;
  readonly clock?: Clock;
  /** Told before each wait, so the progress can say that scion waits and for how long. */
  readonly onWait?: (w: BudgetWait) => void;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** `80/500` (a minute / an hour) → limits; null when malformed. */
export function parseWriteBudget(text: string): BudgetLimits | null {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return null;
  const perMinute = Number(m[1]);
  const perHour = Number(m[2]);
  return perMinute >= 1 && perHour >= 1 ? { perMinute, perHour } : null;
}

/** The budget of one host and token: the times of its writes in the last hour, and how long the host asked to hold. */
export class WriteBudget {
  private readonly stamps: number[] = [];
  private heldUntil = 0;
  private queue: Promise<void> = Promise.resolve();
  /** Writes spent so far, and milliseconds waited: for the bench and the progress. */
  spent = 0;
  waits = 0;
  waitedMs = 0;

  constructor(
    readonly host: string,
    private readonly limits: BudgetLimits,
    private readonly clock: Clock,
    private readonly onWait: ((w: BudgetWait) => void) | undefined,
    private readonly guardMs: number,
  ) {}

  /**
   * Waits until one more write fits in the minute and the hour (and past any hold), then spends it.
   * Callers are served in turn. The write counts from now; call the function it resolves to once the
   * host answered, and it counts from then instead: the host stamped it somewhere between the two,
   * so the later time never lets a window hold one write too many.
   */
  take(signal?: AbortSignal): Promise<() => void> {
    const turn = this.queue.then(() => this.waitForRoom(signal));
    this.queue = turn.then(
      () => {},
      () => {},
    );
    return turn;
  }

  /**
   * The host said to wait `ms` (a secondary-limit or 429 answer): no write of this token goes out
   * before then, and the progress says so. The caller that got the answer waits it out and retries.
   */
  hostAsked(ms: number): void {
    const wait = Math.max(0, ms);
    this.heldUntil = Math.max(this.heldUntil, this.clock.now() + wait);
    this.waitedMs += wait;
    this.onWait?.({ host: this.host, ms: wait, reason: 'host' });
  }

  /** Moves a write's stamp from when it was sent to when the host answered, keeping the stamps in order. */
  private answered(stamp: { at: number }): void {
    const i = this.stamps.indexOf(stamp.at);
    if (i === -1) return;
    this.stamps.splice(i, 1);
    const at = Math.max(stamp.at, this.clock.now());
    let j = this.stamps.length;
    while (j > 0 && this.stamps[j - 1]! > at) j--;
    this.stamps.splice(j, 0, at);
    stamp.at = at;
  }

  private async waitForRoom(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      if (signal?.aborted) return () => {};
      const now = this.clock.now();
      while (this.stamps.length > 0 && this.stamps[0]! <= now - HOUR - this.guardMs) this.stamps.shift();
      const ready = Math.max(this.heldUntil, this.freeAt(now, MINUTE, this.limits.perMinute), this.freeAt(now, HOUR, this.limits.perHour));
      if (ready <= now) {
        const stamp = { at: now };
        this.stamps.push(now);
        this.spent++;
        return () => this.answered(stamp);
      }
      const ms = ready - now;
      this.waits++;
      this.onWait?.({ host: this.host, ms, reason: this.heldUntil >= ready ? 'host' : 'budget' });
      this.waitedMs += ms;
      await this.clock.sleep(ms, signal);
    }
  }

  /** When the window of `span` ending now has room for one more of `limit` writes. */
  private freeAt(now: number, span: number, limit: number): number {
    let inWindow = 0;
    for (let i = this.stamps.length - 1; i >= 0 && this.stamps[i]! > now - span - this.guardMs; i--) inWindow++;
    if (inWindow < limit) return now;
    // The write that must leave the window first: the limit-th most recent.
    return this.stamps[this.stamps.length - limit]! + span + this.guardMs;
  }
}

/** The budgets of a process, one per host and token (the token kept only as a hash). */
export class WriteBudgets {
  private readonly budgets = new Map<string, WriteBudget>();
  readonly limits: BudgetLimits;
  readonly clock: Clock;

  constructor(private readonly o: WriteBudgetsOptions = {}) {
    this.limits = o.limits ?? DEFAULT_WRITE_BUDGET;
    this.clock = o.clock ?? systemClock;
  }

  of(apiUrl: string, token: string): WriteBudget {
    const host = originOrText(apiUrl);
    const key = `${host}\n${createHash('sha256').update(token).digest('hex')}`;
    let b = this.budgets.get(key);
    if (b === undefined) {
      b = new WriteBudget(host, this.limits, this.clock, this.o.onWait, this.o.guardMs ?? 1000);
      this.budgets.set(key, b);
    }
    return b;
  }

  /** Every budget in use, for figures (writes spent, time waited). */
  all(): readonly WriteBudget[] {
    return [...this.budgets.values()];
  }
}

function originOrText(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

let shared: WriteBudgets | undefined;

/** The process's budgets at the default limits, for hosts opened without a budget of their own. */
export function processWriteBudgets(): WriteBudgets {
  return (shared ??= new WriteBudgets());
}

/** A request method that creates or changes content on the host. */
export const isWrite = (method: string | undefined): boolean => !['GET', 'HEAD', 'OPTIONS'].includes((method ?? 'GET').toUpperCase());
