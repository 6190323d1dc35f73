// Where each job's pull request stands, read through the hosts: the repositories of a report (one, or
// a campaign's clones), each job's pull request, its checks and review where it is open, and how far
// the base moved. Bulk operations act on what this reads (`visit`), while the repository is open.
import { resolve } from 'node:path';
import { closeRepo, openRepo, type Repo } from '../git/index.js';
import type { HostOptions } from '../host/open.js';
import type { Host, HostPull } from '../host/types.js';
import type { JobReport, RunReport } from '../model/types.js';
import { commitsSince } from '../publish/ancestry.js';
import { remoteContext } from '../publish/remote-context.js';
import type { PushTarget } from '../publish/push.js';
import { defaultCacheDir } from '../campaign/clone-cache.js';
import { isCampaignReport, reposOfReport } from '../campaign/locate.js';
import { DEFAULT_STALE_DAYS, flagsOf, idleDays } from './snapshot.js';
import type { TrackRow, TrackState } from './types.js';

export interface GatherOptions {
  /** Where relative paths start. */
  readonly cwd: string;
  /** The repository of a one-repository report (default: the path the report names, else cwd). */
  readonly repoDir?: string;
  /** The remote whose host holds the pull requests (default: the one the report names, else origin). */
  readonly remote?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A campaign report's clones (default: the cache a campaign run uses). */
  readonly cacheDir?: string;
  readonly hostOptions?: HostOptions;
  /** Now, for days since the last activity. */
  readonly now: number;
  readonly staleDays?: number;
  /** Only these jobs are read (a bulk operation's --job and --repo). Default: all. */
  readonly only?: (job: JobReport) => boolean;
}

/** A job with its pull request as read: what a bulk operation acts on. */
export interface PullAt {
  readonly row: TrackRow;
  readonly job: JobReport;
  readonly host: Host | null;
  readonly pull: HostPull | null;
  readonly repo: Repo;
  readonly push: PushTarget | null;
}

export interface Gathered {
  readonly rows: TrackRow[];
  /** One sentence per repository that could not be found or cloned. */
  readonly problems: string[];
}

export async function gatherPulls(report: RunReport, o: GatherOptions, visit?: (p: PullAt) => Promise<void>): Promise<Gathered> {
  const rows: TrackRow[] = [];
  const only = o.only ?? (() => true);
  if (!isCampaignReport(report)) {
    const repo = await openRepo(resolve(o.cwd, o.repoDir ?? report.repo ?? '.'));
    try {
      const remote = o.remote ?? report.jobs.find((j) => j.pushed)?.pushed?.remote ?? 'origin';
      const label = report.repo ?? repo.workTree ?? repo.commonDir;
      await readRepo(repo, remote, null, label, report.jobs.filter(only), o, rows, visit);
    } finally {
      closeRepo(repo);
    }
    return { rows, problems: [] };
  }
  const cacheDir = o.cacheDir !== undefined ? resolve(o.cwd, o.cacheDir) : defaultCacheDir(o.env);
  const wanted = report.jobs.filter(only);
  const { repos, problems } = await reposOfReport({ ...report, jobs: wanted }, { cacheDir, env: o.env });
  for (const ref of repos) {
    const repo = await openRepo(ref.dir);
    try {
      // A clone's `origin` is the URL it was cloned from; a local path's remote is the one asked for.
      const remote = ref.url !== null ? 'origin' : (o.remote ?? 'origin');
      await readRepo(
        repo,
        remote,
        ref.branch ?? null,
        ref.id,
        wanted.filter((j) => j.repo === ref.id),
        o,
        rows,
        visit,
      );
    } finally {
      closeRepo(repo);
    }
  }
  return { rows, problems: [...problems] };
}

async function readRepo(
  repo: Repo,
  remote: string,
  branch: string | null,
  label: string,
  jobs: readonly JobReport[],
  o: GatherOptions,
  rows: TrackRow[],
  visit: ((p: PullAt) => Promise<void>) | undefined,
): Promise<void> {
  const ctx = remoteContext(repo, remote, o.env, false, o.hostOptions ?? {});
  for (const job of jobs) {
    const pull = ctx.host === null ? null : await ctx.host.findPull(job.branch);
    const live = pull !== null && pull.state === 'open';
    const checks = live ? await ctx.host!.checks(pull) : 'none';
    const review = live ? await ctx.host!.review(pull) : 'none';
    const tip = await ctx.baseTip(pull?.base || branch);
    const behind = tip === null ? null : await commitsSince(repo, job.base, tip);
    const base = {
      repo: label,
      recipe: job.recipe,
      job: job.name,
      branch: job.branch,
      pullRequest: pull === null ? null : { number: pull.number, url: pull.url },
      state: stateOf(job, pull),
      checks,
      review,
      reviewers: live ? [...(pull.reviewers ?? [])] : [],
      lastActivity: pull?.updatedAt ?? null,
      idleDays: idleDays(pull?.updatedAt ?? null, o.now),
      behind,
      files: job.status === 'empty' ? 0 : job.files.length,
    };
    const row: TrackRow = { ...base, flags: flagsOf(base, o.staleDays ?? DEFAULT_STALE_DAYS) };
    rows.push(row);
    if (visit) await visit({ row, job, host: ctx.host, pull, repo, push: ctx.push });
  }
}

/** A pull request a person closed while the job's result stayed the same is `declined`, not just closed. */
function stateOf(job: JobReport, pull: HostPull | null): TrackState {
  if (pull === null) return 'none';
  if (pull.state === 'open') return pull.draft ? 'draft' : 'open';
  if (pull.state === 'closed' && job.pullRequest?.action === 'declined' && job.pullRequest.number === pull.number) return 'declined';
  return pull.state;
}
