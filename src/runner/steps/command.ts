// `run` and `verify`: a shell command in the job's folder (its worktree, or a scratch copy in a dry run).
// What the command changes is picked up and committed like any other change; denied paths it touched
// are put back and reported, and so are paths outside the job's selection (listed as skipped).
import { checkPath, writtenSecret } from '../../core/index.js';
import { failure, isJobKind, ScionError, type ErrorKind, type Failure } from '../../errors.js';
import { makeRedactor } from '../../redact.js';
import { cachedRunStep } from '../cached-command.js';
import { engineOptions, type StepContext } from '../step-context.js';
import type { Changes } from '../../workspace/types.js';
import { Findings, type StepOutcome } from '../step-outcome.js';
import { spawnGroup } from '../process-group.js';
import { isStepTimeout } from '../step-bounds.js';

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
  /** Set when `signal` fired before the command ended (it was then ended, with its whole group). */
  readonly aborted: boolean;
}

/** Runs `command` with /bin/sh in its own process group; aborting `signal` ends the whole group. */
export function execShell(command: string, cwd: string, env: Record<string, string | undefined>, signal?: AbortSignal): Promise<CommandResult> {
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-WINDOW);
    };
    const child = spawnGroup('/bin/sh', ['-c', command], { cwd, env, signal });
    if (child === null) {
      resolve({ code: null, signal: null, output: '', aborted: true });
      return;
    }
    child.process.stdout?.on('data', keep);
    child.process.stderr?.on('data', keep);
    child.process.on('error', (e) => resolve({ code: null, signal: null, output: e.message, aborted: child.aborted() }));
    child.process.on('close', (code, sig) => resolve({ code, signal: sig, output, aborted: child.aborted() }));
  });
}

/**
 * The environment of every command scion runs in a job (`run` steps and `verify` commands): the run's
 * own, the command's `env`, and SCION_RECIPE, SCION_JOB and SCION_DRY_RUN ("1" under plan, else "0").
 */
export function commandEnv(ctx: StepContext, own: Readonly<Record<string, string>> | undefined): Record<string, string | undefined> {
  return { ...ctx.run.env, ...own, SCION_RECIPE: ctx.recipe.name, SCION_JOB: ctx.job.name, SCION_DRY_RUN: ctx.dryRun ? '1' : '0' };
}

/** The kind an abort reason stands for: the step's own deadline (a `timeout` ScionError) is a `timeout`; anything else is an interrupt. */
export function abortKind(reason: unknown): ErrorKind {
  if (isStepTimeout(reason)) return 'timeout';
  return reason instanceof ScionError && isJobKind(reason.kind) ? reason.kind : 'interrupted';
}

/** Runs the command; why it failed, or null when it passed. */
export async function runCommand(ctx: StepContext, step: RunStep): Promise<Failure | null> {
  const env = commandEnv(ctx, step.env);
  // The files go to disk only now, when the command must really run (a cached result needs none).
  const exec = async () => {
    const root = await ctx.ws.onDisk(ctx.signal);
    ctx.log(`$ ${step.command}`);
    return execShell(step.command, root, env, ctx.signal);
  };
  // A run step goes through the step cache; verify commands go through runVerify.
  const r = ctx.commands ? await cachedRunStep(ctx.commands, ctx.ws, step, env, exec, ctx.log) : await exec();
  if (r.code === 0 && !r.aborted) return null;
  if (r.aborted) {
    const kind = abortKind(ctx.signal?.reason);
    const why = kind === 'timeout' ? 'ran past its time limit' : 'was interrupted';
    return failure(kind, `The run command \`${step.command}\` ${why}; it was ended with its whole process group and nothing it did is kept.`, {
      command: step.command,
    });
  }
  const how = r.code === null ? (r.signal ? `was killed by ${r.signal}` : 'could not start') : `exited with status ${r.code}`;
  const tail = (ctx.run.redact ?? makeRedactor(ctx.run.env))(r.output).trim().slice(-TAIL);
  return failure(
    'command-failed',
    `The run command \`${step.command}\` ${how}; run it in the job's worktree (--keep-worktrees) to see why.${tail ? `\n${tail}` : ''}`,
    {
      command: step.command,
      status: r.code,
    },
  );
}

