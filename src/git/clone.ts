// A campaign's clones over smart HTTP(S) with isomorphic-git (no git binary): what a remote offers,
// and a bare, shallow, single-branch clone made in a folder nobody else sees yet (the caller renames
// it into place when whole, so isomorphic-git may write its refs there directly). Bringing a clone up
// to date is fetchBranch (fetch.ts) with its refs moved by updateRef.
import fs from 'node:fs';
import { transportFailure, type TransportResult } from './remote-call.js';
import { guardedHttp, iso, type RemoteAccess } from './transport.js';

/** The name a clone knows its URL by (isomorphic-git's clone names it origin, as git's does). */
export const CLONE_REMOTE = 'origin';

/** What a remote offers for fetching: its branches (short name → commit) and the branch its HEAD names. */
export interface Advertised {
  readonly branches: ReadonlyMap<string, string>;
  /** The remote's default branch; null when its HEAD names no branch. */
  readonly head: string | null;
}

export interface ShallowClone {
  /** The branch cloned: the one asked for, else the remote's default. */
  readonly branch: string;
  /** The commit it holds. */
  readonly sha: string;
}

/** The remote's branches and default branch, as its upload-pack advertises them (one round trip). */
export async function advertisedBranches(access: RemoteAccess): Promise<TransportResult<Advertised>> {
  try {
    const refs = await (await iso()).git.listServerRefs({ http: guardedHttp(access), url: access.url, headers: {}, protocolVersion: 1, symrefs: true });
    const branches = new Map<string, string>();
    for (const r of refs) if (r.ref.startsWith('refs/heads/')) branches.set(r.ref.slice('refs/heads/'.length), r.oid);
    const target = refs.find((r) => r.ref === 'HEAD')?.target;
    return { ok: true, value: { branches, head: target?.startsWith('refs/heads/') ? target.slice('refs/heads/'.length) : null } };
  } catch (e) {
    return { ok: false, error: transportFailure(e) };
  }
}

/**
 * Clones `access.url` into `dir`, a new folder: bare, depth 1, the one branch `ref` (null: the
 * remote's default), no tags, no checkout.
 */
export async function cloneShallow(dir: string, access: RemoteAccess, ref: string | null): Promise<TransportResult<ShallowClone>> {
  try {
    const { git } = await iso();
    // A fresh header object per call, as for every call (see remote-call.ts).
    await git.clone({
      ...{ fs, http: guardedHttp(access), url: access.url, headers: {}, dir, gitdir: dir },
      ...(ref !== null ? { ref } : {}),
      ...{ singleBranch: true, depth: 1, noCheckout: true, noTags: true },
    });
    await git.setConfig({ fs, gitdir: dir, path: 'core.bare', value: true });
    // A clone's own HEAD names the branch it fetched.
    const branch = (await git.currentBranch({ fs, gitdir: dir, fullname: false })) ?? ref ?? 'HEAD';
    const sha = await git.resolveRef({ fs, gitdir: dir, ref: `refs/heads/${branch}` }).catch(() => git.resolveRef({ fs, gitdir: dir, ref: 'HEAD' }));
    return { ok: true, value: { branch, sha } };
  } catch (e) {
    return { ok: false, error: transportFailure(e) };
  }
}
