// Verify, then fix: run the command; while it fails and rounds are left, hand its
// diagnostics to the fix conversation and run it again. The I/O (the command, the parser's folder,
// the conversation) is passed in, so the loop is the same for the runner and for its tests.
import type { Failure } from '../errors.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Usage } from '../model/types.js';
import { sumUsage, ZERO_USAGE } from '../model/usage.js';

export interface CommandRun {
  /** Exit status; null when it was killed or could not start. */
  readonly status: number | null;
  readonly signal: string | null;
  readonly output: string;
  /** Interrupted or timed out: no fix round follows, the caller reports why. */
  readonly aborted?: boolean;
}

export interface FailedRun {
  readonly command: string;
  readonly status: number | null;
  readonly signal: string | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly output: string;
}

export interface FixRound {
  /** The conversation ended by itself (not over maxTurns, an API error or a timeout). */
  readonly stopped: boolean;
  readonly usage: Usage;
  readonly errors: readonly { readonly file: string | null; readonly failure: Failure }[];
}

export interface LoopIO {
  exec(): Promise<CommandRun>;
  diagnostics(output: string): Diagnostic[];
  /** One fix round (1-based). Absent: the command has no `fix`. */
  fix?: (round: number, failed: FailedRun) => Promise<FixRound>;
}

export interface LoopResult {
  readonly passed: boolean;
  /** Fix rounds that ran. */
  readonly rounds: number;
  /** The last run of the command. */
  readonly last: CommandRun;
  /** Of the last run (empty when it passed). */
  readonly diagnostics: readonly Diagnostic[];
  readonly usage: Usage;
  /** Conversations that gave up: the loop stops at the first. */
  readonly fixErrors: readonly { readonly file: string | null; readonly failure: Failure }[];
}

/** The commit group of the fix rounds' edits. */
export const FIX_GROUP = 'fix';

export const passed = (r: CommandRun): boolean => r.status === 0 && !r.aborted;

export async function verifyWithFix(command: string, maxRounds: number, io: LoopIO): Promise<LoopResult> {
  let last = await io.exec();
  let rounds = 0;
  let usage = ZERO_USAGE;
  const fixErrors: { file: string | null; failure: Failure }[] = [];
  while (!passed(last) && !last.aborted && io.fix && rounds < maxRounds) {
    rounds++;
    const diagnostics = io.diagnostics(last.output);
    const round = await io.fix(rounds, { command, status: last.status, signal: last.signal, diagnostics, output: last.output });
    usage = sumUsage([usage, round.usage]);
    fixErrors.push(...round.errors);
    // A conversation that failed (no key, API down, out of turns) would fail the same way again;
    // what it did edit is still checked by one more run of the command.
    const more = round.stopped && round.errors.length === 0;
    last = await io.exec();
    if (!more) break;
  }
  const ok = passed(last);
  return { passed: ok, rounds, last, diagnostics: ok || last.aborted ? [] : io.diagnostics(last.output), usage, fixErrors };
}
