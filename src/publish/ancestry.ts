// Commit-graph questions publishing asks: is a commit in the base branch's history, and how many
// commits has the base gained since a job's base. Bounded walks: a history too long to walk
// answers "unknown" (null) rather than hanging a status call.
import { isGitError, readCommit, type Repo } from '../git/index.js';

const MAX_WALK = 20_000;
/** Clock skew tolerated between committers, as git's own date cut-offs allow for. */
const SKEW_S = 24 * 3600;

interface Node {
  readonly parents: readonly string[];
  readonly time: number;
}

async function node(repo: Repo, sha: string): Promise<Node | null> {
  try {
    const c = await readCommit(repo, sha);
    return { parents: c.parents, time: c.committer.timestamp };
  } catch (e) {
    if (isGitError(e)) return null;
    throw e;
  }
}

/**
 * Commits reachable from `tip` but not from `base` (`git rev-list --count base..tip`), or null when
 * either is missing locally or the walk is too long. The walk stops at commits older than `base`
 * (less a day of skew), where nothing new to `base` can be.
 */
export async function commitsSince(repo: Repo, base: string, tip: string): Promise<number | null> {
  if (base === tip) return 0;
  const b = await node(repo, base);
  if (b === null) return null;
  // The base's own ancestors near its date: anything met there is not new.
  const old = new Set<string>();
  const stack = [base];
  while (stack.length > 0 && old.size < MAX_WALK) {
    const sha = stack.pop()!;
    if (old.has(sha)) continue;
    old.add(sha);
    const n = sha === base ? b : await node(repo, sha);
    if (n === null || n.time < b.time - SKEW_S) continue;
    stack.push(...n.parents);
  }
  const seen = new Set<string>();
  const queue = [tip];
  let count = 0;
  while (queue.length > 0) {
    const sha = queue.pop()!;
    if (seen.has(sha) || old.has(sha)) continue;
    seen.add(sha);
    const n = await node(repo, sha);
    if (n === null) return null;
    if (++count > MAX_WALK) return null;
    // An old side branch merged since: counted, its own history not walked.
    if (n.time >= b.time - SKEW_S) queue.push(...n.parents);
  }
  return count;
}

/** Whether `ancestor` is `tip` or in its history (false when unknown). */
export async function isAncestor(repo: Repo, ancestor: string, tip: string): Promise<boolean> {
  if (ancestor === tip) return true;
  const a = await node(repo, ancestor);
  if (a === null) return false;
  const seen = new Set<string>();
  const queue = [tip];
  while (queue.length > 0 && seen.size < MAX_WALK) {
    const sha = queue.pop()!;
    if (sha === ancestor) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    const n = await node(repo, sha);
    if (n === null || n.time < a.time - SKEW_S) continue;
    queue.push(...n.parents);
  }
  return false;
}
