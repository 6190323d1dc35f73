// One job, start to end: workspace, steps in order, verify, commits per group, the branch ref.
// Planning (what would be committed) is separate from writing; a dry run skips the writer.
import { failure, type Failure } from '../errors.js';
import { branchCheckedOut, readBlob, type Identity, type Repo, type TreeEntry } from '../git/index.js';
import { matcher, stepKind, type JobSpec, type Recipe, type Step } from '../recipe/index.js';
import type { Changes } from '../workspace/types.js';
import type { CommitReport, ErrorReport, JobReport, JobStatus, SkipReport, StepReport, Usage } from '../model/types.js';
import { sumUsage } from '../model/usage.js';
import { redactDeep, redacting } from '../redact.js';
import { decideBranch, readBranchState } from './branch.js';
import { groupMatcher, planCommits } from './commit-plan.js';
import { fileReports } from './file-reports.js';
import { buildTrees, writeCommits, type ObjectStore } from './objects.js';
import { reportError, type StepContext } from './step-context.js';
import { fencedWorkspace, runBounded, VERIFY_TIMEOUT_SECONDS, type Bounds, type BoundedOutcome } from './step-bounds.js';
import { needsDisk, runStep, stepLabel, stepLimitMs } from './steps/index.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { changesBetween } from '../verify/changes-between.js';
import { fixCommit } from './fix-commit.js';
import { StepCache, stepCacheDir } from './step-cache.js';
import { runVerify, type VerifyResult } from './verify-fix.js';
import type { RunContext, RunOptions } from './types.js';
import { makeWorkspace, worktreeId } from './workspaces.js';
import { interruptedReport, unfinishedReport } from './interrupt.js';

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
  readonly store: ObjectStore;
}

/** Where a step's errors and skips go: the job's lists, or the step's own until it is known to have ended in time. */
interface StepSink {
  readonly errors: ErrorReport[];
  readonly skipped: SkipReport[];
}

export function jobId(job: JobSpec): string {
  return `${job.recipe.name}/${job.name}`;
}

