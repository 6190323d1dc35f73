// Publishing one run: push its branches, then create, update or close their pull requests. The CLI's
// `run --push --pr` and `scion pr` are this, mapped from flags.
import { closeRepo, openRepo, remoteHeadBranch } from '../git/index.js';
import type { JobReport, RunReport } from '../model/types.js';
import { makeRedactor } from '../redact.js';
import type { Recipe } from '../recipe/index.js';
import { settingsFor } from './describe.js';
import { openHost, type HostOptions } from '../host/open.js';
import { pushReport, resolvePushTarget } from './push.js';
import { publishPullRequests } from './pulls.js';
import type { Env } from '../host/remote.js';
import type { Host } from '../host/types.js';

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

export async function publishRun(report: RunReport, o: PublishRunOptions): Promise<PublishRunResult> {
  const env = o.env ?? process.env;
  const remoteName = o.remote ?? 'origin';
  const repo = await openRepo(o.repo);
  try {
    const target = resolvePushTarget(repo, remoteName, env);
    const host = o.pullRequests === false ? null : (o.host ?? openHost(repo, remoteName, env, o.hostOptions));
    const byName = new Map((o.recipes ?? []).map((r) => [r.name, r]));
    let out = report;
    if (o.push !== false) {
      const p = typeof o.push === 'object' ? o.push : {};
      out = await pushReport(repo, out, {
        target,
        force: p.force ?? false,
        pushFailed: p.pushFailed ?? false,
        stepOf: (job) => {
          const r = byName.get(job.recipe);
          return r ? r.steps.length + r.verify.length : 0;
        },
        say: o.say ?? (() => {}),
        ...(o.signal ? { signal: o.signal } : {}),
      });
    }
    if (host === null) return { report: out, error: null };
    const settings = settingsFor(o.recipes ?? [], o.extra);
    return await publishPullRequests(out, {
      host,
      base: o.base ?? (async () => remoteHeadBranch(repo, remoteName) ?? (await host.defaultBranch())),
      settings,
      reopen: o.reopen ?? false,
      intervalMs: o.intervalMs ?? 1000,
      redact: makeRedactor(env),
      remote: { repo, target },
      ...(o.say ? { say: o.say } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
  } finally {
    closeRepo(repo);
  }
}
