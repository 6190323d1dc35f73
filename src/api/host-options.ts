// What every host a command opens shares: one set of write budgets (--write-budget, 80 a minute and
// 500 an hour per host and token by default) whose waits are printed as they start, and the clock
// they wait on (a test injects one through CliIo). Made once per command, so a campaign's
// repositories, its pull requests, comments and issue edits all spend from the same budget.
import { usageError } from '../errors.js';
import { parseWriteBudget, WriteBudgets, type BudgetWait, type Clock } from '../host/budget.js';
import type { HostOptions } from '../host/open.js';

export type { Clock, HostOptions };

/** Where the budget's waits are told, the clock they wait on, and the signal that cuts them short. */
export interface HostOptionsIo {
  readonly stderr: { write(s: string): unknown };
  readonly clock?: Clock;
  readonly signal?: AbortSignal;
}

export interface BudgetFlags {
  writeBudget?: string;
}

const made = new WeakMap<HostOptionsIo, HostOptions>();

export function hostOptionsFor(io: HostOptionsIo, flags: BudgetFlags): HostOptions {
  const known = made.get(io);
  if (known !== undefined) return known;
  const limits = flags.writeBudget === undefined ? undefined : parseWriteBudget(flags.writeBudget);
  if (limits === null) {
    const given = flags.writeBudget ?? '';
    throw usageError(
      `--write-budget ${given} is not PER_MINUTE/PER_HOUR with whole numbers of at least 1 (for example --write-budget 80/500).`,
      [],
      'write-budget',
    );
  }
  const writes = new WriteBudgets({
    ...(limits ? { limits } : {}),
    ...(io.clock ? { clock: io.clock } : {}),
    onWait: (w) => io.stderr.write(`scion: ${waitLine(w, writes.limits)}\n`),
  });
  const o: HostOptions = { writes, ...(io.clock ? { sleep: (ms: number) => io.clock!.sleep(ms, io.signal) } : {}) };
  made.set(io, o);
  return o;
}

/** The progress line of one wait. */
export function waitLine(w: BudgetWait, limits: { perMinute: number; perHour: number }): string {
  const time = duration(w.ms);
  return w.reason === 'host'
    ? `waiting ${time}: ${w.host} asked scion to slow down (secondary rate limit); the request is retried after that`
    : `waiting ${time} for the write budget of ${w.host} (${limits.perMinute} a minute, ${limits.perHour} an hour; --write-budget)`;
}

function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m}m` : `${m}m ${s % 60}s`;
}
