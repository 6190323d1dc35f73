// `run` and `verify`: a shell command in the job's folder (its worktree, or a scratch copy in a dry run).
// What the command changes is picked up and committed like any other change; denied paths it touched
// are put back and reported.
import { spawn } from 'node:child_process';
import { checkPath } from '../../core/index.js';
import { failure } from '../../errors.js';
import { makeRedactor } from '../../redact.js';
import { reportError, type StepContext } from '../step-context.js';

export interface RunStep {
  readonly command: string;
  readonly env?: Readonly<Record<string, string>>;
}

const TAIL = 2000;
/**
 * Output kept while the command runs. Secrets are masked in it before the tail is cut (a tail cut
 * first could keep half a token); a window much longer than the tail keeps a secret cut at its own
 * start out of the tail.
 */
const WINDOW = TAIL * 32;

export interface CommandResult {
  readonly code: number | null;
  readonly signal: string | null;
  readonly output: string;
}

export function execShell(command: string, cwd: string, env: Record<string, string | undefined>): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-WINDOW);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => resolve({ code: null, signal: null, output: e.message }));
    child.on('close', (code, signal) => resolve({ code, signal, output }));
  });
}

function commandEnv(ctx: StepContext, step: RunStep): Record<string, string | undefined> {
  return { ...ctx.run.env, ...step.env, SCION_RECIPE: ctx.recipe.name, SCION_JOB: ctx.job.name, SCION_DRY_RUN: ctx.dryRun ? '1' : '0' };
}

/** Runs the command; false (and an error recorded) when it failed. */
export async function runCommand(ctx: StepContext, step: RunStep, what: 'run' | 'verify'): Promise<boolean> {
  const root = ctx.ws.root;
  if (root === null) throw new Error('runCommand needs a workspace on disk');
  ctx.log(`$ ${step.command}`);
  const r = await execShell(step.command, root, commandEnv(ctx, step));
  if (r.code === 0) return true;
  const how = r.code === null ? (r.signal ? `was killed by ${r.signal}` : 'could not start') : `exited with status ${r.code}`;
  const tail = (ctx.run.redact ?? makeRedactor(ctx.run.env))(r.output).trim().slice(-TAIL);
  reportError(
    ctx,
    null,
    failure('command-failed', `The ${what} command \`${step.command}\` ${how}; run it in the job's worktree (--keep-worktrees) to see why.${tail ? `\n${tail}` : ''}`, {
      command: step.command,
      status: r.code,
    }),
  );
  return false;
}

export async function runRunStep(ctx: StepContext, step: RunStep): Promise<void> {
  const okRun = await runCommand(ctx, step, 'run');
  await ctx.ws.sync();
  await refuseGitPaths(ctx, step);
  if (!okRun) return;
  // Earlier steps cannot have changed a denied path, so any denied change now is the command's.
  const denied = [...ctx.ws.changes().keys()].filter((p) => ctx.isDenied(p));
  for (const path of denied) {
    reportError(ctx, path, failure('denied', `The command \`${step.command}\` changed ${path}, which the recipe's deny list protects; the change was put back.`, { path }));
  }
  await ctx.ws.revert(denied);
}

/** Files the command created at paths git refuses (`.git.`, `git~1/…`): reported `outside` and removed. */
async function refuseGitPaths(ctx: StepContext, step: RunStep): Promise<void> {
  const bad: string[] = [];
  for (const [path, state] of ctx.ws.changes()) {
    const checked = state === null ? null : checkPath(path, { mode: state.mode });
    if (checked === null || checked.ok) continue;
    bad.push(path);
    const why = checked.error.data?.['reason'] ?? checked.error.message;
    const message = `The command \`${step.command}\` created ${JSON.stringify(path)}, which git refuses in a repository (${String(why)}); it was removed and is not committed.`;
    reportError(ctx, path, failure('outside', message, { path }));
  }
  if (bad.length > 0) await ctx.ws.revert(bad);
}
