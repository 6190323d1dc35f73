// The rerun rules of SPEC §3: what to do with the job's branch given what is on it already.
import { readRef, type Repo } from '../git/index.js';
import { scionChain, type ChainCommit } from './chain.js';

export type { ChainCommit } from './chain.js';

export interface BranchState {
  readonly head: string | null;
  /** This recipe's and job's scion commits from the head down, bottom first. */
  readonly chain: readonly ChainCommit[];
}

export type BranchDecision =
  | { readonly action: 'write'; readonly expectedOld: string | null }
  | { readonly action: 'unchanged'; readonly head: string; readonly chain: readonly ChainCommit[] }
  | { readonly action: 'diverged'; readonly head: string };

export async function readBranchState(repo: Repo, ref: string, recipe: string, job: string): Promise<BranchState> {
  const head = await readRef(repo, ref);
  return { head, chain: head === null ? [] : await scionChain(repo, head, recipe, job) };
}

export function decideBranch(state: BranchState, base: string, planned: readonly { tree: string; message: string }[], force: boolean): BranchDecision {
  if (state.head === null) return { action: 'write', expectedOld: null };
  const ours = state.chain.length > 0 && state.chain[state.chain.length - 1]!.sha === state.head;
  if (!ours && !force) return { action: 'diverged', head: state.head };
  const same =
    ours &&
    state.chain[0]!.parent === base &&
    state.chain.length === planned.length &&
    state.chain.every((c, i) => c.tree === planned[i]!.tree && c.message === planned[i]!.message);
  if (same) return { action: 'unchanged', head: state.head, chain: state.chain };
  return { action: 'write', expectedOld: state.head };
}
