// `scion branches --prune` (SPEC §8): delete the scion branches whose work is over (their pull
// request merged or closed, or no commit of their own left), locally and with a remote on it too;
// never a branch that holds a commit scion did not write.
import { branchCheckedOut, fetchBranch, listRemoteBranches, readCommit, readRef, type Repo } from '../git/index.js';
import { deleteRefIfAt, deleteRemoteBranch, listLocalBranches } from '../git/push.js';
import { parseTrailers } from '../runner/commit-plan.js';
import { scionChain } from '../runner/chain.js';
import { isAncestor } from './ancestry.js';
import { hasCommit, type PushTarget } from './push.js';
import type { Host } from './types.js';
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
}

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

export async function pruneBranches(repo: Repo, o: PruneOptions): Promise<PruneEntry[]> {
  const out: PruneEntry[] = [];
  const pulls = new Map<string, Promise<string | null>>();
  const pullEnded = (branch: string) => {
    if (!pulls.has(branch)) {
      pulls.set(branch, (async () => {
        const p = o.host === null ? null : await o.host.findPull(branch);
        return p !== null && p.state !== 'open' ? `pull request #${p.number} ${p.state}` : null;
      })());
    }
    return pulls.get(branch)!;
  };

  for (const branch of await listLocalBranches(repo)) {
    const sha = await readRef(repo, `refs/heads/${branch}`);
    if (sha === null) continue;
    const v = await judge(repo, branch, sha, o.baseTip, pullEnded);
    if (v === null) continue;
    let action: PruneEntry['action'] = v.prune ? 'deleted' : 'kept';
    let reason = v.reason;
    if (v.prune && (await branchCheckedOut(repo, `refs/heads/${branch}`)) !== null) {
      action = 'kept';
      reason = 'checked out in a worktree';
    } else if (v.prune && !o.dryRun && !(await deleteRefIfAt(repo, `refs/heads/${branch}`, sha))) {
      action = 'kept';
      reason = 'moved while scion was pruning';
    }
    out.push({ branch, where: 'local', sha, action, reason });
  }

  if (o.remote) {
    const t = o.remote;
    const listed = await listRemoteBranches(t.access);
    if (!listed.ok) throw new Error(`Could not list the branches of ${t.name} (${t.shown}): ${listed.error.detail}`);
    for (const [branch, sha] of [...listed.value].sort(([a], [b]) => compareCodeUnits(a, b))) {
      if (!(await hasCommit(repo, sha))) {
        const fetched = await fetchBranch(repo, t.access, t.name, branch);
        if (!fetched.ok || !(await hasCommit(repo, sha))) continue;
      }
      const v = await judge(repo, branch, sha, o.baseTip, pullEnded);
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

/**
 * null: not a scion branch (its tip is no scion commit). Otherwise whether it may go: only when every
 * commit on it is a scion commit of one recipe and job sitting on the base's history, and its pull
 * request has ended or it holds nothing the base lacks.
 */
async function judge(repo: Repo, branch: string, sha: string, baseTip: string | null, pullEnded: (b: string) => Promise<string | null>): Promise<Verdict | null> {
  const t = parseTrailers((await readCommit(repo, sha)).message);
  const recipe = t['Scion-Recipe'];
  const job = t['Scion-Job'];
  if (recipe === undefined || job === undefined) {
    // A branch under scion/ whose tip someone else wrote is kept (it is listed, so the user sees
    // why), unless it holds nothing but base commits (merged by fast-forward).
    if (!branch.startsWith('scion/')) return null;
    if (baseTip !== null && (await isAncestor(repo, sha, baseTip))) return { prune: true, reason: 'holds no commit the base lacks' };
    return { prune: false, reason: 'holds commits scion did not write' };
  }
  const chain = await scionChain(repo, sha, recipe, job, true);
  const bottom = chain[0]?.parent ?? null;
  const onBase = bottom !== null && baseTip !== null && (await isAncestor(repo, bottom, baseTip));
  if (chain.length === 0 || chain[chain.length - 1]!.sha !== sha || !onBase) return { prune: false, reason: 'holds commits scion did not write' };
  if (baseTip !== null && (await isAncestor(repo, sha, baseTip))) return { prune: true, reason: 'holds no commit the base lacks' };
  const ended = await pullEnded(branch);
  return ended !== null ? { prune: true, reason: ended } : { prune: false, reason: 'work in progress' };
}
