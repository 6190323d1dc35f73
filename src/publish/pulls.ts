// The life of each job's pull request: create or update it while the job has a change,
// close it with a comment when the job ends empty (deleting the branch when only scion wrote it),
// leave closed what a person closed while the result stays the same, enable auto-merge.
import { deleteRemoteBranch, listRemoteBranches, fetchBranch, type Repo } from '../git/index.js';
import type { JobReport, PullRequestReport, RunReport } from '../model/types.js';
import { noRedaction, type Redactor } from '../redact.js';
import { scionChain } from '../branch/chain.js';
import { isAncestor } from './ancestry.js';
import { DEFAULT_PR_SETTINGS, describeJob, fingerprintOf, jobsToPublish, type PrSettings } from './describe.js';
import { hasCommit, type PushTarget } from './push.js';
import { ownerReviewers } from './owner-reviewers.js';
import type { Host, HostPull } from '../host/types.js';
import { hostStatus, isScionError, ScionError } from '../errors.js';
import { sleep } from '../util/sleep.js';

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
  /** Makes that pause (a test passes one that records it). Default: a timer that `signal` cuts short. */
  readonly pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Applied to every title, body, comment and line printed. Default: none. */
  readonly redact?: Redactor;
  /** The remote the branches live on: needed to delete the branch of a closed pull request. */
  readonly remote?: { readonly repo: Repo; readonly target: PushTarget };
  readonly say?: (line: string) => void;
  /** Where the report came from, for notes ("r.json records no push"). */
  readonly source?: string;
  readonly note?: (line: string) => void;
  /**
   * The `step` a pull-request error of this job is reported at (after its recipe's steps and verify
   * commands, as push errors are). Default: after the last step the job's report names.
   */
  readonly stepOf?: (job: JobReport) => number;
  /**
   * The run's interrupt: once it fired no request starts (a host call under way may end); the job it
   * caught and those after it end `failed` with kind `interrupted`.
   */
  readonly signal?: AbortSignal;
}

export interface PullRequestsResult {
  /**
   * The report with each published job's `pullRequest` set, and each job whose pull request failed
   * (or was never reached because publishing stopped) `failed` with an error of kind `pr-failed`.
   */
  readonly report: RunReport;
  /** The host's first failure (the pull requests done before and beside it stay); null when none failed. */
  readonly error: string | null;
}