export async function runRunStep(ctx: StepContext, step: RunStep): Promise<StepOutcome> {
  const found = new Findings();
  // The job's changes before the command: what a refused change of the command's is put back to.
  const before = new Map(ctx.ws.changes());
  const failed = await runCommand(ctx, step);
  if (failed) found.error(null, failed);
  await ctx.ws.sync();
  // What the command changed is judged whether it passed or not: with onError: continue, the
  // changes of a failed command stay in the job.
  await refuseGitPaths(ctx, step, found, before);
  // Earlier steps cannot have changed a denied or unselected path, so any such change is the command's.
  const changed = [...ctx.ws.changes().keys()];
  const denied = changed.filter((p) => ctx.isDenied(p));
  for (const path of denied) {
    found.error(
      path,
      failure('denied', `The command \`${step.command}\` changed ${path}, which the recipe's deny list protects; the change was put back.`, { path }),
    );
  }
  // The worktree holds the whole tree, but the job owns only its selection: what the command did
  // elsewhere (a lockfile, build output not ignored) is put back and listed under `skipped`, not committed.
  const outside = changed.filter((p) => !ctx.isDenied(p) && !ctx.selected(p));
  for (const path of outside) {
    found.skip(path, 'outside-selection');
    ctx.log(`${path} changed outside the job's files selection; not committed`);
  }
  await ctx.ws.revert([...denied, ...outside], before);
  await refuseSecrets(ctx, step, found, before);
  return found.outcome();
}

/**
 * A file the command wrote (or the step cache replayed) goes through the engine's secret check, as a
 * `write` step's content would: one that adds a credential is put back as it was before the command,
 * and reported with kind `secret`. Its content is never echoed.
 */
async function refuseSecrets(ctx: StepContext, step: RunStep, found: Findings, before: Changes): Promise<void> {
  const bad: string[] = [];
  for (const [path, state] of ctx.ws.changes()) {
    if (state === null) continue;
    const prior = before.has(path) ? (before.get(path) ?? null) : await ctx.baseState(path);
    if (prior !== null && Buffer.from(prior.bytes).equals(state.bytes)) continue;
    const secret = writtenSecret(path, prior?.bytes ?? null, state.bytes, engineOptions(ctx, path));
    if (secret === null) continue;
    bad.push(path);
    const message = `The command \`${step.command}\` changed ${path}: ${secret.message} The change was put back and is not committed.`;
    found.error(path, { ...secret, message });
  }
  if (bad.length > 0) await ctx.ws.revert(bad, before);
}

/**
 * Files the command wrote that git refuses: at a path git refuses (`.git.`, `git~1/…`: reported
 * `outside` and removed), or with content its fsck refuses (a bad .gitmodules: the path validator's
 * own failure, and the file is put back as it was).
 */
async function refuseGitPaths(ctx: StepContext, step: RunStep, found: Findings, before: Changes): Promise<void> {
  const bad: string[] = [];
  for (const [path, state] of ctx.ws.changes()) {
    const checked = state === null ? null : checkPath(path, { mode: state.mode, content: state.bytes });
    if (checked === null || checked.ok) continue;
    bad.push(path);
    if (checked.error.kind !== 'outside') {
      const what = String(checked.error.data?.['reason'] ?? checked.error.message);
      const told = `The command \`${step.command}\` wrote ${JSON.stringify(path)} with content git refuses (${what}); the change was put back, not committed.`;
      found.error(path, failure(checked.error.kind, told, { ...checked.error.data, path }));
      continue;
    }
    const why = checked.error.data?.['reason'] ?? checked.error.message;
    const message =
      `The command \`${step.command}\` created ${JSON.stringify(path)}, which git refuses in a repository (${String(why)}); it was ` +
      `removed and is not committed.`;
    found.error(path, failure('outside', message, { path }));
  }
  if (bad.length > 0) await ctx.ws.revert(bad, before);
}
