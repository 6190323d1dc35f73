// `run --push`: each job's branch to the remote, with force-with-lease. A remote branch is
// overwritten only when it holds nothing but this recipe's and job's scion commits (the runner's own
// rerun rule, applied to the remote copy) or with --force, and the push itself is a compare-and-swap
// against the value just checked. A job whose push fails fails alone; the others go on.
import { fail, failure, ok, usageError, type ErrorKind, type Result } from '../errors.js';
import {
  configuredHeaders,
  fetchBranch,
  isGitError,
  listRemoteBranches,
  pushCommit,
  readCommit,
  readRef,
  remoteUrl,
  setTrackingRef,
  type RemoteAccess,
  type Repo,
  type TransportFailure,
} from '../git/index.js';
import { credentialAdvice, forge, type Credential } from '../host/credentials.js';
import type { JobReport, RunReport } from '../model/types.js';
import { branchStateAt, decideBranch, type BranchState } from '../branch/rerun.js';
import { scionChain } from '../branch/chain.js';
import { hostKindOf, parseRemoteLocation, remoteAccess, serverUrl, shownUrl, type Env, type HostKind } from '../host/remote.js';
import { plural, pluralWord } from '../util/plural.js';

/** A remote ready to talk to: its name, how to reach it, and its URL as shown (no credentials). */
export interface PushTarget {
  readonly name: string;
  readonly access: RemoteAccess;
  readonly shown: string;
  /** The forge serving it, which says which token applies. */
  readonly kind: HostKind;
  /** What the credential rule offers it when it asks (for messages: which variable, or none and why). */
  readonly credential: Credential | null;
  /** The server the forge's token belongs to (for messages). */
  readonly server: string;
}

export interface PushOptions {
  readonly target: PushTarget;
  /** Push the branches of failed jobs too (what they committed before failing). */
  readonly pushFailed: boolean;
  /** Overwrite a remote branch that holds commits scion did not write. */
  readonly force: boolean;
  /** The `step` an error of this job is reported at: after the recipe's steps and verify commands. */
  readonly stepOf: (job: JobReport) => number;
  /** One line per pushed branch. */
  readonly say: (line: string) => void;
  /** The run's interrupt: once it fired, no push (nor any other request) starts; the jobs not pushed say so. */
  readonly signal?: AbortSignal;
}

/**
 * The remote `name` of `repo`, ready for pushing over HTTP(S): its push URL (an SSH URL of a GitHub or
 * GitLab repository becomes its https URL) and what the credential rule offers it: credentials written
 * in the URL, the forge's token when the URL is on that forge's origin, else the `http.extraHeader`
 * the repository's config holds. Throws a `usage` error when the remote cannot be pushed to.
 */
export function resolvePushTarget(repo: Repo, name: string, env: Env): PushTarget {
  const r = pushTargetOf(repo, name, env);
  if (!r.ok) throw usageError(r.error.message);
  return r.value;
}

/** resolvePushTarget as a value: a failure (kind `push-failed`) says in one sentence why the remote cannot be pushed to. */
export function pushTargetOf(repo: Repo, name: string, env: Env): Result<PushTarget> {
  const configured = remoteUrl(repo, name);
  if (configured === null) {
    return cannotPush(
      `The repository has no remote "${name}" (remote.${name}.url is not set); add it with \`git remote add ${name} URL\`, or name another remote ` +
        `with the \`remote\` option.`,
    );
  }
  const loc = parseRemoteLocation(configured);
  let url = configured;
  let kind: HostKind = loc === null ? 'github' : hostKindOf(loc.host, env);
  if (!/^https?:\/\//i.test(url)) {
    const known =
      loc !== null &&
      (kind === 'gitlab' || ['github.com', 'ssh.github.com', 'www.github.com'].includes(loc.host) || hostOfUrl(env['GITHUB_SERVER_URL']) === loc.host);
    if (loc === null || !known) {
      return cannotPush(
        `Remote ${name} has the URL ${shownUrl(configured)}, and scion pushes over HTTP(S) only (SSH only to a GitHub or GitLab host it can turn ` +
          `into https); give it an https push URL: \`git remote set-url --push ${name} https://…\`.`,
      );
    }
    url = `${serverUrl(kind, loc.host, env)}/${loc.path}.git`;
    kind = hostKindOf(hostOfUrl(url) ?? loc.host, env);
  }
  const { access, credential } = remoteAccess(url, env, (bare) => configuredHeaders(repo, bare));
  return ok({ name, kind, shown: shownUrl(access.url), access, credential, server: forge(kind, env).server });
}

