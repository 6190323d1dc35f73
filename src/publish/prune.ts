// `scion branches --prune`: delete the scion branches whose work is over (their pull request merged
// or closed, or no commit of their own left), locally and with a remote on it too. Only branches scion
// wrote are looked at, decided as the rerun rule decides: the name is scion's (under `scion/`, or the
// branch a report gives the job) and every commit above the base is a scion commit of one recipe and
// job. Any other branch (`main`, `release`, a branch made from a scion branch) is never touched,
// whatever it holds: after a fast-forward merge `main` holds nothing but scion's commit too.
import {
  branchCheckedOut,
  deleteRef,
  deleteRemoteBranch,
  fetchBranch,
  isGitError,
  listBranches,
  listRemoteBranches,
  readCommit,
  readRef,
  transportError,
} from '../git/index.js';
import type { Repo } from '../git/index.js';
import { parseTrailers } from '../branch/trailers.js';
import { scionChain } from '../branch/chain.js';
import { isAncestor } from './ancestry.js';
import { hasCommit, type PushTarget } from './push.js';
import type { Host } from '../host/types.js';
import { compareCodeUnits } from '../util/compare.js';

export interface PruneOptions {
  /** Asked for each branch's pull request; null: only branches with no commit of their own go. */
  readonly host: Host | null;
  /** Also prune the branches on this remote. */
  readonly remote?: PushTarget;
  /** The commit the base branch holds: a branch whose commits are all in it holds no commit. */
  readonly baseTip: string | null;
  /** List what would go, delete nothing. */
  readonly dryRun?: boolean;
  /**
   * Branches outside `scion/` that a report names, with the recipe and job it names them for (a
   * recipe's own `branch` template): looked at too, and only with that recipe's and job's commits.
   */
  readonly named?: ReadonlyMap<string, ScionJobRef>;
}

export interface ScionJobRef {
  readonly recipe: string;
  readonly job: string;
}

/** scion's own namespace: the default branch of every recipe and job. */
export const SCION_NAMESPACE = 'scion/';

export interface PruneEntry {
  readonly branch: string;
  /** `local` or the remote's name. */
  readonly where: string;
  readonly sha: string;
  readonly action: 'deleted' | 'kept';
  /** Why, in a few words: "pull request #12 merged", "holds commits scion did not write", … */
  readonly reason: string;
}

interface Verdict {
  readonly prune: boolean;
  readonly reason: string;
}

/**
 * Deletes (or with dryRun lists) the scion branches that are done. A remote that cannot be listed
 * (unreachable, refusing) throws a `remote` ScionError before any branch is deleted, local ones included.
 */
