// The scion commits of one recipe and job on top of a commit: the one rule both the runner (the
// local branch) and publishing (the remote copy) apply before they may replace a branch.
import { GitError, readCommit, type Repo } from '../git/index.js';
import { isScionCommitOf } from './trailers.js';

export interface ChainCommit {
  readonly sha: string;
  readonly tree: string;
  readonly message: string;
  readonly parent: string | null;
}

/** No branch of a codemod holds more commits than this; the walk stops here whatever it finds. */
export const MAX_CHAIN = 1000;

/**
 * This recipe's and job's scion commits from `head` down, bottom first. A commit that cannot be
 * read (a parent outside a shallow clone) ends the chain when `stopAtMissing` is set; otherwise
 * the git layer's error goes up.
 */
export async function scionChain(repo: Repo, head: string, recipe: string, job: string, stopAtMissing = false): Promise<ChainCommit[]> {
  const chain: ChainCommit[] = [];
  let sha: string | null = head;
  while (sha !== null && chain.length < MAX_CHAIN) {
    let c;
    try {
      c = await readCommit(repo, sha);
    } catch (e) {
      if (stopAtMissing && e instanceof GitError) break;
      throw e;
    }
    if (c.parents.length !== 1 || !isScionCommitOf(c.message, recipe, job)) break;
    chain.unshift({ sha, tree: c.tree, message: c.message, parent: c.parents[0] ?? null });
    sha = c.parents[0] ?? null;
  }
  return chain;
}
