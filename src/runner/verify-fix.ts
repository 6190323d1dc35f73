// One verify command of a job: it runs (through the step cache); a failure is
// parsed into diagnostics, and with `fix` a conversation gets them and the job's files, after which
// the command runs again, at most maxRounds times. What a command writes is not part of the result
// (each run is undone); what the fix writes is, and the runner commits it as the group `fix`.
import { runFix, type FailedCommand, type FixConfig } from '../agent/fix.js';
import type { Estimate, GuardRefusal } from '../agent/types.js';
import { failure } from '../errors.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { makeRedactor } from '../redact.js';
import { parseDiagnostics } from '../verify/diagnostics.js';
import { passed, verifyWithFix, type CommandRun } from '../verify/loop.js';
import type { FileState } from '../workspace/types.js';
import { cachedCommand } from './cached-command.js';
import { agentEnv, agentFiles } from './agent-files.js';
import type { StepContext } from './step-context.js';
import type { StepProblem } from './step-outcome.js';
import type { StepCache } from './step-cache.js';
import { commandEnv, execShell } from './steps/command.js';
import { plural } from '../util/plural.js';

export interface FixSpec {
  readonly agent: { readonly prompt?: string; readonly maxRounds: number; readonly model?: string; readonly maxTurns?: number; readonly maxTokens?: number };
}

export interface VerifySpec {
  readonly run: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly fix?: FixSpec;
}

export interface VerifyEnv {
  readonly cache: StepCache | null;
  readonly baseTree: string;
  readonly baseState: (path: string) => Promise<FileState | null>;
}

export interface VerifyResult {
  readonly passed: boolean;
  /** Of the command's last run, when it failed. */
  readonly diagnostics: readonly Diagnostic[];
  /** The fix rounds' errors, then the command's failure (none when its limit or an interrupt stopped it: the runner says which). */
  readonly errors: readonly StepProblem[];
  /** The fix rounds' edits that the guards refused. */
  readonly refusals: readonly GuardRefusal[];
  /** In a plan: what the fix rounds would cost (none was started). */
  readonly estimate: Estimate | null;
}

const TAIL = 2000;
/** The root diagnostics are resolved against while the job's files are not on disk. */
const NO_FOLDER = '/nonexistent/scion-job';
const DEFAULT_FIX_TURNS = 12;
const DEFAULT_FIX_TOKENS = 8192;

