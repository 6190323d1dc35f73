// The one publishing path: for one repository, its target (where the branches go, which host gets the
// pull requests), then the push, then the pull requests. `run --push --pr`, `scion pr`, publishRun and
// campaigns all publish through here; they differ only in where a repository's target comes from and
// whether a target that cannot be reached stops everything (one repository, checked before the run)
// or fails that repository's jobs (a campaign, where the others go on).
import { CLONE_REMOTE, configuredHeaders, remoteHeadBranch, type Repo } from '../git/index.js';
import { ok, usageError, type Result } from '../errors.js';
import type { JobReport, RunReport } from '../model/types.js';
import { makeRedactor, type Redactor } from '../redact.js';
import type { Recipe } from '../recipe/index.js';
import { settingsFor } from './describe.js';
import { hostAtUrl, hostOf } from '../host/open.js';
import { pushReport, pushTargetOf, type PushTarget } from './push.js';
import { publishPullRequests } from './pulls.js';
import { remoteAccess, shownUrl, type Env } from '../host/remote.js';
import { forge } from '../host/credentials.js';
import type { Host } from '../host/types.js';
import type { PublishSettings } from './settings.js';

export { checkPublishSettings, type PublishSettings } from './settings.js';

/** One repository, ready to publish: the branches' repository, where they go, and the host. */
export interface RepositoryTarget {
  readonly repo: Repo;
  /** The remote to push to and to delete closed branches on; null: none scion can reach. */
  readonly push: PushTarget | null;
  /** Where the pull requests go; null: none (no pull requests asked, or none can be opened). */
  readonly host: Host | null;
  /** The branch pull requests merge into, asked of git or the host only when needed. */
  readonly base: () => Promise<string>;
  /** The `repo` its jobs carry in a campaign's report (lines are prefixed with it); absent for one repository. */
  readonly id?: string;
}

/** Where one repository's branches go: its remote `remote`, or (a campaign's clone) the URL it was cloned from. */
export interface TargetSource {
  readonly repo: Repo;
  readonly remote: string;
  /** A clone's URL: pushes and its host go there. null: the repository's own remote. */
  readonly url: string | null;
  /** The branch its jobs started from: where pull requests merge by default. */
  readonly branch?: string | null;
  /** A host to use instead of the one the URL names (tests, other forges). */
  readonly host?: Host;
  readonly id?: string;
}

/** The parts of a target that could not be resolved, each as one sentence (a usage mistake). */
export interface TargetProblems {
  readonly push: string | null;
  readonly host: string | null;
}

/** What resolving a target reads of the publishing settings. */
export type TargetSettings = Pick<PublishSettings, 'env' | 'push' | 'pullRequests' | 'base' | 'hostOptions'>;

/**
 * Resolves a repository's target without sending anything: the push target when pushing (or when
 * pull requests may delete closed branches), the host when pull requests are asked. What cannot be
 * resolved is returned as a problem (a usage mistake: a missing remote, token, or URL scion cannot
 * push to); the caller decides whether that stops everything or fails this repository alone.
 */
export function resolveTarget(
  src: TargetSource,
  s: TargetSettings,
): {
  readonly target: RepositoryTarget;
  readonly problems: TargetProblems;
} {
  // A clone pushes to the URL it came from; a repository of one's own, to its remote.
  const pushed = src.url !== null ? ok(pushTargetForUrl(CLONE_REMOTE, src.url, s.env, src.repo)) : pushTargetOf(src.repo, src.remote, s.env);
  const hosted: Result<Host> | null = !s.pullRequests
    ? null
    : src.host !== undefined
      ? ok(src.host)
      : src.url !== null
        ? hostAtUrl(src.url, CLONE_REMOTE, s.env, s.hostOptions)
        : hostOf(src.repo, src.remote, s.env, s.hostOptions);
  const push = pushed.ok ? pushed.value : null;
  const host = hosted?.ok ? hosted.value : null;
  const h = host;
  let asked: Promise<string> | undefined;
  const base = () =>
    (asked ??= (async () => {
      const known = s.base ?? src.branch ?? (src.url === null ? remoteHeadBranch(src.repo, src.remote) : null);
      if (known !== null) return known;
      // Only asked while publishing pull requests, which needs the host.
      return h!.defaultBranch();
    })());
  return {
    target: { repo: src.repo, push, host, base, ...(src.id === undefined ? {} : { id: src.id }) },
    problems: { push: s.push === false || pushed.ok ? null : pushed.error.message, host: hosted === null || hosted.ok ? null : hosted.error.message },
  };
}