export async function runJob(input: JobInput): Promise<JobReport> {
  const { repo, recipe, job, options } = input;
  // Secrets out of everything the job says (SPEC §7): its events and its report pass one redactor.
  const ctx = redacting(input.ctx);
  const started = Date.now();
  const id = jobId(job);
  const dryRun = options.dryRun ?? false;
  const keep = (options.keepWorktrees ?? false) && !dryRun;
  ctx.onEvent?.({ type: 'job-start', job: id });

  const errors: ErrorReport[] = [];
  let usage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const skipped: SkipReport[] = [];
  const stepReports: StepReport[] = [];
  const inRecipe = matcher(recipe.files);
  const inJob = matcher(job.files);
  const selected = (p: string) => inRecipe(p) && inJob(p);
  const isDenied = recipe.deny.length > 0 ? matcher({ include: recipe.deny, exclude: [] }) : () => false;
  const disk = recipe.steps.some(needsDisk) || recipe.verify.length > 0;
  const making = await makeWorkspace(repo, {
    base: input.base, entries: input.entries, needsDisk: disk, keep, dryRun, id: worktreeId(recipe.name, job.name), branch: job.branch, job: id,
  });
  if (!making.ok) {
    // Another live run holds this job (kind `locked`): this one leaves it alone.
    const report = unfinishedReport({ job, base: input.base, step: 0, started }, making.error);
    ctx.onEvent?.({ type: 'job-end', job: id, report });
    return report;
  }
  const made = making.value;
  const { ws } = made;
  const stepCache = new StepCache({ repo, dir: stepCacheDir(repo.commonDir), readOnly: dryRun, noRead: options.noCache ?? false });
  const baseState = async (path: string) => {
    const e = input.entries.get(path);
    return e ? { bytes: await readBlob(repo, e.oid), mode: e.mode } : null;
  };
  // Closed once: a kept worktree before the report (a failure to reach the head fails the job as
  // before it reported), anything else after it, its worktree removed.
  let closed = false;

  try {
    const idle: Bounds = { signal: options.signal ?? new AbortController().signal, deadline: null };
    const stepCtx = (index: number, b: Bounds = idle, sink: StepSink = { errors, skipped }): StepContext => ({
      recipe, job, index, ws: b === idle ? ws : fencedWorkspace(ws, b.signal), run: ctx, dryRun, selected, isDenied, schemaFor: input.schemaFor,
      errors: sink.errors, skipped: sink.skipped,
      signal: b.signal,
      deadline: b.deadline,
      gitDir: repo.commonDir,
      noCache: options.noCache ?? false,
      commands: { cache: stepCache, baseTree: input.baseTree, baseState },
      log: (message) => ctx.onEvent?.({ type: 'log', job: id, message }),
      addUsage: (u) => {
        usage = sumUsage([usage, u]);
      },
    });
    /** Runs one step or verify command under its limit; what it reported, or the timeout/interrupt that ended it. */
    const bounded = async (index: number, label: string, limitMs: number | null, body: (c: StepContext) => Promise<void>): Promise<StepSink & { ended: BoundedOutcome }> => {
      const own: StepSink = { errors: [], skipped: [] };
      const ended = await runBounded(limitMs, options.signal, (b) => body(stepCtx(index, b, own)));
      if (ended === 'done') return { ...own, ended };
      // A stopped step's own reports go with it: it is undone whole.
      const f = ended === 'timeout'
        ? failure('timeout', `The step ${label} ran past its timeout of ${(limitMs ?? 0) / 1000} s and was stopped; nothing it changed was kept.`, { timeoutSeconds: (limitMs ?? 0) / 1000 })
        : failure('interrupted', `The run was interrupted during the step ${label}; nothing it changed was kept.`);
      const sink: StepSink = { errors: [], skipped: [] };
      reportError(stepCtx(index, idle, sink), null, f);
      return { ...sink, ended };
    };

    let stopped = false;
    // An interrupt stops the job at the next step boundary (a running command is ended at once).
    const interrupted = () => options.signal?.aborted === true;
    let reached = 0;
    for (const [index, step] of recipe.steps.entries()) {
      reached = index;
      if (interrupted()) break;
      const label = stepLabel(step);
      ctx.onEvent?.({ type: 'step-start', job: id, step: index, label });
      const undo = await ws.snapshot();
      const before = new Map(ws.changes());
      const own = await bounded(index, label, stepLimitMs(step), (c) => runStep(c, step));
      const count = { changed: changedBetween(before, ws.changes()), alreadyApplied: new Set(own.skipped.filter((k) => k.reason === 'already-applied').map((k) => k.file)).size };
      const missed = own.ended === 'done' && own.errors.length === 0 ? expectationMiss(step, label, count) : null;
      if (missed) reportError(stepCtx(index, idle, own), null, missed);
      errors.push(...own.errors);
      skipped.push(...own.skipped);
      const failed = own.errors.length > 0;
      const cut = own.ended !== 'done' || own.errors.some((e) => e.kind === 'timeout');
      // onError: stop drops the failed step whole and keeps what earlier steps did; a step stopped
      // by its timeout (or an interrupt) is dropped whole whatever onError says.
      const undone = failed && (recipe.onError === 'stop' || cut);
      if (undone) await undo();
      stepReports.push({ step: index, kind: stepKind(step), ...(undone ? { changed: 0, alreadyApplied: 0 } : count) });
      ctx.onEvent?.({ type: 'step-end', job: id, step: index, files: ws.changes().size, errors: own.errors.length });
      if ((failed && recipe.onError === 'stop') || own.ended === 'interrupted') {
        stopped = true;
        break;
      }
    }

    // What the steps left: the fix rounds' edits on top of it are committed as their own group.
    const beforeFix = new Map(ws.changes());
    let diagnostics: readonly Diagnostic[] = [];
    if (!stopped && recipe.verify.length > 0) {
      for (const [k, v] of recipe.verify.entries()) {
        const index = recipe.steps.length + k;
        reached = index;
        if (interrupted()) break;
        const label = `verify ${v.run}`;
        ctx.onEvent?.({ type: 'step-start', job: id, step: index, label });
        const undo = await ws.snapshot();
        let verified: VerifyResult = { passed: false, diagnostics: [] };
        // Each run of the command, and each fix round, gets the verify time limit.
        const limit = VERIFY_TIMEOUT_SECONDS * 1000 * (1 + 2 * (v.fix?.agent.maxRounds ?? 0));
        const own = await bounded(index, label, limit, async (c) => {
          verified = await runVerify(c, v, { cache: stepCache, baseTree: input.baseTree, baseState });
        });
        // A verify stopped by its limit or an interrupt keeps no fix edit.
        if (own.ended !== 'done') await undo();
        errors.push(...own.errors);
        ctx.onEvent?.({ type: 'step-end', job: id, step: index, files: 0, errors: own.errors.length });
        if (own.errors.length > 0) {
          diagnostics = verified.diagnostics;
          break;
        }
      }
    }

    if (interrupted()) {
      const report = redactDeep(interruptedReport({ job, base: input.base, step: reached, started, errors, skipped, usage }), ctx.redact);
      ctx.onEvent?.({ type: 'job-end', job: id, report });
      return report;
    }

    const changes = ws.changes();
    const groupOf = groupMatcher(recipe);
    const files = await fileReports(repo, input.entries, changes, groupOf);
    const plan = [...planCommits(recipe, job, beforeFix), ...fixCommit(recipe, job, await changesBetween(beforeFix, changes, baseState))];
    let head: string | null = null;
    let commits: CommitReport[] = [];
    let outcome: Exclude<JobStatus, 'failed'> = 'empty';

    if (plan.length > 0) {
      const built = await buildTrees(input.store, input.baseTree, plan);
      const trees = built.commits;
      const ref = `refs/heads/${job.branch}`;
      const state = await readBranchState(repo, ref, recipe.name, job.name, input.base);
      let holder: string | null = null;
      const decision = decideBranch(state, input.base, trees, options.force ?? false);
      outcome = decision.action === 'unchanged' ? 'unchanged' : 'changed';
      if (decision.action === 'diverged') {
        reportError(stepCtx(recipe.steps.length + recipe.verify.length), null, divergedFailure(job.branch, decision.head, decision.scions));
        commits = plan.map((p) => ({ sha: null, group: p.group, message: p.message, files: p.files }));
      } else if (decision.action === 'unchanged') {
        head = decision.head;
        commits = decision.chain.map((c, i) => ({ sha: c.sha, group: plan[i]!.group, message: c.message, files: plan[i]!.files }));
      } else if (!dryRun && (holder = await branchCheckedOut(repo, ref)) !== null && holder !== made.worktree?.path) {
        // Moving a branch someone has checked out would leave their checkout out of step with it.
        reportError(stepCtx(recipe.steps.length + recipe.verify.length), null, failure('branch-diverged', `Branch ${job.branch} is checked out in ${holder}; switch that checkout to another branch (or remove it) and run again.`, { branch: job.branch, worktree: holder }, CHECKED_OUT_HINT));
        commits = plan.map((p) => ({ sha: null, group: p.group, message: p.message, files: p.files }));
      } else if (dryRun) {
        commits = plan.map((p) => ({ sha: null, group: p.group, message: p.message, files: p.files }));
      } else {
        const written = await writeCommits(repo, {
          ref, base: input.base, commits: trees, expectedOld: decision.expectedOld, identity: input.identity, now: ctx.now?.() ?? new Date(),
        });
        if (written.ok) {
          head = written.value.head;
          commits = plan.map((p, i) => ({ sha: written.value.shas[i]!, group: p.group, message: p.message, files: p.files }));
        } else {
          // A ref in the way (`scion/a` when writing `scion/a/b`) or one moved meanwhile: --force does not help.
          const e = written.error;
          reportError(stepCtx(recipe.steps.length + recipe.verify.length), null, e.kind === 'branch-diverged' && e.hint === undefined ? { ...e, hint: REF_CLASH_HINT } : e);
        }
      }
    }

    if (keep) {
      closed = true;
      // A kept worktree ends at the branch head, clean under `git status`.
      await ws.close({ keep, head: head === null ? null : { branch: job.branch, commit: head } });
    }
    const status: JobStatus = errors.length > 0 ? 'failed' : outcome;
    const report: JobReport = redactDeep({
      recipe: recipe.name,
      name: job.name,
      ...(recipe.description ? { description: recipe.description } : {}),
      base: input.base,
      branch: job.branch,
      status,
      head,
      worktree: keep && made.worktree ? made.worktree.path : null,
      commits,
      files,
      errors,
      skipped,
      steps: stepReports,
      usage,
      ...(diagnostics.length > 0 ? { diagnostics } : {}),
      durationMs: Date.now() - started,
    } satisfies JobReport, ctx.redact);
    ctx.onEvent?.({ type: 'job-end', job: id, report });
    return report;
  } finally {
    if (!closed) await ws.close({ keep: false });
  }
}