export async function publishPullRequests(report: RunReport, given: PullRequestOptions): Promise<PullRequestsResult> {
  const o: PullRequestOptions = { ...given, host: stoppable(given.host, given.signal) };
  const redact = o.redact ?? noRedaction;
  const say = (line: string) => o.say?.(redact(line));
  const settingsOf = o.settings ?? (() => DEFAULT_PR_SETTINGS);
  const { open, close } = jobsToPublish(report, (n) => o.note?.(redact(n)), o.source);
  let base: string | null = typeof o.base === 'string' ? o.base : null;
  const baseBranch = async () => {
    checkSignal(o.signal);
    return (base ??= typeof o.base === 'function' ? await o.base() : await o.host.defaultBranch());
  };
  const records = new Map<JobReport, PullRequestReport>();
  const failures = new Map<JobReport, { kind: 'pr-failed' | 'interrupted'; message: string }>();
  let acted = 0;
  const pace = async () => {
    if (acted++ > 0) await (o.pause ?? sleep)(o.intervalMs ?? 1000, o.signal);
  };
  let first: string | null = null;
  const failed = (job: JobReport, message: string) => {
    failures.set(job, { kind: 'pr-failed', message: redact(message) });
    first ??= message;
  };
  // The job the interrupt caught, and every one after it: nothing more is sent for them.
  const interruptedFrom = (k: number) => {
    // A job whose pull request would be closed is left as it ended: whether there was one to close is not known.
    for (const rest of jobs.slice(k)) {
      if (!open.includes(rest)) continue;
      const what = `${noun(o.host)} of ${rest.branch}`;
      const message = records.has(rest)
        ? `The run was interrupted while scion finished the ${what} (labels, reviewers, auto-merge); run \`scion pr\` again to finish it.`
        : `The run was interrupted before the ${what} was published; run \`scion pr --report FILE\` to publish it.`;
      failures.set(rest, { kind: 'interrupted', message });
    }
  };

  const jobs = report.jobs.filter((j) => open.includes(j) || close.includes(j));
  for (const [k, job] of jobs.entries()) {
    const s = settingsOf(job);
    if (o.signal?.aborted) {
      interruptedFrom(k);
      break;
    }
    try {
      if (open.includes(job)) {
        await pace();
        const { record: r, pull } = await openOne(report, job, s, o, baseBranch, redact);
        records.set(job, r);
        say(lineFor(job, r));
        // Labels, reviewers and auto-merge after the pull request is recorded: if they fail, the
        // report still says where the pull request is.
        if (pull !== null) await finishOne(o.host, pull, s, ownerReviewers(job));
      } else if (s.closeWhenEmpty) {
        const pull = await o.host.findPull(job.branch);
        if (pull === null || pull.state !== 'open') continue;
        await pace();
        const r = await closeOne(job, pull, o, redact, say);
        records.set(job, r);
        say(lineFor(job, r));
      }
    } catch (e) {
      if (isScionError(e, 'interrupted') || (isScionError(e, 'host') && o.signal?.aborted)) {
        interruptedFrom(k);
        break;
      }
      if (!isScionError(e, 'host')) throw e;
      failed(job, e.message);
      // A refusal about this one pull request (422: no commits between the branches, one exists
      // already) leaves the others to try; a bad token, a missing repository, rate limits, a server
      // or network failure would refuse every one of them, so publishing stops there, and the pull
      // requests it did not reach are failures of their jobs too.
      if (!stopsPublishing(e)) continue;
      for (const rest of jobs.slice(k + 1)) {
        if (open.includes(rest)) failed(rest, `The ${noun(o.host)} for ${rest.branch} was not published: publishing stopped at ${job.branch} (${e.message})`);
      }
      break;
    }
  }
  const stepOf = o.stepOf ?? lastStep;
  const withOutcome = (j: JobReport): JobReport => {
    const pr = records.get(j);
    const why = failures.get(j);
    const withPr = pr ? { ...j, pullRequest: pr } : j;
    if (why === undefined) return withPr;
    return { ...withPr, status: 'failed', errors: [...j.errors, { step: stepOf(j), file: null, kind: why.kind, message: why.message }] };
  };
  return { report: { ...report, jobs: report.jobs.map(withOutcome) }, error: first === null ? null : redact(first) };
}

/** Thrown instead of a host call once the run's interrupt fired: kind `interrupted`. */
function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ScionError('interrupted', 'interrupted before the request was sent');
}