export async function pruneBranches(repo: Repo, o: PruneOptions): Promise<PruneEntry[]> {
  const out: PruneEntry[] = [];
  const remoteBranches = o.remote === undefined ? null : await listRemoteBranches(o.remote.access);
  if (remoteBranches !== null && !remoteBranches.ok) {
    const t = o.remote!;
    throw transportError(remoteBranches.error, `Could not list the branches of ${t.name} (${t.shown}): ${remoteBranches.error.detail}; nothing was deleted.`);
  }
  const pulls = new Map<string, Promise<string | null>>();
  const pullEnded = (branch: string) => {
    if (!pulls.has(branch)) {
      pulls.set(
        branch,
        (async () => {
          const p = o.host === null ? null : await o.host.findPull(branch);
          return p !== null && p.state !== 'open' ? `pull request #${p.number} ${p.state}` : null;
        })(),
      );
    }
    return pulls.get(branch)!;
  };

  for (const branch of listBranches(repo)) {
    const sha = await readRef(repo, `refs/heads/${branch}`);
    if (sha === null) continue;
    const v = await judge(repo, branch, sha, o, pullEnded);
    if (v === null) continue;
    let action: PruneEntry['action'] = v.prune ? 'deleted' : 'kept';
    let reason = v.reason;
    if (v.prune && (await branchCheckedOut(repo, `refs/heads/${branch}`)) !== null) {
      action = 'kept';
      reason = 'checked out in a worktree';
    } else if (v.prune && !o.dryRun) {
      const kept = await deleteLocal(repo, branch, sha);
      if (kept !== null) {
        action = 'kept';
        reason = kept;
      }
    }
    out.push({ branch, where: 'local', sha, action, reason });
  }

  if (o.remote && remoteBranches?.ok) {
    const t = o.remote;
    for (const [branch, sha] of [...remoteBranches.value].sort(([a], [b]) => compareCodeUnits(a, b))) {
      if (!isScionName(branch, o)) continue;
      if (!(await hasCommit(repo, sha))) {
        const fetched = await fetchBranch(repo, t.access, t.name, branch);
        if (!fetched.ok || !(await hasCommit(repo, sha))) continue;
      }
      const v = await judge(repo, branch, sha, o, pullEnded);
      if (v === null) continue;
      let action: PruneEntry['action'] = v.prune ? 'deleted' : 'kept';
      let reason = v.reason;
      if (v.prune && !o.dryRun) {
        const done = await deleteRemoteBranch(repo, t.access, t.name, branch, sha);
        if (!done.ok) {
          action = 'kept';
          reason = done.error.reason === 'moved' ? 'moved while scion was pruning' : done.error.detail;
        }
      }
      out.push({ branch, where: t.name, sha, action, reason });
    }
  }
  return out;
}

/** Deletes the local branch if it still holds `sha`; null when it went, else why it was kept. */
async function deleteLocal(repo: Repo, branch: string, sha: string): Promise<string | null> {
  try {
    await deleteRef(repo, `refs/heads/${branch}`, sha);
    return null;
  } catch (e) {
    if (!isGitError(e)) throw e;
    if (e.kind === 'ref-moved') return 'moved while scion was pruning';
    // Another process holds the branch's lock or packed-refs.lock: its work goes first; the next prune deletes it.
    if (e.kind === 'locked') return `another process holds ${String(e.data['lock'] ?? 'its lock')}`;
    throw e;
  }
}

function isScionName(branch: string, o: PruneOptions): boolean {
  return branch.startsWith(SCION_NAMESPACE) || o.named?.has(branch) === true;
}

/**
 * null: not a branch scion may look at (a name outside its namespace). Otherwise whether it may go:
 * only when every commit on it is a scion commit of one recipe and job (the one a report names it
 * for, if it does) sitting on the base's history, and its pull request has ended or it holds nothing
 * the base lacks. A tip someone else wrote keeps the branch, even when the base has that commit.
 */
async function judge(repo: Repo, branch: string, sha: string, o: PruneOptions, pullEnded: (b: string) => Promise<string | null>): Promise<Verdict | null> {
  if (!isScionName(branch, o)) return null;
  const kept: Verdict = { prune: false, reason: 'holds commits scion did not write' };
  const t = parseTrailers((await readCommit(repo, sha)).message);
  const recipe = t['Scion-Recipe'];
  const job = t['Scion-Job'];
  if (recipe === undefined || job === undefined) return kept;
  const named = o.named?.get(branch);
  if (named !== undefined && (named.recipe !== recipe || named.job !== job)) return kept;
  const chain = await scionChain(repo, sha, recipe, job, true);
  const bottom = chain[0]?.parent ?? null;
  const onBase = bottom !== null && o.baseTip !== null && (await isAncestor(repo, bottom, o.baseTip));
  if (chain.length === 0 || chain[chain.length - 1]!.sha !== sha || !onBase) return kept;
  if (o.baseTip !== null && (await isAncestor(repo, sha, o.baseTip))) return { prune: true, reason: 'holds no commit the base lacks' };
  const ended = await pullEnded(branch);
  return ended !== null ? { prune: true, reason: ended } : { prune: false, reason: 'work in progress' };
}
