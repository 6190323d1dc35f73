// Talking to a remote over smart HTTP(S) with isomorphic-git: list its branches, push one commit as a
// compare-and-swap, delete one branch the same way. Facts come back as values (`TransportResult`);
// deciding whether a push is safe and wording the error for the user is the caller's job.
//
// isomorphic-git cannot follow a linked worktree's `commondir` with a plain fs, so every call runs
// on the common .git dir, where refs, objects and config live. Objects written by scion (loose) and
// by native git (packs after `git gc`) are both read by isomorphic-git from there.
import { configValue } from './config.js';
import { deleteRefIfAt } from './delete-ref.js';
import { setTrackingRef } from './fetch.js';
import { readLooseRef, refPath } from './refs.js';
import { ZERO_OID } from './hash.js';
import { callOptions, transportFailure, type TransportResult } from './remote-call.js';
import { repoState, type Repo } from './repo.js';
import { isGitError } from './errors.js';
import { guardedHttp, iso, type RemoteAccess } from './transport.js';

export interface PushCommitOptions {
  /** The remote's name, for the remote-tracking ref refs/remotes/<remote>/<branch>. */
  readonly remote: string;
  readonly branch: string;
  /** The commit the remote branch should hold. */
  readonly sha: string;
  /** The value the remote branch must hold for the push to go ahead (null: it must not exist). */
  readonly expectedOld: string | null;
  /**
   * A commit the remote holds (the job's base): the objects of its tree are left out of the pack.
   * If the remote turns out to lack them, the push is retried with a full pack.
   */
  readonly remoteHas?: string | null;
}

/**
 * The URL a push to `remote` goes to: `remote.<name>.pushurl`, else `remote.<name>.url` (git's
 * order); null when the remote is not configured. `insteadOf` rewrites are not applied.
 */
export function remoteUrl(repo: Repo, remote: string): string | null {
  const config = repoState(repo).config;
  for (const key of ['pushurl', 'url']) {
    const v = configValue(config, `remote.${remote}`, key);
    if (typeof v === 'string' && v !== '') return v;
  }
  return null;
}

/**
 * git's `http.extraHeader` values that apply to `url` (`[http]` and `[http "<prefix>"]` sections
 * whose prefix the URL starts with), as a header map. actions/checkout stores the job's token
 * this way, so a push from a workflow step works without passing a token again.
 */
export function configuredHeaders(repo: Repo, url: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of repoState(repo).config) {
    if (e.key !== 'extraheader' || typeof e.value !== 'string') continue;
    const scope = e.section === 'http' ? '' : e.section.startsWith('http.') ? e.section.slice(5) : null;
    if (scope === null || !url.startsWith(scope)) continue;
    const colon = e.value.indexOf(':');
    // An empty value resets the list in git; a value without a colon is not a header.
    if (e.value === '') for (const k of Object.keys(out)) delete out[k];
    else if (colon > 0) out[e.value.slice(0, colon).trim()] = e.value.slice(colon + 1).trim();
  }
  return out;
}

/** The branch `refs/remotes/<remote>/HEAD` points at (the remote's default branch as last fetched). */
export function remoteHeadBranch(repo: Repo, remote: string): string | null {
  const head = readLooseRef(refPath(repo, `refs/remotes/${remote}/HEAD`));
  if (head === null || !('symbolic' in head)) return null;
  const prefix = `refs/remotes/${remote}/`;
  return head.symbolic.startsWith(prefix) ? head.symbolic.slice(prefix.length) : null;
}

/** The remote's branches (short name → oid), as its receive-pack advertises them to a pusher. */
export async function listRemoteBranches(access: RemoteAccess): Promise<TransportResult<Map<string, string>>> {
  try {
    const refs = await (
      await iso()
    ).git.listServerRefs({
      http: guardedHttp(access),
      url: access.url,
      forPush: true,
      protocolVersion: 1,
      prefix: 'refs/heads/',
      headers: {},
    });
    const out = new Map<string, string>();
    for (const r of refs) if (r.ref.startsWith('refs/heads/')) out.set(r.ref.slice('refs/heads/'.length), r.oid);
    return { ok: true, value: out };
  } catch (e) {
    return { ok: false, error: transportFailure(e) };
  }
}

