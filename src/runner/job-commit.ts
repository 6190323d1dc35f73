// The planned commits of a job onto its branch: trees for each group, the rerun rule
// (unchanged, rewrite, diverged), then one write of the commits and the ref by compare-and-swap.
// A dry run plans and hashes the same way and writes nothing.
import { failure, type Failure } from '../errors.js';
import { branchCheckedOut, type Identity, type Repo } from '../git/index.js';
import type { CommitReport, JobStatus } from '../model/types.js';
import type { JobSpec, Recipe } from '../recipe/index.js';
import { decideBranch, readBranchState } from '../branch/rerun.js';
import type { PlannedCommit } from './commit-plan.js';
import { buildTrees, writeCommits, type ObjectSinks } from './objects.js';

export interface CommitInput {
  readonly repo: Repo;
  readonly recipe: Recipe;
  readonly job: JobSpec;
  readonly base: string;
  readonly baseTree: string;
  readonly sinks: ObjectSinks;
  readonly identity: Identity;
  readonly plan: readonly PlannedCommit[];
  readonly dryRun: boolean;
  readonly force: boolean;
  /** The job's own worktree, which may hold its branch. */
  readonly worktree: string | null;
  readonly now: () => Date;
  /** The run's interrupt: once it fired, the branch is not written (failure `interrupted`). */
  readonly signal?: AbortSignal;
}

export interface Committed {
  /** The branch head the job ended at; null when it wrote nothing (empty, dry run, failed). */
  readonly head: string | null;
  readonly commits: readonly CommitReport[];
  readonly outcome: Exclude<JobStatus, 'failed'>;
  /** Why the branch was not written (it diverged, is checked out elsewhere, a ref is in the way). */
  readonly failure: Failure | null;
}

export async function commitJob(c: CommitInput): Promise<Committed> {
  const { repo, job, plan } = c;
  if (plan.length === 0) return { head: null, commits: [], outcome: 'empty', failure: null };
  const unwritten = (): CommitReport[] => plan.map((p) => ({ sha: null, group: p.group, message: p.message, files: p.files }));
  const built = await buildTrees(c.sinks, c.baseTree, plan);
  const trees = built.commits;
  const ref = `refs/heads/${job.branch}`;
  const state = await readBranchState(repo, ref, c.recipe.name, job.name, c.base);
  const decision = decideBranch(state, c.base, trees, c.force);
  const outcome = decision.action === 'unchanged' ? 'unchanged' : 'changed';
  if (decision.action === 'diverged') {
    return { head: null, commits: unwritten(), outcome, failure: divergedFailure(job.branch, decision.head, decision.scions) };
  }
  if (decision.action === 'unchanged') {
    const commits = decision.chain.map((k, i) => ({ sha: k.sha, group: plan[i]!.group, message: k.message, files: plan[i]!.files }));
    return { head: decision.head, commits, outcome, failure: null };
  }
  if (c.dryRun) return { head: null, commits: unwritten(), outcome, failure: null };
  const holder = await branchCheckedOut(repo, ref);
  if (holder !== null && holder !== c.worktree) {
    // Moving a branch someone has checked out would leave their checkout out of step with it.
    const f = failure(
      'branch-diverged',
      `Branch ${job.branch} is checked out in ${holder}; switch that checkout to another branch (or remove it) and run again.`,
      { branch: job.branch, worktree: holder },
      CHECKED_OUT_HINT,
    );
    return { head: null, commits: unwritten(), outcome, failure: f };
  }
  const written = await writeCommits(repo, {
    ref,
    base: c.base,
    commits: trees,
    expectedOld: decision.expectedOld,
    identity: c.identity,
    now: c.now(),
    ...(c.signal ? { signal: c.signal } : {}),
  });
  if (!written.ok) {
    // A ref in the way (`scion/a` when writing `scion/a/b`) or one moved meanwhile: --force does not help.
    const e = written.error;
    if (e.kind === 'interrupted') return { head: null, commits: unwritten(), outcome, failure: e };
    return { head: null, commits: [], outcome, failure: e.kind === 'branch-diverged' && e.hint === undefined ? { ...e, hint: REF_CLASH_HINT } : e };
  }
  const commits = plan.map((p, i) => ({ sha: written.value.shas[i]!, group: p.group, message: p.message, files: p.files }));
  return { head: written.value.head, commits, outcome, failure: null };
}

const CHECKED_OUT_HINT = 'Switch the checkout that holds the branch to another branch (or remove that worktree), then run again; --force does not change this.';
const REF_CLASH_HINT =
  "Another ref is in the way (a branch named like a folder of this one, or the branch moved meanwhile): rename or delete it, or change the recipe's " +
  '`branch`, then run again; --force does not change this.';
const NOT_SCIONS_HINT =
  "This branch was not written by scion for this recipe and job, so scion never overwrites it: change the recipe's `branch`, or rename or delete " +
  'that branch yourself.';

/** The branch holds commits scion did not write: --force helps only on a scion branch someone added to. */
function divergedFailure(branch: string, head: string, scions: boolean): Failure {
  const at = head.slice(0, 12);
  return scions
    ? failure(
        'branch-diverged',
        `Branch ${branch} holds commits scion did not write on top of its own (head ${at}); merge or delete them, or rerun with --force to overwrite them.`,
        { branch, head },
      )
    : failure(
        'branch-diverged',
        `Branch ${branch} exists and was not written by scion for this recipe and job (head ${at}); scion never overwrites it, --force or not.`,
        { branch, head },
        NOT_SCIONS_HINT,
      );
}
