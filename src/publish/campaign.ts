// Publishing a campaign: each repository's branches go back to that repository's own URL
// (the one it was cloned from, never a remote of the current folder), with the same force-with-lease
// rules as `run --push`, and each job's pull request is opened on that repository's own host. A
// repository whose push or host fails fails its own jobs (push-failed) or reports its own error;
// the others go on.
import { UsageError } from '../errors.js';
import { CLONE_REMOTE, closeRepo, configuredHeaders, openRepo, remoteHeadBranch, type Repo } from '../git/index.js';
import type { JobReport, RunReport } from '../model/types.js';
import { makeRedactor } from '../redact.js';
import { settingsFor } from './describe.js';
import { hostForUrl, openHost } from '../host/open.js';
import type { PublishRunOptions } from './publish-run.js';
import { pushReport, resolvePushTarget, type PushTarget } from './push.js';
import { publishPullRequests } from './pulls.js';
import { remoteAccess, shownUrl, type Env } from '../host/remote.js';
import { forge } from '../host/credentials.js';
import type { Host } from '../host/types.js';
import { sleep } from '../util/sleep.js';

/** One repository of a campaign, as publishing needs it. */
export interface CampaignRepoRef {
  /** The `repo` its jobs carry in the report. */
  readonly id: string;
  /** The repository folder holding the jobs' branches: the cached clone, or the local path. */
  readonly dir: string;
  /** The http(s) URL it was cloned from: pushes and its host go there. null: a local repository, published through its remote. */
  readonly url: string | null;
  /** The branch its jobs started from (the clone's branch): where pull requests merge by default. */
  readonly branch?: string | null;
}

export interface PublishCampaignOptions extends Omit<PublishRunOptions, 'repo' | 'host'> {
  readonly repos: readonly CampaignRepoRef[];
  /** The host of a repository instead of the one its URL names (tests, other forges). */
  readonly hostFor?: (repo: CampaignRepoRef) => Host;
}

export interface PublishCampaignResult {
  readonly report: RunReport;
  /** One sentence per repository whose host failed (`<repo>: …`); null when none did. */
  readonly error: string | null;
}

/** The push target of a URL itself: what a cached clone pushes to. */
export function pushTargetForUrl(name: string, url: string, env: Env, repo?: Repo): PushTarget {
  const { access, kind, credential } = remoteAccess(url, env, (bare) => (repo ? configuredHeaders(repo, bare) : {}));
  return { name, kind, shown: shownUrl(access.url), access, credential, server: forge(kind, env).server };
}

export async function publishCampaign(report: RunReport, o: PublishCampaignOptions): Promise<PublishCampaignResult> {
  const env = o.env ?? process.env;
  const redact = makeRedactor(env);
  const remoteName = o.remote ?? 'origin';
  const byName = new Map((o.recipes ?? []).map((r) => [r.name, r]));
  const stepOf = (job: JobReport) => {
    const r = byName.get(job.recipe);
    return r ? r.steps.length + r.verify.length : 0;
  };
  const settings = settingsFor(o.recipes ?? [], o.extra);
  const replaced = new Map<JobReport, JobReport>();
  const errors: string[] = [];
  let publishedBefore = false;

  for (const ref of o.repos) {
    const mine = report.jobs.filter((j) => j.repo === ref.id);
    if (mine.length === 0) continue;
    const say = (line: string) => o.say?.(`${ref.id}: ${line}`);
    const repo = await openRepo(ref.dir, { env });
    try {
      let sub: RunReport = { ...report, jobs: mine };
      let target: PushTarget | null = null;
      try {
        target = ref.url !== null ? pushTargetForUrl(CLONE_REMOTE, ref.url, env, repo) : resolvePushTarget(repo, remoteName, env);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        if (o.push !== false) sub = { ...sub, jobs: sub.jobs.map((j) => failPush(j, stepOf(j), redact(e.message))) };
      }
      if (o.push !== false && target !== null) {
        const p = typeof o.push === 'object' ? o.push : {};
        const signal = o.signal ? { signal: o.signal } : {};
        sub = await pushReport(repo, sub, { target, force: p.force ?? false, pushFailed: p.pushFailed ?? false, stepOf, say, ...signal });
      }
      if (o.pullRequests !== false) {
        let host: Host | null = null;
        try {
          host = o.hostFor ? o.hostFor(ref) : ref.url !== null ? hostForUrl(ref.url, CLONE_REMOTE, env, o.hostOptions) : openHost(repo, remoteName, env, o.hostOptions);
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          errors.push(`${ref.id}: ${redact(e.message)}`);
        }
        if (host !== null) {
          const h = host;
          // Pace across repositories too: the host's secondary rate limit counts the token, not the repository.
          if (publishedBefore) await sleep(o.intervalMs ?? 1000, o.signal);
          const base = o.base ?? ref.branch ?? (async () => (ref.url === null ? remoteHeadBranch(repo, remoteName) : null) ?? (await h.defaultBranch()));
          const done = await publishPullRequests(sub, {
            host: h,
            base,
            settings,
            reopen: o.reopen ?? false,
            intervalMs: o.intervalMs ?? 1000,
            redact,
            ...(target !== null ? { remote: { repo, target } } : {}),
            say,
            ...(o.signal ? { signal: o.signal } : {}),
          });
          sub = done.report;
          publishedBefore ||= sub.jobs.some((j) => j.pullRequest !== undefined);
          if (done.error !== null) errors.push(`${ref.id}: ${done.error}`);
        }
      }
      mine.forEach((j, i) => replaced.set(j, sub.jobs[i]!));
    } finally {
      closeRepo(repo);
    }
  }
  return {
    report: { ...report, jobs: report.jobs.map((j) => replaced.get(j) ?? j) },
    error: errors.length === 0 ? null : errors.join('\n'),
  };
}

function failPush(job: JobReport, step: number, message: string): JobReport {
  const eligible = job.head !== null && (job.status === 'changed' || job.status === 'unchanged');
  if (!eligible) return job;
  return { ...job, status: 'failed', errors: [...job.errors, { step, file: null, kind: 'push-failed', message }] };
}
