// `run` and `verify`: a shell command in the job's folder (its worktree, or a scratch copy in a dry run).
// What the command changes is picked up and committed like any other change; denied paths it touched
// are put back and reported, and so are paths outside the job's selection (listed as skipped).
import { failure, ScionError, type ErrorKind } from '../../errors.js';
import { reportError, type StepContext } from '../step-context.js';
import { spawnGroup } from '../process-group.js';

export interface RunStep {
  readonly command: string;
  readonly env?: Readonly<Record<string, string>>;
}

const TAIL = 2000;

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
      output = (output + chunk.toString('utf8')).slice(-TAIL * 4);
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

function commandEnv(ctx: StepContext, step: RunStep): Record<string, string | undefined> {
  return { ...ctx.run.env, ...step.env, SCION_RECIPE: ctx.recipe.name, SCION_JOB: ctx.job.name, SCION_DRY_RUN: ctx.dryRun ? '1' : '0' };
}

/** The kind an abort reason stands for: a step timeout passes a ScionError of kind `timeout`; anything else is an interrupt. */
export function abortKind(reason: unknown): ErrorKind {
  return reason instanceof ScionError ? reason.kind : 'interrupted';
}

/** Runs the command; false (and an error recorded) when it failed. */
export async function runCommand(ctx: StepContext, step: RunStep, what: 'run' | 'verify'): Promise<boolean> {
  const root = ctx.ws.root;
  if (root === null) throw new Error('runCommand needs a workspace on disk');
  ctx.log(`$ ${step.command}`);
  const r = await execShell(step.command, root, commandEnv(ctx, step), ctx.signal);
  if (r.code === 0 && !r.aborted) return true;
  if (r.aborted) {
    const kind = abortKind(ctx.signal?.reason);
    const why = kind === 'timeout' ? 'ran past its time limit' : 'was interrupted';
    reportError(ctx, null, failure(kind, `The ${what} command \`${step.command}\` ${why}; it was ended with its whole process group and nothing it did is kept.`, { command: step.command }));
    return false;
  }
  const how = r.code === null ? (r.signal ? `was killed by ${r.signal}` : 'could not start') : `exited with status ${r.code}`;
  const tail = r.output.trim().slice(-TAIL);
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
  if (!okRun) return;
  // Earlier steps cannot have changed a denied or unselected path, so any such change is the command's.
  const changed = [...ctx.ws.changes().keys()];
  const denied = changed.filter((p) => ctx.isDenied(p));
  for (const path of denied) {
    reportError(ctx, path, failure('denied', `The command \`${step.command}\` changed ${path}, which the recipe's deny list protects; the change was put back.`, { path }));
  }
  // The worktree holds the whole tree, but the job owns only its selection: what the command did
  // elsewhere (a lockfile, build output not ignored) is put back and listed under `skipped`, not committed.
  const outside = changed.filter((p) => !ctx.isDenied(p) && !ctx.selected(p));
  for (const path of outside) {
    ctx.skipped.push({ step: ctx.index, file: path, reason: 'outside-selection' });
    ctx.log(`${path} changed outside the job's files selection; not committed`);
  }
  await ctx.ws.revert([...denied, ...outside]);
}