/** The host, refusing every call once `signal` fired: no request starts after an interrupt. */
function stoppable(host: Host, signal: AbortSignal | undefined): Host {
  if (signal === undefined) return host;
  return new Proxy(host, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        checkSignal(signal);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** 401/403/404/429, 5xx and no answer at all: every further request would fail the same way. */
function stopsPublishing(e: ScionError): boolean {
  const status = hostStatus(e);
  return status === null || status === 401 || status === 403 || status === 404 || status === 429 || status >= 500;
}

/** After the last step the report names (its steps, its errors): where a push error of the job would be. */
function lastStep(job: JobReport): number {
  return Math.max(job.steps?.length ?? 0, ...job.errors.map((e) => e.step + 1));
}

const noun = (h: Host) => (h.kind === 'gitlab' ? 'merge request' : 'pull request');

function lineFor(job: JobReport, r: PullRequestReport): string {
  const what = r.url.includes('/merge_requests/') ? 'merge request' : 'pull request';
  if (r.action === 'declined') return `declined ${what} #${r.number} for ${job.branch} stays closed (same change; --reopen opens a new one): ${r.url}`;
  if (r.action === 'closed') return `closed ${what} #${r.number} for ${job.branch} (the job ended empty): ${r.url}`;
  return `${r.action} ${what} #${r.number} for ${job.branch}: ${r.url}`;
}

async function openOne(
  report: RunReport,
  job: JobReport,
  s: PrSettings,
  o: PullRequestOptions,
  baseBranch: () => Promise<string>,
  redact: Redactor,
): Promise<{ record: PullRequestReport; pull: HostPull | null }> {
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
    return { record: { number: existing.number, url: existing.url, action: 'declined' }, pull: null };
  } else {
    pull = await host.createPull({ branch: job.branch, base: await baseBranch(), title, body, draft: s.draft });
    action = 'created';
  }
  return { record: { number: pull.number, url: pull.url, action }, pull };
}

async function finishOne(host: Host, pull: HostPull, s: PrSettings, owners: readonly string[]): Promise<void> {
  // Nothing to add is no call (and, after an interrupt, no refused one).
  const asked = new Set(s.reviewers.map((r) => r.toLowerCase()));
  const fromOwners = owners.filter((r) => !asked.has(r.toLowerCase()));
  if (s.labels.length + s.reviewers.length + s.assignees.length + fromOwners.length > 0) {
    await host.addExtras(pull, { labels: s.labels, reviewers: s.reviewers, assignees: s.assignees, ...(fromOwners.length > 0 ? { owners: fromOwners } : {}) });
  }
  if (s.autoMerge !== undefined) await host.enableAutoMerge(pull, s.autoMerge);
}

/** A closed pull request held this job's result: the same change, or the very commit now on the branch. */
function sameResult(pull: HostPull, job: JobReport, fingerprint: string): boolean {
  const held = fingerprintOf(pull.body);
  if (held !== null) return held === fingerprint;
  return pull.headSha !== null && pull.headSha === (job.pushed?.sha ?? job.head);
}

async function closeOne(job: JobReport, pull: HostPull, o: PullRequestOptions, redact: Redactor, say: (l: string) => void): Promise<PullRequestReport> {
  const what = noun(o.host);
  const text = redact(
    `scion closed this ${what}: job \`${job.name}\` of recipe \`${job.recipe}\` made no change on ${job.base.slice(0, 12)}, ` +
      'so the change is no longer needed (it is in the base branch already, or nothing matches any more).',
  );
  // Looked up first: a run killed between the comment and the close posts no second one when run again.
  if (!(await o.host.comments(pull)).some((c) => c.trim() === text.trim())) await o.host.comment(pull, text);
  await o.host.closePull(pull);
  if (o.remote) say(await deleteIfOurs(job, o.remote.repo, o.remote.target, o.signal));
  return { number: pull.number, url: pull.url, action: 'closed' };
}

/**
 * Deletes the remote branch of a closed pull request when every commit on it is this recipe's and
 * job's scion commit on top of the base; keeps it when it holds anyone else's commit.
 */
export async function deleteIfOurs(job: JobReport, repo: Repo, target: PushTarget, signal: AbortSignal | undefined): Promise<string> {
  const where = `${job.branch} on ${target.name}`;
  const stopped = `kept ${where}: the run was interrupted`;
  if (signal?.aborted) return stopped;
  const listed = await listRemoteBranches(target.access);
  if (!listed.ok) return `kept ${where}: could not list the remote's branches (${listed.error.detail})`;
  const sha = listed.value.get(job.branch);
  if (sha === undefined) return `${where} is gone already`;
  if (!(await hasCommit(repo, sha))) {
    if (signal?.aborted) return stopped;
    const fetched = await fetchBranch(repo, target.access, target.name, job.branch);
    if (!fetched.ok) return `kept ${where}: could not fetch it (${fetched.error.detail})`;
  }
  const chain = await scionChain(repo, sha, job.recipe, job.name, true);
  const bottom = chain[0]?.parent ?? null;
  const ours = chain.length > 0 && chain[chain.length - 1]!.sha === sha && bottom !== null && (await isAncestor(repo, bottom, job.base));
  if (!ours) return `kept ${where}: it holds commits scion did not write`;
  if (signal?.aborted) return stopped;
  const deleted = await deleteRemoteBranch(repo, target.access, target.name, job.branch, sha);
  return deleted.ok ? `deleted ${where}` : `kept ${where}: ${deleted.error.detail}`;
}
