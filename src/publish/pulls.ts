// The life of each job's pull request (SPEC §8): create or update it while the job has a change,
// close it with a comment when the job ends empty (deleting the branch when only scion wrote it),
// leave closed what a person closed while the result stays the same, enable auto-merge.
import { listRemoteBranches, fetchBranch, type Repo } from '../git/index.js';
import { deleteRemoteBranch } from '../git/push.js';
import type { JobReport, PullRequestReport, RunReport } from '../model/types.js';
import { noRedaction, type Redactor } from '../redact.js';
import { scionChain } from '../runner/chain.js';
import { isAncestor } from './ancestry.js';
import { DEFAULT_PR_SETTINGS, describeJob, fingerprintOf, jobsToPublish, type PrSettings } from './describe.js';
import { hasCommit, type PushTarget } from './push.js';
import { sleep } from './http.js';
import { HostError, type Host, type HostPull } from './types.js';

export interface PullRequestOptions {
  readonly host: Host;
  /** The branch pull requests merge into. Default: the remote's default branch (asked lazily). */
  readonly base?: string | (() => Promise<string>);
  /** The `pr` settings of a job: its recipe's block with the CLI's flags added. */
  readonly settings?: (job: JobReport) => PrSettings;
  /** Open a new pull request even where a person closed one holding the same result. */
  readonly reopen?: boolean;
  /** Pause between two jobs' pull requests (secondary rate limits). Default 1000. */
  readonly intervalMs?: number;
  /** Applied to every title, body, comment and line printed. Default: none. */
  readonly redact?: Redactor;
  /** The remote the branches live on: needed to delete the branch of a closed pull request. */
  readonly remote?: { readonly repo: Repo; readonly target: PushTarget };
  readonly say?: (line: string) => void;
  /** Where the report came from, for notes ("r.json records no push"). */
  readonly source?: string;
  readonly note?: (line: string) => void;
}

export interface PullRequestsResult {
  /** The report with each published job's `pullRequest` set. */
  readonly report: RunReport;
  /** The host's failure that stopped publishing (the pull requests done before it stay). */
  readonly error: string | null;
}

export async function publishPullRequests(report: RunReport, o: PullRequestOptions): Promise<PullRequestsResult> {
  const redact = o.redact ?? noRedaction;
  const say = (line: string) => o.say?.(redact(line));
  const settingsOf = o.settings ?? (() => DEFAULT_PR_SETTINGS);
  const { open, close } = jobsToPublish(report, (n) => o.note?.(redact(n)), o.source);
  let base: string | null = typeof o.base === 'string' ? o.base : null;
  const baseBranch = async () => (base ??= typeof o.base === 'function' ? await o.base() : await o.host.defaultBranch());
  const records = new Map<JobReport, PullRequestReport>();
  let acted = 0;
  const pace = async () => {
    if (acted++ > 0) await sleep(o.intervalMs ?? 1000);
  };
  const finish = (error: string | null): PullRequestsResult => ({
    report: { ...report, jobs: report.jobs.map((j) => (records.has(j) ? { ...j, pullRequest: records.get(j)! } : j)) },
    error: error === null ? null : redact(error),
  });

  try {
    for (const job of report.jobs) {
      const s = settingsOf(job);
      if (open.includes(job)) {
        await pace();
        const r = await openOne(report, job, s, o, baseBranch, redact);
        records.set(job, r);
        say(lineFor(job, r));
      } else if (close.includes(job) && s.closeWhenEmpty) {
        const pull = await o.host.findPull(job.branch);
        if (pull === null || pull.state !== 'open') continue;
        await pace();
        const r = await closeOne(job, pull, o, redact, say);
        records.set(job, r);
        say(lineFor(job, r));
      }
    }
  } catch (e) {
    if (e instanceof HostError) return finish(e.message);
    throw e;
  }
  return finish(null);
}

const noun = (h: Host) => (h.kind === 'gitlab' ? 'merge request' : 'pull request');

