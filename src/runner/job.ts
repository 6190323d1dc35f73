// One job, start to end: its workspace, then steps → verify/fix → commit → report, each phase a
// module that returns what it found; the workspace, once closed, leaves a kept worktree at the head.
import type { Identity, Repo, TreeEntry } from '../git/index.js';
import { unmatchedGlobs, type JobSpec, type Recipe } from '../recipe/index.js';
import type { FileReport, JobReport, SplitReport } from '../model/types.js';
import { sumUsage, ZERO_USAGE } from '../model/usage.js';
import type { StructuralPool } from '../structural/index.js';
import { redactDeep, redacting } from '../redact.js';
import { changesBetween } from '../verify/changes-between.js';
import type { WorktreeHead } from '../workspace/types.js';
import { groupMatcher, planCommits } from './commit-plan.js';
import { fileReports } from './file-reports.js';
import { fixCommit } from './fix-commit.js';
import { interruptedReport, unfinishedReport } from './interrupt.js';
import { commitJob, type Committed } from './job-commit.js';
import { commitPieces } from './job-split.js';
import { jobContext, jobId } from './job-context.js';
import { runSteps, type StepsResult } from './job-steps.js';
import { estimateVerifyPhase, runVerifyPhase, type VerifyPhase } from './job-verify.js';
import type { ObjectSinks } from './objects.js';
import { errorReport } from './step-outcome.js';
import { needsDisk } from './steps/index.js';
import type { RunContext, RunOptions } from './types.js';
import { makeWorkspace, worktreeId } from './workspaces.js';
import type { WorktreePool } from './worktree-pool.js';

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
  /** The run's pool of structural workers (astgrep, jscodeshift), started on first use. */
  readonly structural?: () => StructuralPool;
  /** The run's worktrees, shared by its jobs (none in a dry run: a job that must run a command gets a scratch copy). */
  readonly pool?: WorktreePool;
}