/** Paths whose state (content, mode, presence) differs between two views of a job's changes. */
function changedBetween(before: Changes, after: Changes): number {
  let n = 0;
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(path);
    const b = after.get(path);
    if (a === b) continue;
    const same = a !== undefined && b !== undefined && a !== null && b !== null && a.mode === b.mode && Buffer.from(a.bytes).equals(b.bytes);
    if (!same) n++;
  }
  return n;
}

/** SPEC §2 `expect`: files changed plus those found already applied must lie in [min, max]. */
function expectationMiss(step: Step, label: string, c: { changed: number; alreadyApplied: number }): Failure | null {
  const e = step.expect;
  if (!e) return null;
  const n = c.changed + c.alreadyApplied;
  if ((e.min === undefined || n >= e.min) && (e.max === undefined || n <= e.max)) return null;
  const range = e.min !== undefined && e.max !== undefined ? `${e.min} to ${e.max}` : e.min !== undefined ? `at least ${e.min}` : `at most ${e.max}`;
  const applied = c.alreadyApplied > 0 ? ` and found ${c.alreadyApplied} already applied` : '';
  return failure('expectation', `The step ${label} changed ${c.changed} file${c.changed === 1 ? '' : 's'}${applied}; its expect wants ${range}.`, {
    changed: c.changed,
    alreadyApplied: c.alreadyApplied,
    ...(e.min === undefined ? {} : { min: e.min }),
    ...(e.max === undefined ? {} : { max: e.max }),
  });
}

const CHECKED_OUT_HINT = 'Switch the checkout that holds the branch to another branch (or remove that worktree), then run again; --force does not change this.';
const REF_CLASH_HINT =
  'Another ref is in the way (a branch named like a folder of this one, or the branch moved meanwhile): rename or delete it, or change the recipe\'s `branch`, then run again; --force does not change this.';
const NOT_SCIONS_HINT =
  "This branch was not written by scion for this recipe and job, so scion never overwrites it: change the recipe's `branch`, or rename or delete that branch yourself.";

/** The branch holds commits scion did not write: --force helps only on a scion branch someone added to. */
function divergedFailure(branch: string, head: string, scions: boolean): Failure {
  const at = head.slice(0, 12);
  return scions
    ? failure('branch-diverged', `Branch ${branch} holds commits scion did not write on top of its own (head ${at}); merge or delete them, or rerun with --force to overwrite them.`, { branch, head })
    : failure('branch-diverged', `Branch ${branch} exists and was not written by scion for this recipe and job (head ${at}); scion never overwrites it, --force or not.`, { branch, head }, NOT_SCIONS_HINT);
}
