// Publishing a campaign: each repository through the one publishing path (repository.ts). Its branches
// go back to that repository's own URL (the one it was cloned from, never a remote of the current
// folder), with the same force-with-lease rules as `run --push`, and each job's pull request is opened
// on that repository's own host. A repository whose push target or host cannot be resolved fails its
// own jobs (push-failed) or reports its own error; the others go on.
import { closeRepo, openRepo } from '../git/index.js';
import type { JobReport, RunReport } from '../model/types.js';
import type { Host } from '../host/types.js';
import { sleep } from '../util/sleep.js';
import { publishSettingsOf, type PublishRunOptions } from './publish-run.js';
import { publishRepository, resolveTarget } from './repository.js';

export { pushTargetForUrl } from './repository.js';

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

export async function publishCampaign(report: RunReport, o: PublishCampaignOptions): Promise<PublishCampaignResult> {
  const settings = publishSettingsOf(o);
  const replaced = new Map<JobReport, JobReport>();
  const errors: string[] = [];
  let publishedBefore = false;

  for (const ref of o.repos) {
    const mine = report.jobs.filter((j) => j.repo === ref.id);
    if (mine.length === 0) continue;
    const repo = await openRepo(ref.dir, { env: settings.env });
    try {
      const { target, problems } = resolveTarget(
        {
          repo,
          remote: o.remote ?? 'origin',
          url: ref.url,
          id: ref.id,
          ...(ref.branch !== undefined ? { branch: ref.branch } : {}),
          ...(o.hostFor ? { host: o.hostFor(ref) } : {}),
        },
        settings,
      );
      // Pace across repositories too: the host's secondary rate limit counts the token, not the repository.
      if (publishedBefore && target.host !== null) await (settings.pause ?? sleep)(settings.intervalMs, settings.signal);
      const done = await publishRepository({ ...report, jobs: mine }, target, settings, problems);
      publishedBefore ||= done.report.jobs.some((j) => j.pullRequest !== undefined);
      if (done.error !== null) errors.push(`${ref.id}: ${done.error}`);
      mine.forEach((j, i) => replaced.set(j, done.report.jobs[i]!));
    } finally {
      closeRepo(repo);
    }
  }
  return {
    report: { ...report, jobs: report.jobs.map((j) => replaced.get(j) ?? j) },
    error: errors.length === 0 ? null : errors.join('\n'),
  };
}