const cannotPush = (message: string): Result<PushTarget> => fail(failure('push-failed', message));

function hostOfUrl(url: string | undefined): string | null {
  try {
    return url ? new URL(url).hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** The report with each pushed job's `pushed` set, and the jobs whose push failed turned `failed`. */
export async function pushReport(repo: Repo, report: RunReport, o: PushOptions): Promise<RunReport> {
  const eligible = (j: JobReport) => j.head !== null && (j.status === 'changed' || j.status === 'unchanged' || (j.status === 'failed' && o.pushFailed));
  if (report.dryRun || !report.jobs.some(eligible)) return report;

  // One listing for the whole run; each push re-checks its own branch against the server.
  if (o.signal?.aborted) return { ...report, jobs: report.jobs.map((j) => (eligible(j) ? notPushed(j, o) : j)) };
  const listed = await listRemoteBranches(o.target.access);
  const held = listed.ok ? await remoteHolds(repo, o.target.name, listed.value) : new Set<string>();
  const jobs: JobReport[] = [];
  let alreadyThere = 0;
  for (const job of report.jobs) {
    if (!eligible(job)) {
      jobs.push(job);
    } else if (o.signal?.aborted) {
      jobs.push(notPushed(job, o));
    } else if (!listed.ok) {
      jobs.push(failJob(job, o, 'push-failed', transportMessage(job.branch, o.target, listed.error, 'push')));
    } else {
      const done = await pushJob(repo, job, listed.value.get(job.branch) ?? null, held, o);
      if (done.pushed) {
        listed.value.set(job.branch, done.pushed.sha);
        if (!done.pushed.sent && job.status === 'changed') alreadyThere++;
      }
      jobs.push(done);
    }
  }
  if (alreadyThere > 0) {
    o.say(
      `${o.target.name} already held the change of ${plural(alreadyThere, 'branch', 'branches')}: nothing sent for ${pluralWord(alreadyThere, 'it', 'them')}`,
    );
  }
  return { ...report, jobs };
}

/**
 * Commits the remote holds: what its branches point at now, and what scion last saw them point at
 * (the remote-tracking refs). Used only to keep objects out of a pack; a wrong guess costs a retry.
 */
async function remoteHolds(repo: Repo, remote: string, listed: ReadonlyMap<string, string>): Promise<ReadonlySet<string>> {
  const held = new Set(listed.values());
  for (const branch of listed.keys()) {
    const seen = await readRef(repo, `refs/remotes/${remote}/${branch}`);
    if (seen !== null) held.add(seen);
  }
  return held;
}

async function pushJob(repo: Repo, job: JobReport, remoteSha: string | null, held: ReadonlySet<string>, o: PushOptions): Promise<JobReport> {
  const { name: remote } = o.target;
  const local = job.head as string;
  const ref = `refs/heads/${job.branch}`;
  const onRemote = (sha: string): JobReport => ({ ...job, pushed: { remote, ref, sha, previous: sha, sent: false } });

  if (remoteSha === local) {
    await setTrackingRef(repo, remote, job.branch, local);
    return onRemote(local);
  }
  if (remoteSha !== null) {
    // What is there now must be readable before it may be replaced: fetch it if scion lacks it.
    if (!(await hasCommit(repo, remoteSha))) {
      const fetched = await fetchBranch(repo, o.target.access, remote, job.branch);
      if (!fetched.ok) return failJob(job, o, 'push-failed', transportMessage(job.branch, o.target, fetched.error, 'fetch'));
      if (!(await hasCommit(repo, remoteSha))) {
        return failJob(job, o, 'branch-diverged', `Branch ${job.branch} on ${remote} moved while scion was reading it; run again.`, MOVED_HINT);
      }
    }
    const theirs: BranchState = await branchStateAt(repo, remoteSha, job.recipe, job.name, job.base);
    const ours = { chain: await scionChain(repo, local, job.recipe, job.name, true) };
    const decision = decideBranch(theirs, job.base, ours.chain, o.force);
    if (decision.action === 'diverged') {
      return failJob(
        job,
        o,
        'branch-diverged',
        `Branch ${job.branch} on ${remote} holds commits scion did not write (head ${short(remoteSha)}); ` +
          `look at them (\`git fetch ${remote} ${job.branch}\`), merge or delete that branch` +
          `${decision.scions ? ', or rerun with --force to overwrite it' : ' (scion never wrote it, so --force will not overwrite it)'}.`,
      );
    }
    if (decision.action === 'unchanged') {
      // Same base, trees and messages (a rerun elsewhere, by another identity or at another time):
      // replacing it would only churn the pull request.
      await setTrackingRef(repo, remote, job.branch, remoteSha);
      return onRemote(remoteSha);
    }
  }

  // Reading the remote branch may have taken a request or two: the interrupt is looked at again.
  if (o.signal?.aborted) return notPushed(job, o);
  const pushed = await pushCommit(repo, o.target.access, {
    remote,
    branch: job.branch,
    sha: local,
    expectedOld: remoteSha,
    remoteHas: held.has(job.base) ? job.base : null,
  });
  if (!pushed.ok) {
    if (pushed.error.reason === 'moved') {
      return failJob(
        job,
        o,
        'branch-diverged',
        `Branch ${job.branch} on ${remote} moved while scion was pushing ` +
          `(now ${pushed.error.detail === 'no such branch' ? 'deleted' : short(pushed.error.detail)}); run again to check the new commits.`,
        MOVED_HINT,
      );
    }
    return failJob(job, o, 'push-failed', transportMessage(job.branch, o.target, pushed.error, 'push'));
  }
  o.say(`pushed ${job.branch} to ${remote} at ${short(local)} (${remoteSha === null ? 'new branch' : `replaced ${short(remoteSha)}`})`);
  return { ...job, pushed: { remote, ref, sha: local, previous: remoteSha, sent: true } };
}

export async function hasCommit(repo: Repo, sha: string): Promise<boolean> {
  try {
    await readCommit(repo, sha);
    return true;
  } catch (e) {
    if (isGitError(e)) return false;
    throw e;
  }
}

const MOVED_HINT = 'The remote branch moved while scion was pushing: run again, so scion looks at the new commits first; --force does not help here.';

function failJob(job: JobReport, o: PushOptions, kind: ErrorKind, message: string, hint?: string): JobReport {
  return { ...job, status: 'failed', errors: [...job.errors, { step: o.stepOf(job), file: null, kind, message, ...(hint ? { hint } : {}) }] };
}

/** A job the interrupt caught before its push: its branch is written locally, for the next run to push. */
function notPushed(job: JobReport, o: PushOptions): JobReport {
  const message = `The run was interrupted before ${job.branch} was pushed to ${o.target.name}; the branch is kept locally: run again with --push to push it.`;
  return failJob(job, o, 'interrupted', message);
}

/** One sentence: what failed, what the server said, what to do. */
function transportMessage(branch: string, target: PushTarget, e: TransportFailure, verb: 'push' | 'fetch'): string {
  const what = `Could not ${verb} ${branch} ${verb === 'push' ? 'to' : 'from'} ${target.name} (${target.shown})`;
  switch (e.reason) {
    case 'auth':
      return `${what}: ${credentialAdvice(target.access.url, target.kind, target.credential, e.detail, 'push', target.server)}`;
    case 'unreachable':
      return `${what}: the server cannot be reached (${e.detail}); check the network and remote.${target.name}.url.`;
    case 'rejected':
      return `${what}: the server refused the update (${e.detail}); check the branch's protection rules and the token's permissions.`;
    default:
      return `${what}: ${e.detail}; check that remote.${target.name}.url is a git repository served over HTTP(S).`;
  }
}

function short(sha: string): string {
  return sha.slice(0, 12);
}
