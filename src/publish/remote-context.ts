// What `status` and `branches` need from a repository's remote, resolved once: the host (when a token
// is there to ask it), the push target (when scion can reach the remote), and the base branch's tip.
import { fetchBranch, readRef, remoteHeadBranch, resolveCommit, type Repo } from '../git/index.js';
import { hostOf, type HostOptions } from '../host/open.js';
import { pushTargetOf, type PushTarget } from './push.js';
import type { Host } from '../host/types.js';
import { usageError } from '../errors.js';

export interface RemoteContext {
  readonly host: Host | null;
  readonly push: PushTarget | null;
  /** The base branch's current commit: fetched from the remote where possible, else as known locally. */
  baseTip(branch: string | null): Promise<string | null>;
}

export function remoteContext(
  repo: Repo,
  remote: string,
  env: Readonly<Record<string, string | undefined>>,
  strict: boolean,
  hostOptions: HostOptions = {},
): RemoteContext {
  // Without a token scion cannot ask the host, nor push without a remote it can reach: status still
  // shows branches and how far behind they are. `strict` (a remote the user named) makes either a usage error.
  const hosted = hostOf(repo, remote, env, hostOptions);
  if (!hosted.ok && strict) throw usageError(hosted.error.message);
  const pushed = pushTargetOf(repo, remote, env);
  if (!pushed.ok && strict) throw usageError(pushed.error.message);
  const host: Host | null = hosted.ok ? hosted.value : null;
  const push: PushTarget | null = pushed.ok ? pushed.value : null;
  const tips = new Map<string, Promise<string | null>>();
  const tipOf = async (branch: string): Promise<string | null> => {
    if (push !== null) await fetchBranch(repo, push.access, remote, branch);
    return (await readRef(repo, `refs/remotes/${remote}/${branch}`)) ?? (await readRef(repo, `refs/heads/${branch}`));
  };
  return {
    host,
    push,
    baseTip: async (branch) => {
      const name = branch ?? remoteHeadBranch(repo, remote) ?? (host !== null ? await host.defaultBranch().catch(() => null) : null);
      if (name === null) return resolveCommit(repo, 'HEAD');
      if (!tips.has(name)) tips.set(name, tipOf(name));
      return tips.get(name)!;
    },
  };
}