export async function runVerify(ctx: StepContext, v: VerifySpec, venv: VerifyEnv): Promise<VerifyResult> {
  const redact = ctx.run.redact ?? makeRedactor(ctx.run.env);
  const env = commandEnv(ctx, v.env);
  const fix = v.fix?.agent;

  const exec = async (): Promise<CommandRun> => {
    // The command's own writes (build output, caches) are not part of the result.
    const undo = await ctx.ws.snapshot();
    try {
      const r = await cachedCommand({
        cache: venv.cache,
        kind: 'verify',
        command: v.run,
        env,
        ...(v.env ? { stepEnv: v.env } : {}),
        baseTree: venv.baseTree,
        ws: ctx.ws,
        exec: async () => {
          // The files go to disk only now, when the command must really run (a cached result needs none).
          const root = await ctx.ws.onDisk(ctx.signal);
          ctx.log(`$ ${v.run}`);
          const out = await execShell(v.run, root, env, ctx.signal);
          return { status: out.code, signal: out.signal, output: redact(out.output), ...(out.aborted ? { aborted: true } : {}) };
        },
        // A failure is kept only when a fix follows it: a rerun then reaches the cached fix too.
        record: (r) => passed(r) || fix !== undefined,
        baseState: venv.baseState,
        withChanges: false,
        log: ctx.log,
      });
      if (r.cached) ctx.log(`$ ${v.run} (result from the step cache: not run)`);
      return r;
    } finally {
      await undo();
    }
  };

  const refusals: GuardRefusal[] = [];
  // A failure replayed from the cache may come before any folder: its paths still resolve, relative
  // ones as they are and the recorded folder's as `.` (cached-command.ts).
  const diagnostics = (output: string) => {
    const root = ctx.ws.root ?? NO_FOLDER;
    return parseDiagnostics(output, { cwd: root, root, keep: (p) => ctx.ws.mode(p) !== undefined });
  };
  const fixRound = async (failed: FailedCommand) => {
    const out = await runFix(fixConfig(ctx, fix as FixSpec['agent']), failed, await agentFiles(ctx), agentEnv(ctx));
    ctx.addUsage(out.usage);
    refusals.push(...out.refusals);
    return out;
  };
  // A plan asks no model: the command runs once, and a failure's fix rounds are estimated instead.
  const rounds = ctx.estimate ? 0 : (fix?.maxRounds ?? 0);
  const result = await verifyWithFix(v.run, rounds, {
    exec,
    diagnostics,
    ...(fix && !ctx.estimate
      ? {
          fix: (round, failed) => {
            ctx.log(`fix round ${round}/${fix.maxRounds}: ${failed.diagnostics.length} diagnostic(s) from \`${v.run}\``);
            return fixRound(failed);
          },
        }
      : {}),
  });
  const fixErrors = result.fixErrors;
  // A plan estimates the fix rounds a failing command would start.
  const estimating = fix && ctx.estimate && !passed(result.last) && !result.last.aborted;
  const estimate = estimating ? (await fixRound({ command: v.run, ...result.last, diagnostics: result.diagnostics })).estimate : null;
  if (result.passed) return { passed: true, diagnostics: [], errors: fixErrors, refusals, estimate };
  const r = result.last;
  if (r.aborted) {
    // Stopped by the verify's time limit or an interrupt: the runner reports which.
    return { passed: false, diagnostics: [], errors: fixErrors, refusals, estimate };
  }
  const how = r.status === null ? (r.signal ? `was killed by ${r.signal}` : 'could not start') : `exited with status ${r.status}`;
  const after = result.rounds > 0 ? ` after ${plural(result.rounds, 'fix round')}` : '';
  const tail = r.output.trim().slice(-TAIL);
  const failed = failure(
    'command-failed',
    `The verify command \`${v.run}\` ${how}${after}; run it in the job's worktree (--keep-worktrees) to see why.${tail ? `\n${tail}` : ''}`,
    {
      command: v.run,
      status: r.status,
      diagnostics: result.diagnostics.length,
    },
  );
  return { passed: false, diagnostics: result.diagnostics, errors: [...fixErrors, { file: null, failure: failed }], refusals, estimate };
}

function fixConfig(ctx: StepContext, fix: FixSpec['agent']): FixConfig {
  return {
    maxTurns: fix.maxTurns ?? DEFAULT_FIX_TURNS,
    maxTokens: fix.maxTokens ?? DEFAULT_FIX_TOKENS,
    maxRounds: fix.maxRounds,
    ...(fix.prompt === undefined ? {} : { prompt: fix.prompt }),
    ...(fix.model === undefined ? {} : { model: fix.model }),
    // The conversation ends with the verify's time limit, like the command does.
    ...(ctx.deadline === null ? {} : { timeoutMs: Math.max(1, ctx.deadline - Date.now()) }),
  };
}

/**
 * In a plan whose agent steps were estimated rather than run, verify is not run (the code it would
 * check was never written): its fix rounds are estimated over the job's files, from $0 (verify may
 * pass) to maxRounds full rounds.
 */
export async function estimateUnrunFix(ctx: StepContext, v: VerifySpec): Promise<Estimate | null> {
  const fix = v.fix?.agent;
  if (!fix) return null;
  const failed: FailedCommand = { command: v.run, status: null, diagnostics: [], output: "(not run: the plan did not make the agent's edits it would check)" };
  const out = await runFix(fixConfig(ctx, fix), failed, await agentFiles(ctx), agentEnv(ctx));
  return out.estimate === null ? null : { ...out.estimate, minUsd: out.estimate.minUsd === null ? null : 0 };
}