export async function runJob(input: JobInput): Promise<JobReport[]> {
  const { repo, recipe, job, options } = input;
  // Secrets out of everything the job says: its events and its report pass one redactor.
  const ctx = redacting(input.ctx);
  const started = Date.now();
  const id = jobId(job);
  const dryRun = options.dryRun ?? false;
  const keep = (options.keepWorktrees ?? false) && !dryRun;
  // One report per piece of a split job: the progress event carries a summary of them all and the pieces.
  const end = (given: JobReport | readonly JobReport[]): JobReport[] => {
    const reports = Array.isArray(given) ? [...given] : [given as JobReport];
    const report = reports.length === 1 && reports[0]!.split === undefined ? reports[0]! : summaryOf(job, reports);
    ctx.onEvent?.({ type: 'job-end', job: id, report, ...(report === reports[0] ? {} : { pieces: reports }) });
    return reports;
  };
  ctx.onEvent?.({ type: 'job-start', job: id });

  const disk = recipe.steps.some(needsDisk) || recipe.verify.length > 0;
  const making = await makeWorkspace(repo, {
    base: input.base,
    entries: input.entries,
    needsDisk: disk,
    keep,
    dryRun,
    id: worktreeId(recipe.name, job.name),
    branch: job.branch,
    job: id,
    // Writing the base tree to disk takes long in a big repository: progress says so when it happens.
    lazy: { pool: input.pool ?? null, log: (message) => ctx.onEvent?.({ type: 'log', job: id, message }) },
  });
  // Another live run holds this job (kind `locked`): this one leaves it alone.
  if (!making.ok) return end(unfinishedReport({ job, base: input.base, step: 0, started }, making.error));
  const { ws, worktree } = making.value;
  // Closed once: a kept worktree before the report (a failure to reach the head fails the job as
  // before it reported), anything else after it: a worktree of its own removed, a pooled one given
  // back at the job's branch head when the job committed one (else at the base).
  let closed = false;
  let backAt: WorktreeHead | null = null;
  try {
    const jc = jobContext(input, ctx, ws);
    const steps = await runSteps(jc);
    // What the steps left: the fix rounds' edits on top of it are committed as their own group.
    const beforeFix = new Map(ws.changes());
    // A plan that estimated the agent's edits instead of making them has nothing for verify to check.
    const unmade = (options.estimateAgent ?? false) && steps.estimates.length > 0;
    // Verify checks the job's change: a job that changed nothing has none to check (unless a fix
    // round could make one), so it gets no verify run and no files on disk for one.
    const nothingToVerify = !steps.stopped && !unmade && recipe.verify.length > 0 && ws.changes().size === 0 && !recipe.verify.some((v) => v.fix);
    const verified = steps.stopped || recipe.verify.length === 0 || nothingToVerify ? null : unmade ? await estimateVerifyPhase(jc) : await runVerifyPhase(jc);
    if (unmade) {
      jc.emit({ type: 'log', job: id, message: 'plan: verify was not run (the agent steps were estimated, not run); its fix rounds are estimated instead' });
    }
    if (nothingToVerify) jc.emit({ type: 'log', job: id, message: 'verify was not run: the job changed nothing, so there is nothing to verify' });
    const errors = [...steps.errors, ...(verified?.errors ?? [])];
    if (jc.interrupted()) {
      const step = verified?.reached ?? steps.reached;
      return end(redactDeep(interruptedReport({ job, base: input.base, step, started, errors, skipped: steps.skipped, usage: jc.usage() }), ctx.redact));
    }

    const changes = ws.changes();
    const files = withMatches(await fileReports(repo, input.entries, changes, groupMatcher(recipe)), steps.matches);
    const fixChanges = await changesBetween(beforeFix, changes, jc.baseState);
    const common = {
      repo,
      recipe,
      base: input.base,
      baseTree: input.baseTree,
      sinks: input.sinks,
      identity: input.identity,
      dryRun,
      force: options.force ?? false,
      worktree: worktree?.path ?? null,
      now: () => ctx.now?.() ?? new Date(),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const whole = { job, files: null, owners: null, split: null };
    const pieces: Committing[] = [];
    if (recipe.split) {
      const split = await commitPieces({ ...common, job, split: recipe.split, beforeFix, fixChanges, env: ctx.env });
      if (split.file === null && split.pieces.length > 0) {
        ctx.onEvent?.({
          type: 'log',
          job: id,
          message: `no CODEOWNERS file in the base commit (${split.dialect}'s locations): every changed file is in the piece \`unowned\``,
        });
      }
      pieces.push(...split.pieces);
    } else {
      const plan = [...planCommits(recipe, job, beforeFix), ...fixCommit(recipe, job, fixChanges)];
      pieces.push({ ...whole, committed: await commitJob({ ...common, job, plan }) });
    }
    // Interrupted at the last moment, before the branch was written: reported as any interrupted job.
    if (pieces.some((p) => p.committed.failure?.kind === 'interrupted')) {
      const step = recipe.steps.length + recipe.verify.length;
      return end(redactDeep(interruptedReport({ job, base: input.base, step, started, errors, skipped: steps.skipped, usage: jc.usage() }), ctx.redact));
    }
    // A kept worktree ends at the branch head, clean under `git status`. A split job has no branch of
    // its own, and no one worktree could be clean at every piece's head: it keeps none, and says so.
    const kept = keep && !recipe.split;
    if (keep && recipe.split)
      ctx.onEvent?.({ type: 'log', job: id, message: 'a job split by owner keeps no worktree: its change is on the branches of its pieces' });
    if (kept) {
      closed = true;
      const head = pieces[0]!.committed.head;
      await ws.close({ keep, head: head === null ? null : { branch: job.branch, commit: head } });
    }
    const unmatched = unmatchedGlobs([recipe.files, job.files], [...input.entries.keys(), ...changes.keys()]);
    // A split job that changed nothing (and left no pieces before) is reported as itself, empty.
    if (pieces.length === 0) pieces.push({ ...whole, committed: { head: null, commits: [], outcome: 'empty', failure: null } });
    const reports = pieces.map((p, i): JobReport => {
      const own = p.committed.failure ? [errorReport(recipe.steps.length + recipe.verify.length, { file: null, failure: p.committed.failure })] : [];
      const mine = (path: string) => p.files === null || p.files.has(path);
      // Skips of files in no piece, and the job's usage, are told once: on its first piece.
      const skipped = p.files === null ? steps.skipped : steps.skipped.filter((k) => mine(k.file) || (i === 0 && !pieces.some((q) => q.files?.has(k.file))));
      const jobErrors = [...errors, ...own];
      return redactDeep(
        {
          recipe: recipe.name,
          name: p.job.name,
          ...(recipe.description ? { description: recipe.description } : {}),
          base: input.base,
          branch: p.job.branch,
          status: jobErrors.length > 0 ? 'failed' : p.committed.outcome,
          head: p.committed.head,
          worktree: kept && worktree ? worktree.path : null,
          commits: p.committed.commits,
          files: files.filter((f) => mine(f.path)),
          errors: jobErrors,
          skipped,
          steps: steps.steps,
          usage: i === 0 ? jc.usage() : ZERO_USAGE,
          ...(verified && verified.diagnostics.length > 0 ? { diagnostics: verified.diagnostics } : {}),
          ...(nothingToVerify ? { verifySkipped: 'no-change' as const } : {}),
          // The model's refusals and a plan's estimates, like the usage, are told once: on the first piece.
          ...(i === 0 ? refusalsAndEstimates(steps, verified) : {}),
          ...(unmatched.length > 0 ? { unmatched } : {}),
          durationMs: Date.now() - started,
          ...(p.owners !== null ? { owners: p.owners } : {}),
          ...(p.split !== null ? { split: p.split } : {}),
        } satisfies JobReport,
        ctx.redact,
      );
    });
    const head = pieces.length === 1 && !recipe.split ? pieces[0]!.committed.head : null;
    if (head !== null && reports[0]!.status !== 'failed') backAt = { branch: job.branch, commit: head };
    return end(reports);
  } finally {
    if (!closed) await ws.close({ keep: false, head: backAt });
  }
}

/** What one branch of the job commits: the whole job, or one piece of a split. */
interface Committing {
  readonly job: JobSpec;
  /** The piece's paths; null for the whole job. */
  readonly files: ReadonlySet<string> | null;
  readonly owners: readonly string[] | null;
  readonly split: SplitReport | null;
  readonly committed: Committed;
}

/** A split job as one line of progress: its pieces' files, commits and usage, failed when any piece failed. */
function summaryOf(job: JobSpec, pieces: readonly JobReport[]): JobReport {
  const { owners: _owners, split: _split, ...first } = pieces[0]!;
  const status = pieces.some((p) => p.status === 'failed')
    ? 'failed'
    : pieces.some((p) => p.status === 'changed')
      ? 'changed'
      : pieces.some((p) => p.status === 'unchanged')
        ? 'unchanged'
        : 'empty';
  return {
    ...first,
    name: job.name,
    // The pieces' branches at a glance: scion/x/{team-api,team-web}.
    branch: `${job.branch}/{${pieces.map((p) => p.split?.piece ?? p.name).join(',')}}`,
    status,
    head: null,
    commits: pieces.flatMap((p) => p.commits),
    files: pieces.flatMap((p) => p.files),
    errors: [...new Map(pieces.flatMap((p) => p.errors).map((e) => [`${e.step}\0${e.kind}\0${e.message}`, e] as const)).values()],
    usage: sumUsage(pieces.map((p) => p.usage)),
  };
}

/** The structural steps' match counts on the file entries they belong to. */
function withMatches(files: readonly FileReport[], matches: ReadonlyMap<string, number>): FileReport[] {
  return files.map((f) => {
    const n = matches.get(f.path);
    return n === undefined ? f : { ...f, matches: n };
  });
}

/** The report's `refusals` and `estimates`, present only when there are some. */
function refusalsAndEstimates(steps: StepsResult, verified: VerifyPhase | null): Pick<JobReport, 'refusals' | 'estimates'> {
  const refusals = [...steps.refusals, ...(verified?.refusals ?? [])];
  const estimates = [...steps.estimates, ...(verified?.estimates ?? [])];
  return { ...(refusals.length > 0 ? { refusals } : {}), ...(estimates.length > 0 ? { estimates } : {}) };
}
