// One job, start to end: workspace, steps in order, verify, commits per group, the branch ref.
// Planning (what would be committed) is separate from writing; a dry run skips the writer.
import { failure } from '../errors.js';
import { branchCheckedOut, setWorktreeHead, type Identity, type Repo, type TreeEntry } from '../git/index.js';
import { matcher, type JobSpec, type Recipe } from '../recipe/index.js';
import type { Changes } from '../workspace/types.js';
import type { CommitReport, ErrorReport, JobReport, JobStatus, SkipReport, Usage } from '../model/types.js';
import { sumUsage } from '../model/usage.js';
import { redactDeep, redacting } from '../redact.js';
import { decideBranch, readBranchState } from './branch.js';
import { groupMatcher, planCommits } from './commit-plan.js';
import { fileReports } from './file-reports.js';
import { buildTrees, writeCommits, type ObjectStore } from './objects.js';
import { reportError, type StepContext } from './step-context.js';
import { needsDisk, runStep, stepLabel } from './steps/index.js';
import { runCommand } from './steps/run.js';
import type { RunContext, RunOptions } from './types.js';
import { makeWorkspace, worktreeId } from './workspaces.js';

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
  const inRecipe = matcher(recipe.files);
  const inJob = matcher(job.files);
  const selected = (p: string) => inRecipe(p) && inJob(p);
  const isDenied = recipe.deny.length > 0 ? matcher({ include: recipe.deny, exclude: [] }) : () => false;
  const disk = recipe.steps.some(needsDisk) || recipe.verify.length > 0;
  const made = await makeWorkspace(repo, { base: input.base, entries: input.entries, needsDisk: disk, keep, dryRun, id: worktreeId(recipe.name, job.name) });
  const { ws } = made;
  let keepOnDisk = keep;

  try {
    const stepCtx = (index: number): StepContext => ({
      recipe, job, index, ws, run: ctx, dryRun, selected, isDenied, schemaFor: input.schemaFor, errors, skipped,
      gitDir: repo.commonDir,
      noCache: options.noCache ?? false,
      log: (message) => ctx.onEvent?.({ type: 'log', job: id, message }),
      addUsage: (u) => {
        usage = sumUsage([usage, u]);
      },
    });

    let stopped = false;
    for (const [index, step] of recipe.steps.entries()) {
      ctx.onEvent?.({ type: 'step-start', job: id, step: index, label: stepLabel(step) });
      const undo = await ws.snapshot();
      const before = errors.length;
      await runStep(stepCtx(index), step);
      const failed = errors.length > before;
      // onError: stop drops the failed step whole and keeps what earlier steps did.
      if (failed && recipe.onError === 'stop') await undo();
      ctx.onEvent?.({ type: 'step-end', job: id, step: index, files: ws.changes().size, errors: errors.length - before });
      if (failed && recipe.onError === 'stop') {
        stopped = true;
        break;
      }
    }

    if (!stopped && recipe.verify.length > 0) {
      // Verify judges the result; what it writes (build output, caches) is not part of it.
      const undo = await ws.snapshot();
      for (const [k, v] of recipe.verify.entries()) {
        const index = recipe.steps.length + k;
        ctx.onEvent?.({ type: 'step-start', job: id, step: index, label: `verify ${v.run}` });
        const passed = await runCommand(stepCtx(index), { command: v.run }, 'verify');
        ctx.onEvent?.({ type: 'step-end', job: id, step: index, files: 0, errors: passed ? 0 : 1 });
        if (!passed) break;
      }
      await undo();
    }

    const changes = ws.changes();
    const groupOf = groupMatcher(recipe);
    const files = await fileReports(repo, input.entries, changes, groupOf);
    const plan = planCommits(recipe, job, changes);
    let head: string | null = null;
    let commits: CommitReport[] = [];
    let outcome: Exclude<JobStatus, 'failed'> = 'empty';
    let oids: ReadonlyMap<string, string> = new Map();

    if (plan.length > 0) {
      const built = await buildTrees(input.store, input.baseTree, plan);
      const trees = built.commits;
      const ref = `refs/heads/${job.branch}`;
      const state = await readBranchState(repo, ref, recipe.name, job.name);
      let holder: string | null = null;
      const decision = decideBranch(state, input.base, trees, options.force ?? false);
      outcome = decision.action === 'unchanged' ? 'unchanged' : 'changed';
      oids = built.oids;
      if (decision.action === 'diverged') {
        reportError(stepCtx(recipe.steps.length + recipe.verify.length), null, failure('branch-diverged', `Branch ${job.branch} holds commits scion did not write (head ${decision.head.slice(0, 12)}); merge or delete it, or rerun with --force to overwrite it.`, { branch: job.branch, head: decision.head }));
        commits = plan.map((p) => ({ sha: null, group: p.group, message: p.message, files: p.files }));
      } else if (decision.action === 'unchanged') {
        head = decision.head;
        commits = decision.chain.map((c, i) => ({ sha: c.sha, group: plan[i]!.group, message: c.message, files: plan[i]!.files }));
      } else if (!dryRun && (holder = await branchCheckedOut(repo, ref)) !== null && holder !== made.worktree?.path) {
        // Moving a branch someone has checked out would leave their checkout out of step with it.
        reportError(stepCtx(recipe.steps.length + recipe.verify.length), null, failure('branch-diverged', `Branch ${job.branch} is checked out in ${holder}; switch that checkout to another branch (or remove it) and run again.`, { branch: job.branch, worktree: holder }));
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
          reportError(stepCtx(recipe.steps.length + recipe.verify.length), null, written.error);
        }
      }
    }

    // A kept worktree ends at the branch head, clean under `git status`.
    if (made.worktree && keep && head !== null) {
      await setWorktreeHead(repo, made.worktree, { branch: job.branch, commit: head, entries: headEntries(input.entries, changes, oids) });
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
      worktree: keepOnDisk && made.worktree ? made.worktree.path : null,
      commits,
      files,
      errors,
      skipped,
      usage,
      durationMs: Date.now() - started,
    } satisfies JobReport, ctx.redact);
    ctx.onEvent?.({ type: 'job-end', job: id, report });
    return report;
  } catch (e) {
    keepOnDisk = false;
    throw e;
  } finally {
    await ws.dispose(keepOnDisk);
  }
}

/** The head tree's entries: the base with the job's changes applied. */
function headEntries(base: ReadonlyMap<string, TreeEntry>, changes: Changes, oids: ReadonlyMap<string, string>): TreeEntry[] {
  const out = new Map(base);
  for (const [path, state] of changes) {
    if (state === null) out.delete(path);
    else out.set(path, { path, oid: oids.get(path)!, mode: state.mode });
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

