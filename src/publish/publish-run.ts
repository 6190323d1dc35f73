// Publishing one run as a library call: the one publishing path (repository.ts) for the repository the
// run wrote its branches to. Everything is checked before anything is pushed: the options, the
// remote scion pushes to, the host and its token.
import { closeRepo, openRepo } from '../git/index.js';
import type { RunReport } from '../model/types.js';
import type { Recipe } from '../recipe/index.js';
import type { HostOptions } from '../host/open.js';
import type { Env } from '../host/remote.js';
import type { Host } from '../host/types.js';
import { checkPublishSettings, publishRepository, requireTarget, type PublishSettings } from './repository.js';

export interface PublishRunOptions {
  /** Any folder inside the repository the run wrote its branches to. */
  readonly repo: string;
  /** The remote to push to and whose host gets the pull requests. Default `origin`. */
  readonly remote?: string;
  /** Tokens and host URLs (GITHUB_TOKEN, GITLAB_TOKEN, GITHUB_API_URL, …). Default process.env. */
  readonly env?: Env;
  /** Push the branches first (force-with-lease). Default true. */
  readonly push?: boolean | { readonly force?: boolean; readonly pushFailed?: boolean };
  /** Publish pull requests after the push. Default true. */
  readonly pullRequests?: boolean;
  /** The recipes of the run: their `pr` blocks apply, and their step counts place push errors. */
  readonly recipes?: readonly Recipe[];
  /** Added to every recipe's `pr` block (what --draft and --label do). */
  readonly extra?: { readonly draft?: boolean; readonly labels?: readonly string[] };
  /** The branch pull requests merge into. Default: the remote's default branch. */
  readonly base?: string;
  readonly reopen?: boolean;
  /** Pause between pull requests. Default 1000. */
  readonly intervalMs?: number;
  /** Makes that pause (a test passes one that records it). Default: a timer that `signal` cuts short. */
  readonly pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A host to use instead of the one the remote's URL names (tests, other forges). */
  readonly host?: Host;
  readonly hostOptions?: HostOptions;
  readonly say?: (line: string) => void;
  /** Stops publishing: once it fired, no push and no request starts; the jobs it caught end `interrupted`. */
  readonly signal?: AbortSignal;
}

export interface PublishRunResult {
  readonly report: RunReport;
  /** The host's failure that stopped the pull requests, if any. Push failures are jobs' errors. */
  readonly error: string | null;
}

/** The settings of the one publishing path that publishRun's options give (defaults applied). */
export function publishSettingsOf(o: Omit<PublishRunOptions, 'repo' | 'host' | 'remote'>): PublishSettings {
  const push =
    o.push === false
      ? false
      : { force: (typeof o.push === 'object' && o.push.force) || false, pushFailed: (typeof o.push === 'object' && o.push.pushFailed) || false };
  const s: PublishSettings = {
    env: o.env ?? process.env,
    push,
    pullRequests: o.pullRequests !== false,
    recipes: o.recipes ?? [],
    ...(o.extra ? { extra: o.extra } : {}),
    ...(o.base !== undefined ? { base: o.base } : {}),
    reopen: o.reopen ?? false,
    intervalMs: o.intervalMs ?? 1000,
    ...(o.pause ? { pause: o.pause } : {}),
    ...(o.hostOptions ? { hostOptions: o.hostOptions } : {}),
    ...(o.say ? { say: o.say } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  };
  checkPublishSettings(s);
  return s;
}

/**
 * Pushes a run's branches and publishes their pull requests. Throws a `usage` ScionError, having sent
 * nothing, when an option is wrong or the remote cannot be pushed to or its host has no token.
 */
export async function publishRun(report: RunReport, o: PublishRunOptions): Promise<PublishRunResult> {
  const settings = publishSettingsOf(o);
  const repo = await openRepo(o.repo);
  try {
    const target = requireTarget({ repo, remote: o.remote ?? 'origin', url: null, ...(o.host ? { host: o.host } : {}) }, settings);
    return await publishRepository(report, target, settings);
  } finally {
    closeRepo(repo);
  }
}
