// One job, start to end: its workspace, then steps → verify/fix → commit → report, each phase a
// module that returns what it found; the workspace, once closed, leaves a kept worktree at the head.
import type { Identity, Repo, TreeEntry } from '../git/index.js';
import { unmatchedGlobs, type JobSpec, type Recipe } from '../recipe/index.js';
import type { JobReport } from '../model/types.js';
import { redactDeep, redacting } from '../redact.js';
import { changesBetween } from '../verify/changes-between.js';
import { groupMatcher, planCommits } from './commit-plan.js';
import { fileReports } from './file-reports.js';
import { fixCommit } from './fix-commit.js';
import { interruptedReport, unfinishedReport } from './interrupt.js';
import { commitJob } from './job-commit.js';
import { jobContext, jobId } from './job-context.js';
import { runSteps, type StepsResult } from './job-steps.js';
import { estimateVerifyPhase, runVerifyPhase, type VerifyPhase } from './job-verify.js';
import type { ObjectSinks } from './objects.js';
import { errorReport } from './step-outcome.js';
import { needsDisk } from './steps/index.js';
import type { RunContext, RunOptions } from './types.js';
import { makeWorkspace, worktreeId } from './workspaces.js';

export { jobId };

export interface JobInput {
  readonly repo: Repo;
  readonly recipe: Recipe;
  readonly job: JobSpec;
  readonly base: string;
  readonly baseTree: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  readonly identity: Identity;
  readonly schemaFor: (path: string) => object | undefined;
  readonly options: RunOptions;
  readonly ctx: RunContext;
  readonly sinks: ObjectSinks;
}

export async function runJob(input: JobInput): Promise<JobReport> {
  const { repo, recipe, job, options } = input;
  // Secrets out of everything the job says (SPEC §7): its events and its report pass one redactor.
  const ctx = redacting(input.ctx);
  const started = Date.now();
  const id = jobId(job);
  const dryRun = options.dryRun ?? false;
  const keep = (options.keepWorktrees ?? false) && !dryRun;
  const end = (report: JobReport): JobReport => {
    ctx.onEvent?.({ type: 'job-end', job: id, report });
    return report;
  };
  ctx.onEvent?.({ type: 'job-start', job: id });

  const disk = recipe.steps.some(needsDisk) || recipe.verify.length > 0;
  const making = await makeWorkspace(repo, {
    base: input.base, entries: input.entries, needsDisk: disk, keep, dryRun, id: worktreeId(recipe.name, job.name), branch: job.branch, job: id,
  });
  // Another live run holds this job (kind `locked`): this one leaves it alone.
  if (!making.ok) return end(unfinishedReport({ job, base: input.base, step: 0, started }, making.error));
  const { ws, worktree } = making.value;
  // Closed once: a kept worktree before the report (a failure to reach the head fails the job as
  // before it reported), anything else after it, its worktree removed.
  let closed = false;
  try {
    const jc = jobContext(input, ctx, ws);
    const steps = await runSteps(jc);
    // What the steps left: the fix rounds' edits on top of it are committed as their own group.
    const beforeFix = new Map(ws.changes());
    // A plan that estimated the agent's edits instead of making them has nothing for verify to check.
    const unmade = (options.estimateAgent ?? false) && steps.estimates.length > 0;
    const verified = steps.stopped || recipe.verify.length === 0 ? null : unmade ? await estimateVerifyPhase(jc) : await runVerifyPhase(jc);
    if (unmade) {
      jc.emit({ type: 'log', job: id, message: 'plan: verify was not run (the agent steps were estimated, not run); its fix rounds are estimated instead' });
    }
    const errors = [...steps.errors, ...(verified?.errors ?? [])];
    if (jc.interrupted()) {
      const step = verified?.reached ?? steps.reached;
      return end(redactDeep(interruptedReport({ job, base: input.base, step, started, errors, skipped: steps.skipped, usage: jc.usage() }), ctx.redact));
    }

    const changes = ws.changes();
    const files = await fileReports(repo, input.entries, changes, groupMatcher(recipe));
    const plan = [...planCommits(recipe, job, beforeFix), ...fixCommit(recipe, job, await changesBetween(beforeFix, changes, jc.baseState))];
    const committed = await commitJob({
      repo, recipe, job, base: input.base, baseTree: input.baseTree, sinks: input.sinks, identity: input.identity, plan, dryRun,
      force: options.force ?? false, worktree: worktree?.path ?? null, now: () => ctx.now?.() ?? new Date(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Interrupted at the last moment, before the branch was written: reported as any interrupted job.
    if (committed.failure?.kind === 'interrupted') {
      const step = recipe.steps.length + recipe.verify.length;
      return end(redactDeep(interruptedReport({ job, base: input.base, step, started, errors, skipped: steps.skipped, usage: jc.usage() }), ctx.redact));
    }
    if (committed.failure) errors.push(errorReport(recipe.steps.length + recipe.verify.length, { file: null, failure: committed.failure }));
    if (keep) {
      closed = true;
      // A kept worktree ends at the branch head, clean under `git status`.
      await ws.close({ keep, head: committed.head === null ? null : { branch: job.branch, commit: committed.head } });
    }
    const unmatched = unmatchedGlobs([recipe.files, job.files], [...input.entries.keys(), ...changes.keys()]);
    const report: JobReport = redactDeep({
      recipe: recipe.name,
      name: job.name,
      ...(recipe.description ? { description: recipe.description } : {}),
      base: input.base,
      branch: job.branch,
      status: errors.length > 0 ? 'failed' : committed.outcome,
      head: committed.head,
      worktree: keep && worktree ? worktree.path : null,
      commits: committed.commits,
      files,
      errors,
      skipped: steps.skipped,
      steps: steps.steps,
      usage: jc.usage(),
      ...(verified && verified.diagnostics.length > 0 ? { diagnostics: verified.diagnostics } : {}),
      ...refusalsAndEstimates(steps, verified),
      ...(unmatched.length > 0 ? { unmatched } : {}),
      durationMs: Date.now() - started,
    } satisfies JobReport, ctx.redact);
    return end(report);
  } finally {
    if (!closed) await ws.close({ keep: false });
  }
}

/** The report's `refusals` and `estimates`, present only when there are some. */
function refusalsAndEstimates(steps: StepsResult, verified: VerifyPhase | null): Pick<JobReport, 'refusals' | 'estimates'> {
  const refusals = [...steps.refusals, ...(verified?.refusals ?? [])];
  const estimates = [...steps.estimates, ...(verified?.estimates ?? [])];
  return { ...(refusals.length > 0 ? { refusals } : {}), ...(estimates.length > 0 ? { estimates } : {}) };
}
