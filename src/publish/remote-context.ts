// What `status` and `branches` need from a repository's remote, resolved once: the host (when a token
// is there to ask it), the push target (when scion can reach the remote), and the base branch's tip.
import { fetchBranch, readRef, remoteHeadBranch, resolveCommit, type Repo } from '../git/index.js';
import { openHost, type HostOptions } from '../host/open.js';
import { resolvePushTarget, type PushTarget } from './push.js';
import type { Host } from '../host/types.js';
import { UsageError } from '../errors.js';

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
  let host: Host | null = null;
  let push: PushTarget | null = null;
  try {
    host = openHost(repo, remote, env, hostOptions);
  } catch (e) {
    // Without a token scion cannot ask the host; status still shows branches and how far behind they are.
    if (!(e instanceof UsageError) || strict) throw e;
  }
  try {
    push = resolvePushTarget(repo, remote, env);
  } catch (e) {
    if (!(e instanceof UsageError) || strict) throw e;
  }
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
