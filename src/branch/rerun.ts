// The rerun rule: what to do with a job's branch given what is on it already. A branch holding only
// this recipe's and job's scion commits is rewritten (or left alone when the same commits would come
// out); a branch scion never wrote (a user's `release`) is never overwritten, --force or not. The
// runner applies it to the local branch, publishing to the remote copy before a push.
import { GitError, readCommit, readRef, type Repo } from '../git/index.js';
import { isScionCommitOf } from './trailers.js';
import { MAX_CHAIN, scionChain, type ChainCommit } from './chain.js';

export type { ChainCommit } from './chain.js';

export interface BranchState {
  readonly head: string | null;
  /** This recipe's and job's scion commits from the head down, bottom first. */
  readonly chain: readonly ChainCommit[];
  /**
   * Whether the branch holds a scion commit of this recipe and job anywhere below its head (first
   * parents, down to the base): only then may --force overwrite commits scion did not write.
   * Absent: not looked at (treated as false).
   */
  readonly holdsOurs?: boolean;
}

export type BranchDecision =
  | { readonly action: 'write'; readonly expectedOld: string | null }
  | { readonly action: 'unchanged'; readonly head: string; readonly chain: readonly ChainCommit[] }
  | { readonly action: 'diverged'; readonly head: string; readonly scions: boolean };

export async function readBranchState(repo: Repo, ref: string, recipe: string, job: string, base?: string): Promise<BranchState> {
  const head = await readRef(repo, ref);
  return head === null ? { head, chain: [] } : branchStateAt(repo, head, recipe, job, base);
}

/** The state of a branch whose head is `head` (a local or a remote branch). */
export async function branchStateAt(repo: Repo, head: string, recipe: string, job: string, base?: string): Promise<BranchState> {
  const chain = await scionChain(repo, head, recipe, job, true);
  if (chain.length > 0) return { head, chain, holdsOurs: true };
  // Someone committed on top (or the branch was never scion's): look further down for ours.
  let holdsOurs = false;
  let sha: string | null = head;
  for (let n = 0; sha !== null && sha !== base && n < MAX_CHAIN; n++) {
    const c = await readOrNull(repo, sha);
    if (c === null) break;
    if (isScionCommitOf(c.message, recipe, job)) {
      holdsOurs = true;
      break;
    }
    sha = c.parents[0] ?? null;
  }
  return { head, chain, holdsOurs };
}

/** A commit, or null where history ends early (a parent outside a shallow clone). */
async function readOrNull(repo: Repo, sha: string) {
  try {
    return await readCommit(repo, sha);
  } catch (e) {
    if (e instanceof GitError) return null;
    throw e;
  }
}

export function decideBranch(state: BranchState, base: string, planned: readonly { tree: string; message: string }[], force: boolean): BranchDecision {
  if (state.head === null) return { action: 'write', expectedOld: null };
  const ours = state.chain.length > 0 && state.chain[state.chain.length - 1]!.sha === state.head;
  const scions = ours || state.holdsOurs === true;
  if (!ours && !(force && scions)) return { action: 'diverged', head: state.head, scions };
  const same =
    ours &&
    state.chain[0]!.parent === base &&
    state.chain.length === planned.length &&
    state.chain.every((c, i) => c.tree === planned[i]!.tree && c.message === planned[i]!.message);
  if (same) return { action: 'unchanged', head: state.head, chain: state.chain };
  return { action: 'write', expectedOld: state.head };
}