function lineFor(job: JobReport, r: PullRequestReport): string {
  const what = r.url.includes('/merge_requests/') ? 'merge request' : 'pull request';
  if (r.action === 'declined') return `declined ${what} #${r.number} for ${job.branch} stays closed (same change; --reopen opens a new one): ${r.url}`;
  if (r.action === 'closed') return `closed ${what} #${r.number} for ${job.branch} (the job ended empty): ${r.url}`;
  return `${r.action} ${what} #${r.number} for ${job.branch}: ${r.url}`;
}

async function openOne(report: RunReport, job: JobReport, s: PrSettings, o: PullRequestOptions, baseBranch: () => Promise<string>, redact: Redactor): Promise<PullRequestReport> {
  const host = o.host;
  const text = describeJob(report, job, s);
  const title = redact(text.title);
  const body = redact(text.body);
  const existing = await host.findPull(job.branch);
  let pull: HostPull;
  let action: PullRequestReport['action'];
  if (existing !== null && existing.state === 'open') {
    pull = await host.updatePull(existing, { title, body });
    action = 'updated';
  } else if (existing !== null && existing.state === 'closed' && !o.reopen && sameResult(existing, job, text.fingerprint)) {
    return { number: existing.number, url: existing.url, action: 'declined' };
  } else {
    pull = await host.createPull({ branch: job.branch, base: await baseBranch(), title, body, draft: s.draft });
    action = 'created';
  }
  await host.addExtras(pull, { labels: s.labels, reviewers: s.reviewers, assignees: s.assignees });
  if (s.autoMerge !== undefined) await host.enableAutoMerge(pull, s.autoMerge);
  return { number: pull.number, url: pull.url, action };
}

/** A closed pull request held this job's result: the same change, or the very commit now on the branch. */
function sameResult(pull: HostPull, job: JobReport, fingerprint: string): boolean {
  const held = fingerprintOf(pull.body);
  if (held !== null) return held === fingerprint;
  return pull.headSha !== null && pull.headSha === (job.pushed?.sha ?? job.head);
}

async function closeOne(job: JobReport, pull: HostPull, o: PullRequestOptions, redact: Redactor, say: (l: string) => void): Promise<PullRequestReport> {
  const what = noun(o.host);
  await o.host.comment(
    pull,
    redact(
      `scion closed this ${what}: job \`${job.name}\` of recipe \`${job.recipe}\` made no change on ${job.base.slice(0, 12)}, ` +
        'so the change is no longer needed (it is in the base branch already, or nothing matches any more).',
    ),
  );
  await o.host.closePull(pull);
  if (o.remote) say(await deleteIfOurs(job, o.remote.repo, o.remote.target));
  return { number: pull.number, url: pull.url, action: 'closed' };
}

/**
 * Deletes the remote branch of a closed pull request when every commit on it is this recipe's and
 * job's scion commit on top of the base; keeps it when it holds anyone else's commit.
 */
async function deleteIfOurs(job: JobReport, repo: Repo, target: PushTarget): Promise<string> {
  const where = `${job.branch} on ${target.name}`;
  const listed = await listRemoteBranches(target.access);
  if (!listed.ok) return `kept ${where}: could not list the remote's branches (${listed.error.detail})`;
  const sha = listed.value.get(job.branch);
  if (sha === undefined) return `${where} is gone already`;
  if (!(await hasCommit(repo, sha))) {
    const fetched = await fetchBranch(repo, target.access, target.name, job.branch);
    if (!fetched.ok) return `kept ${where}: could not fetch it (${fetched.error.detail})`;
  }
  const chain = await scionChain(repo, sha, job.recipe, job.name, true);
  const bottom = chain[0]?.parent ?? null;
  const ours = chain.length > 0 && chain[chain.length - 1]!.sha === sha && bottom !== null && (await isAncestor(repo, bottom, job.base));
  if (!ours) return `kept ${where}: it holds commits scion did not write`;
  const deleted = await deleteRemoteBranch(repo, target.access, target.name, job.branch, sha);
  return deleted.ok ? `deleted ${where}` : `kept ${where}: ${deleted.error.detail}`;
}
