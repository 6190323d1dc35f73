// Fetching one branch of a remote over smart HTTP(S) with isomorphic-git, into a repository scion
// shares with native git: the objects land in the object store; the remote-tracking ref moves under
// git's lock protocol, as `git fetch` moves it.
import { isGitError } from './errors.js';
import { readRef } from './refs.js';
import { callOptions, transportFailure, type TransportResult } from './remote-call.js';
import type { Repo } from './repo.js';
import { iso, type RemoteAccess } from './transport.js';
import { updateRef } from './update-ref.js';

export interface FetchOptions {
  /** Only this many commits of history (a shallow fetch, as `git fetch --depth`); default all. */
  readonly depth?: number;
}

/**
 * Fetches `branch` into the repository's object store, so its commits can be read (before deciding
 * whether to overwrite it, or to run jobs on it); the value is the commit it holds. Also moves
 * refs/remotes/<remote>/<branch>, as `git fetch` would (see setTrackingRef).
 */
export async function fetchBranch(repo: Repo, access: RemoteAccess, remote: string, branch: string, o: FetchOptions = {}): Promise<TransportResult<string>> {
  let sha: string | null;
  try {
    const res = await (
      await iso()
    ).git.fetch({
      ...callOptions(repo.commonDir, access, remote),
      ref: branch,
      remoteRef: branch,
      singleBranch: true,
      tags: false,
      ...(o.depth !== undefined ? { depth: o.depth } : {}),
    });
    sha = res.fetchHead;
  } catch (e) {
    return { ok: false, error: transportFailure(e) };
  }
  if (sha === null) return { ok: false, error: { reason: 'protocol', status: null, detail: `the remote has no branch ${branch}` } };
  await setTrackingRef(repo, remote, branch, sha);
  return { ok: true, value: sha };
}

/**
 * Points refs/remotes/<remote>/<branch> at `sha` under git's lock protocol, as a fetch or a push
 * would (and records what scion saw when nothing had to be pushed). The ref only records what the
 * remote last held: while another process holds its lock, or moved it meanwhile, it is left as that
 * process leaves it (false).
 */
export async function setTrackingRef(repo: Repo, remote: string, branch: string, sha: string): Promise<boolean> {
  const ref = `refs/remotes/${remote}/${branch}`;
  const current = await readRef(repo, ref);
  if (current === sha) return true;
  try {
    await updateRef(repo, ref, sha, current);
    return true;
  } catch (e) {
    if (isGitError(e, 'locked', 'ref-moved')) return false;
    throw e;
  }
}