/**
 * Sets the remote's `branch` to `sha` if, and only if, it holds `expectedOld`: force-with-lease.
 * The lease is checked against the value the server advertises for this very push, and git's
 * receive-pack applies the update as a compare-and-swap from that value, so a push that lands in
 * between is never overwritten (it fails with reason `moved` or `rejected`). On success the
 * remote-tracking ref refs/remotes/<remote>/<branch> holds `sha`.
 */
export async function pushCommit(repo: Repo, access: RemoteAccess, o: PushCommitOptions): Promise<TransportResult<void>> {
  const skip = o.remoteHas ?? null;
  let result = await pushOnce(repo, access, o, skip);
  // A wrong guess about what the remote holds only makes receive-pack refuse the pack (its
  // connectivity check): send everything instead.
  if (!result.ok && result.error.reason === 'rejected' && skip !== null) result = await pushOnce(repo, access, o, null);
  if (result.ok) await setTrackingRef(repo, o.remote, o.branch, o.sha);
  return result;
}

/**
 * isomorphic-git leaves out of a push's pack only what refs/remotes/<remote>/HEAD holds (and, when
 * the remote branch exists, what the merge base holds). Without that ref (actions/checkout does not
 * write it) the pack of a new branch carries every object of its tree: on a 3,000-file, 15 MB
 * repository, 4.8 s and the whole repository uploaded, against 0.4 s with it. So `skip`, a commit
 * the remote holds, is shown to isomorphic-git as that ref, without anything written.
 */
async function pushOnce(repo: Repo, access: RemoteAccess, o: PushCommitOptions, skip: string | null): Promise<TransportResult<void>> {
  let advertised: string | null = null;
  try {
    await (
      await iso()
    ).git.push({
      ...callOptions(repo.commonDir, access, o.remote, skip === null ? undefined : { remote: o.remote, oid: skip }),
      ref: o.sha,
      remoteRef: `refs/heads/${o.branch}`,
      // Our branch may have been rewritten (base moved); the lease below replaces git's
      // fast-forward rule.
      force: true,
      onPrePush: ({ remoteRef }) => {
        advertised = remoteRef.oid === ZERO_OID ? null : remoteRef.oid;
        return advertised === o.expectedOld;
      },
    });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'UserCanceledError' && advertised !== o.expectedOld) {
      return { ok: false, error: { reason: 'moved', status: null, detail: advertised ?? 'no such branch' } };
    }
    return { ok: false, error: transportFailure(e) };
  }
  return { ok: true, value: undefined };
}

/**
 * Deletes the remote's `branch` if, and only if, it still holds `expectedOld` (the same lease as
 * pushCommit), and drops refs/remotes/<remote>/<branch>.
 */
export async function deleteRemoteBranch(
  repo: Repo,
  access: RemoteAccess,
  remote: string,
  branch: string,
  expectedOld: string,
): Promise<TransportResult<void>> {
  let advertised: string | null = null;
  try {
    await (
      await iso()
    ).git.push({
      ...callOptions(repo.commonDir, access, remote),
      // Only expanded for the log line of a deletion; HEAD always resolves.
      ref: 'HEAD',
      remoteRef: `refs/heads/${branch}`,
      delete: true,
      onPrePush: ({ remoteRef }) => {
        advertised = remoteRef.oid === ZERO_OID ? null : remoteRef.oid;
        return advertised === expectedOld;
      },
    });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'UserCanceledError' && advertised !== expectedOld) {
      return { ok: false, error: { reason: 'moved', status: null, detail: advertised ?? 'no such branch' } };
    }
    return { ok: false, error: transportFailure(e) };
  }
  try {
    await deleteRefIfAt(repo, `refs/remotes/${remote}/${branch}`, expectedOld);
  } catch (e) {
    // The remote branch is gone; a tracking ref that cannot go now (its lock held) is only a stale
    // hint of what the remote held, which the next fetch corrects.
    if (!isGitError(e)) throw e;
  }
  return { ok: true, value: undefined };
}