/**
 * The target of a repository whose publishing is checked before anything runs or is sent (run --push,
 * scion pr, publishRun, each local repository of a campaign): what cannot be resolved is thrown as a
 * usage error, after `label` when one names the repository.
 */
export function requireTarget(src: TargetSource, s: TargetSettings, label?: string): RepositoryTarget {
  const { target, problems } = resolveTarget(src, s);
  const problem = problems.push ?? problems.host;
  if (problem !== null) throw usageError(label === undefined ? problem : `${label}: ${problem}`);
  return target;
}

/** The push target of a URL itself: what a cached clone pushes to. */
export function pushTargetForUrl(name: string, url: string, env: Env, repo?: Repo): PushTarget {
  const { access, kind, credential } = remoteAccess(url, env, (bare) => (repo ? configuredHeaders(repo, bare) : {}));
  return { name, kind, shown: shownUrl(access.url), access, credential, server: forge(kind, env).server };
}

export interface RepositoryResult {
  readonly report: RunReport;
  /** The host's failure that stopped this repository's pull requests; null when none did. */
  readonly error: string | null;
}

/**
 * Publishes `report`'s jobs in one repository: pushes their branches (when asked and a push target is
 * known), then creates, updates or closes their pull requests (when a host is known). `problems` are
 * the target's parts that could not be resolved: the jobs a push would have carried fail with
 * `push-failed`, and a host problem is this repository's error.
 */
export async function publishRepository(
  report: RunReport,
  t: RepositoryTarget,
  s: PublishSettings,
  problems: TargetProblems = { push: null, host: null },
): Promise<RepositoryResult> {
  const redact: Redactor = makeRedactor(s.env);
  const stepOf = stepsOf(s.recipes);
  const say = (line: string) => s.say?.(t.id === undefined ? line : `${t.id}: ${line}`);
  let out = report;
  if (s.push !== false && problems.push !== null) {
    out = { ...out, jobs: out.jobs.map((j) => failPush(j, stepOf(j), redact(problems.push!))) };
  } else if (s.push !== false && t.push !== null) {
    out = await pushReport(t.repo, out, {
      target: t.push,
      force: s.push.force,
      pushFailed: s.push.pushFailed,
      stepOf,
      say,
      ...(s.signal ? { signal: s.signal } : {}),
    });
  }
  if (!s.pullRequests) return { report: out, error: null };
  if (t.host === null) return { report: out, error: problems.host === null ? null : redact(problems.host) };
  return publishPullRequests(out, {
    host: t.host,
    base: t.base,
    settings: settingsFor(s.recipes, s.extra),
    reopen: s.reopen,
    intervalMs: s.intervalMs,
    ...(s.pause ? { pause: s.pause } : {}),
    redact,
    ...(t.push !== null ? { remote: { repo: t.repo, target: t.push } } : {}),
    say,
    ...(s.note ? { note: (n: string) => s.note!(n) } : {}),
    ...(s.source !== undefined ? { source: s.source } : {}),
    ...(s.signal ? { signal: s.signal } : {}),
  });
}

/** The `step` a push error of a job is reported at: after its recipe's steps and verify commands. */
function stepsOf(recipes: readonly Recipe[]): (job: JobReport) => number {
  const byName = new Map(recipes.map((r) => [r.name, r.steps.length + r.verify.length]));
  return (job) => byName.get(job.recipe) ?? 0;
}

function failPush(job: JobReport, step: number, message: string): JobReport {
  const eligible = job.head !== null && (job.status === 'changed' || job.status === 'unchanged');
  if (!eligible) return job;
  return { ...job, status: 'failed', errors: [...job.errors, { step, file: null, kind: 'push-failed', message }] };
}
