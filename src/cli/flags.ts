// Every flag of every command and every rule about them, in one module: described once as data (yargs
// reads them for parsing and --help, the usage checks read the same names for "did you mean"), and
// checked inside yargs' parse, so a mistake ends the parse before any command runs or anything is
// pushed. A new flag is a line in its command's table below, and its rule a line in that command's check.
import type { Argv, Options } from 'yargs';
import { usageError, type ScionError } from '../api/errors.js';

/** A flag that takes a value: given without one (`--report` at the end, `--report=`) is bad usage. */
const valued = (o: Options): Options => ({ ...o, requiresArg: true });

/** Flags that `run` and `plan` both honour. */
export const COMMON_RUN_OPTIONS = {
  // No yargs default: a --repo given beside a campaign's list is a usage mistake, which needs telling apart.
  repo: valued({
    type: 'string',
    describe: 'The repository to work on: any folder inside it, also inside a linked worktree (default: the current folder)',
    group: 'Run:',
  }),
  base: valued({ type: 'string', describe: "The commit every job starts from (overrides the recipe's base; default: recipe base, else HEAD)", group: 'Run:' }),
  job: valued({ type: 'string', array: true, describe: 'Run only the jobs whose name matches NAME (globs allowed; repeat for several)', group: 'Run:' }),
  concurrency: valued({ type: 'number', describe: 'Jobs run at once; edits inside a job are always serial (default: number of CPUs)', group: 'Run:' }),
  shard: valued({
    type: 'string',
    describe: 'Run only shard I of N (I/N, 1-based): job k belongs to shard k mod N + 1; auto/N takes I from JOB_COMPLETION_INDEX or SCION_SHARD',
    group: 'Run:',
  }),
  force: { type: 'boolean', default: false, describe: 'Overwrite a scion branch that someone added commits to', group: 'Run:' },
  cache: { type: 'boolean', default: true, describe: 'Reuse cached agent answers and step results for unchanged files (--no-cache to bypass)', group: 'Run:' },
  sample: valued({
    type: 'number',
    describe: 'Run only N jobs spread evenly over the expansion (across the repositories of a campaign), and cluster their failures',
    group: 'Run:',
  }),
  report: valued({ type: 'string', describe: 'Write the JSON report to FILE', group: 'Output:' }),
  'pr-body': valued({ type: 'string', describe: 'Write a Markdown pull-request description to FILE', group: 'Output:' }),
  html: valued({ type: 'string', describe: 'Write a self-contained HTML report with rendered diffs to FILE', group: 'Output:' }),
  json: { type: 'boolean', default: false, describe: 'Print the JSON report to stdout instead of the human summary', group: 'Output:' },
  color: valued({
    type: 'string',
    choices: ['auto', 'always', 'never'],
    default: 'auto',
    describe: 'Colour the diffs and the summary: auto (on a terminal, unless NO_COLOR is set), always, or never',
    group: 'Output:',
  }),
  repos: valued({
    type: 'string',
    describe: 'Run in every repository FILE lists, one a line (https URL, owner/name, or a path; @REF for the base; # comments); `-` reads stdin',
    group: 'Campaign:',
  }),
  'github-org': valued({
    type: 'string',
    describe: 'Every repository of this GitHub organisation (forks and archived ones left out unless asked)',
    group: 'Campaign:',
  }),
  topic: valued({ type: 'string', describe: 'With --github-org: only the repositories with this topic', group: 'Campaign:' }),
  'include-forks': { type: 'boolean', default: false, describe: 'With --github-org: forks too', group: 'Campaign:' },
  'include-archived': { type: 'boolean', default: false, describe: 'With --github-org: archived repositories too', group: 'Campaign:' },
  'github-search': valued({
    type: 'string',
    describe: 'The repositories a GitHub repository search finds (e.g. "org:acme language:typescript")',
    group: 'Campaign:',
  }),
  'gitlab-group': valued({ type: 'string', describe: 'Every project of this GitLab group, subgroups included', group: 'Campaign:' }),
  'cache-dir': valued({
    type: 'string',
    describe: 'Where the repositories are cloned and kept between runs (default: $XDG_CACHE_HOME/scion/repos, else ~/.cache/scion/repos)',
    group: 'Campaign:',
  }),
} as const satisfies Record<string, Options>;

/** The flags that name a campaign's repositories: at most one, and never beside --repo. */
export const CAMPAIGN_SOURCES = ['repos', 'github-org', 'github-search', 'gitlab-group'] as const;

/** `run` only: what a dry run cannot honour. */
export const RUN_ONLY_OPTIONS = {
  'dry-run': {
    type: 'boolean',
    default: false,
    describe: 'Compute and print everything; write no ref, no object, no worktree (.git stays byte-identical)',
    group: 'Run:',
  },
  'keep-worktrees': { type: 'boolean', default: false, describe: "Leave each job's worktree on disk (default: removed, branch kept)", group: 'Run:' },
  'max-cost': valued({
    type: 'number',
    describe: 'Start no model conversation once the run has spent USD (conversations not started fail with kind budget)',
    group: 'Run:',
  }),
  push: {
    type: 'string',
    describe:
      "Push each changed job's branch to REMOTE (default origin) over HTTP(S), token from GITHUB_TOKEN or GIT_TOKEN; never overwrites commits scion did not write",
    group: 'Push and pull requests:',
    coerce: (v: unknown) => {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      return last === undefined || last === '' ? 'origin' : String(last);
    },
  },
  'push-failed': {
    type: 'boolean',
    default: false,
    describe: 'With --push: push the branches of failed jobs too (what they committed before failing)',
    group: 'Push and pull requests:',
  },
  pr: {
    type: 'boolean',
    default: false,
    describe: 'With --push: create or update one pull request per pushed branch (GITHUB_TOKEN)',
    group: 'Push and pull requests:',
  },
  'pr-base': valued({
    type: 'string',
    describe: "With --pr: the branch pull requests merge into (default: the remote's default branch)",
    group: 'Push and pull requests:',
  }),
  draft: { type: 'boolean', default: false, describe: 'With --pr: open new pull requests as drafts', group: 'Push and pull requests:' },
  label: valued({ type: 'string', describe: 'With --pr: add this label to every pull request (repeat for several)', group: 'Push and pull requests:' }),
} as const satisfies Record<string, Options>;

/** Flags of `run` that a dry run cannot honour: said as such when given to `plan`. */
export const PLAN_REFUSES: ReadonlySet<string> = new Set(Object.keys(RUN_ONLY_OPTIONS).filter((f) => f !== 'dry-run'));

/** `plan` only: the shapes its diff can take. */
export const PLAN_ONLY_OPTIONS = {
  // plan is a dry run already; `plan --dry-run` is accepted (and not listed) rather than refused.
  'dry-run': { type: 'boolean', hidden: true },
  patch: {
    type: 'boolean',
    default: false,
    describe: 'Print one patch that `git apply` accepts (no line numbers, no colour), all jobs in order',
    group: 'Output:',
  },
  stat: { type: 'boolean', default: false, describe: 'Print `git diff --stat`-style lines per job instead of the diffs', group: 'Output:' },
} as const satisfies Record<string, Options>;

/** The flags `scion pr` and `run --pr` share beyond --draft/--label. */
export const PR_LIFECYCLE_OPTIONS = {
  'pr-interval': { type: 'number', default: 1000, describe: "Milliseconds between two pull requests, to stay under the host's secondary rate limits" },
  reopen: { type: 'boolean', default: false, describe: 'Open a pull request again where a person closed one holding the same change' },
  'write-budget': valued({
    type: 'string',
    describe: 'Writes (pull requests, comments, labels, reviewers, issue edits) allowed per host and token: PER_MINUTE/PER_HOUR (default 80/500)',
  }),
} as const satisfies Record<string, Options>;

const CACHE_DIR = "A campaign report's clones: the --cache-dir of its run (default: $XDG_CACHE_HOME/scion/repos, else ~/.cache/scion/repos)";

/** `scion pr`: the pull requests of a report. */
export const PR_OPTIONS = {
  report: { type: 'string', demandOption: true, describe: 'The JSON report of the run (run --push --report FILE, or merge-reports)' },
  repo: {
    type: 'string',
    describe: "The repository whose remote names the GitHub or GitLab repository (default: .); in a bulk operation, globs over the report's repositories",
  },
  remote: { type: 'string', describe: 'The remote the branches were pushed to (default: the one the report names, else origin)' },
  comment: { type: 'string', group: 'Bulk operations:', describe: 'Post TEXT on each selected pull request (never twice the same text on one)' },
  close: { type: 'boolean', group: 'Bulk operations:', describe: "Close each selected pull request (its branch deleted when every commit on it is scion's)" },
  ready: { type: 'boolean', group: 'Bulk operations:', describe: 'Mark each selected draft ready for review' },
  merge: {
    type: 'string',
    group: 'Bulk operations:',
    describe: 'Merge each selected pull request whose checks pass and whose review allows it (squash, merge or rebase; default merge)',
  },
  job: { type: 'string', array: true, requiresArg: true, group: 'Bulk operations:', describe: 'Only the jobs whose name matches (globs; repeatable)' },
  state: {
    type: 'string',
    array: true,
    requiresArg: true,
    group: 'Bulk operations:',
    describe: 'Only pull requests that are open, draft, failing, stale or no-reviewer (repeatable)',
  },
  stale: {
    type: 'number',
    requiresArg: true,
    group: 'Bulk operations:',
    describe: 'Days without activity after which an open pull request is stale (default 14); without --state, selects the stale ones',
  },
  base: { type: 'string', describe: "The branch the pull requests merge into (default: the remote's default branch)" },
  draft: { type: 'boolean', default: false, describe: 'Open new pull requests as drafts (existing ones keep their state)' },
  label: { type: 'string', describe: 'Add this label to every pull request (repeat for several)' },
  'cache-dir': valued({ type: 'string', describe: CACHE_DIR }),
} as const satisfies Record<string, Options>;

export const STATUS_OPTIONS = {
  report: { type: 'string', describe: 'The JSON report of a run: one row per job in it' },
  repo: { type: 'string', default: '.', describe: 'The repository' },
  remote: { type: 'string', describe: 'The remote whose host holds the pull requests (default: the one the report names, else origin)' },
  json: { type: 'boolean', default: false, describe: 'Print the rows as a JSON array' },
  'cache-dir': valued({ type: 'string', describe: CACHE_DIR }),
} as const satisfies Record<string, Options>;

export const BRANCHES_OPTIONS = {
  prune: { type: 'boolean', default: false, describe: 'Delete scion branches whose pull request is merged or closed, or that hold no commit' },
  remote: { type: 'string', describe: 'Prune the branches on this remote too (and ask its host about pull requests)' },
  repo: { type: 'string', default: '.', describe: 'The repository' },
  report: valued({ type: 'string', describe: "A campaign's JSON report: prune in each of its repositories" }),
  'cache-dir': valued({ type: 'string', describe: CACHE_DIR }),
} as const satisfies Record<string, Options>;

export const TRACK_OPTIONS = {
  report: { type: 'string', demandOption: true, requiresArg: true, describe: 'The JSON report of the run (or of merge-reports) whose pull requests to follow' },
  history: valued({ type: 'string', describe: "Append this run's snapshot to FILE (JSON Lines); the burndown is drawn from it" }),
  html: valued({ type: 'string', describe: 'Write a page with the burndown and one row per job to FILE' }),
  csv: valued({ type: 'string', describe: 'Write one row per job to FILE as CSV' }),
  issue: valued({ type: 'string', describe: 'Keep one tracking issue up to date in OWNER/REPO (OWNER/REPO#N: that issue)' }),
  stale: { type: 'number', default: 14, describe: 'An open pull request with no activity for this many days is stale' },
  repo: valued({ type: 'string', describe: 'The repository of a one-repository report (default: the path the report names)' }),
  remote: valued({ type: 'string', describe: 'The remote whose host holds the pull requests (default: the one the report names, else origin)' }),
  'cache-dir': valued({ type: 'string', describe: CACHE_DIR }),
  json: { type: 'boolean', default: false, describe: 'Print the snapshot and the rows as JSON' },
  'write-budget': PR_LIFECYCLE_OPTIONS['write-budget'],
} as const satisfies Record<string, Options>;

export const WORKTREES_OPTIONS = {
  prune: { type: 'boolean', default: false, describe: 'Remove the worktrees of finished jobs' },
  repo: { type: 'string', default: '.', describe: 'The repository' },
} as const satisfies Record<string, Options>;

export const LIST_OPTIONS = {
  dir: { type: 'string', default: '.', describe: 'Project folder whose recipes/ folder to list' },
} as const satisfies Record<string, Options>;

export const OWNERS_OPTIONS = {
  repo: { type: 'string', default: '.', describe: 'The repository' },
  base: valued({ type: 'string', describe: 'The commit whose CODEOWNERS decides (default: HEAD)' }),
  codeowners: { choices: ['github', 'gitlab'] as const, describe: 'Whose reading of CODEOWNERS (default: gitlab when origin is a GitLab host, else github)' },
  json: { type: 'boolean', default: false, describe: 'Print {file, paths: [{path, owners, rules}], skipped: [{line, text, reason}]}' },
} as const satisfies Record<string, Options>;

export const MERGE_REPORTS_OPTIONS = {
  report: valued({ type: 'string', describe: 'Write the merged JSON report to FILE' }),
  'pr-body': valued({ type: 'string', describe: 'Write the merged Markdown PR body to FILE' }),
  html: valued({ type: 'string', describe: 'Write the merged HTML report to FILE' }),
} as const satisfies Record<string, Options>;

export function runFlags<T>(y: Argv<T>) {
  return y.options(COMMON_RUN_OPTIONS).options(RUN_ONLY_OPTIONS).options(PR_LIFECYCLE_OPTIONS).check(checkRunFlags);
}

export function planFlags<T>(y: Argv<T>) {
  return y.options(COMMON_RUN_OPTIONS).options(PLAN_ONLY_OPTIONS).check(checkRunFlags);
}

export function prFlags<T>(y: Argv<T>) {
  return y.options(PR_OPTIONS).options(PR_LIFECYCLE_OPTIONS).check(checkPrFlags);
}

export const statusFlags = <T>(y: Argv<T>) => y.options(STATUS_OPTIONS);
export const branchesFlags = <T>(y: Argv<T>) => y.options(BRANCHES_OPTIONS);
export const worktreesFlags = <T>(y: Argv<T>) => y.options(WORKTREES_OPTIONS);
export const listFlags = <T>(y: Argv<T>) => y.options(LIST_OPTIONS);
export const mergeReportsFlags = <T>(y: Argv<T>) => y.options(MERGE_REPORTS_OPTIONS);
export const ownersFlags = <T>(y: Argv<T>) => y.options(OWNERS_OPTIONS);
export const trackFlags = <T>(y: Argv<T>) => y.options(TRACK_OPTIONS);

/** `scion pr`: --pr-interval must be a pause, and the labels names. */
export function checkPrFlags(a: Record<string, unknown>): true {
  checkLifecycleFlags(a);
  return true;
}

/** The rules of the flags `run --pr` and `scion pr` share: checked before anything is pushed. */
function checkLifecycleFlags(a: Record<string, unknown>): void {
  const v = a['pr-interval'];
  if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
    throw flagError('pr-interval', `--pr-interval ${String(v)} must be a whole number of milliseconds, 0 or more.`);
  }
}

export interface RunFlags {
  repo?: string;
  repos?: string;
  githubOrg?: string;
  topic?: string;
  includeForks?: boolean;
  includeArchived?: boolean;
  githubSearch?: string;
  gitlabGroup?: string;
  cacheDir?: string;
  prInterval?: number;
  reopen?: boolean;
  writeBudget?: string;
  base?: string;
  job?: string[];
  dryRun?: boolean;
  concurrency?: number;
  shard?: string;
  report?: string;
  prBody?: string;
  html?: string;
  keepWorktrees?: boolean;
  force: boolean;
  json: boolean;
  cache: boolean;
  color?: 'auto' | 'always' | 'never';
  sample?: number;
  /** `run` only. */
  maxCost?: number;
  /** `plan` only. */
  patch?: boolean;
  stat?: boolean;
  /** `run` only. */
  push?: string;
  pushFailed?: boolean;
  pr?: boolean;
  prBase?: string;
  draft?: boolean;
  label?: string | string[];
}

/** A flag mistake found by checkRunFlags: a usage error naming the flag (exit 2), raised inside yargs' parse. */
function flagError(flag: string, message: string): ScionError {
  return usageError(message, [], flag);
}

/**
 * Everything about the flags of `run` and `plan` that can be known without the repository, checked
 * inside yargs so a mistake ends the parse before any command handler runs: usage is checked before
 * anything runs. Throws a usage error naming the flag, whose message is the one sentence the user reads.
 */
export function checkRunFlags(a: Record<string, unknown>): true {
  for (const name of [
    'repo',
    'base',
    'report',
    'pr-body',
    'html',
    'shard',
    'pr-base',
    'label',
    'repos',
    'github-org',
    'topic',
    'github-search',
    'gitlab-group',
    'cache-dir',
  ] as const) {
    const v = a[name];
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => x === '')) throw flagError(name, `--${name} needs a value (for example --${name} ${EXAMPLE[name]}).`);
  }
  const jobs = a['job'];
  if (Array.isArray(jobs) && jobs.some((j) => String(j).trim() === ''))
    throw flagError('job', '--job needs a job name or glob (for example --job web --job "pkg-*").');
  if (a['shard'] !== undefined && parseShard(String(a['shard'])) === null) {
    throw flagError(
      'shard',
      `--shard ${String(a['shard'])} is not I/N or auto/N with 1 <= I <= N (for example --shard 2/4, or --shard auto/4 in a Kubernetes indexed Job).`,
    );
  }
  const c = a['concurrency'];
  if (c !== undefined && !(typeof c === 'number' && Number.isInteger(c) && c >= 1)) {
    const shown = typeof c === 'number' && !Number.isNaN(c) ? ` ${c}` : '';
    throw flagError('concurrency', `--concurrency${shown} must be a whole number of at least 1 (for example --concurrency 4).`);
  }
  checkCampaignFlags(a);
  checkLifecycleFlags(a);
  checkCostFlags(a);
  if (a['patch'] === true && a['stat'] === true) throw flagError('patch', '--patch and --stat print the plan in two different shapes; choose one.');
  if ((a['patch'] === true || a['stat'] === true) && a['json'] === true) {
    throw flagError(
      a['patch'] === true ? 'patch' : 'stat',
      `--${a['patch'] === true ? 'patch' : 'stat'} and --json both print to stdout; choose one (--report FILE writes the JSON beside it).`,
    );
  }
  // Flags that only say how another flag works.
  if (a['push'] === undefined) {
    if (a['push-failed'] === true) throw flagError('push-failed', '--push-failed only says which branches --push pushes; add --push [REMOTE].');
    if (a['pr'] === true) throw flagError('pr', '--pr opens pull requests for the branches --push pushed; add --push [REMOTE].');
  } else if (a['dry-run'] === true) {
    throw flagError('push', '--push cannot go with plan or --dry-run: a dry run writes no branch to push; drop one of them.');
  }
  if (a['pr'] !== true) {
    if (a['draft'] === true) throw flagError('draft', '--draft says how --pr opens pull requests; add --push --pr, or drop --draft.');
    if (a['label'] !== undefined) throw flagError('label', '--label labels the pull requests --pr opens; add --push --pr, or drop --label.');
    if (a['pr-base'] !== undefined) throw flagError('pr-base', '--pr-base says where the pull requests of --pr merge; add --push --pr, or drop --pr-base.');
  }
  return true;
}

/** --sample N is a whole number of jobs; --max-cost a positive amount of US dollars. */
function checkCostFlags(a: Record<string, unknown>): void {
  const n = a['sample'];
  if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
    throw flagError('sample', `--sample${shown(n)} must be a whole number of jobs, at least 1 (for example --sample 20).`);
  }
  if (n !== undefined && a['shard'] !== undefined) {
    throw flagError(
      'sample',
      '--sample picks jobs over the whole expansion and --shard splits it for a sweep; choose one (tune on a sample first, then shard the full run).',
    );
  }
  const usd = a['max-cost'];
  if (usd !== undefined && !(typeof usd === 'number' && Number.isFinite(usd) && usd > 0)) {
    throw flagError('max-cost', `--max-cost${shown(usd)} must be an amount of US dollars above 0 (for example --max-cost 25).`);
  }
}

/** A numeric flag's value as the message repeats it (nothing for a value yargs could not read as a number). */
const shown = (v: unknown): string => (typeof v === 'number' && !Number.isNaN(v) ? ` ${v}` : '');

/** A campaign's repositories come from one flag, never beside --repo; the narrowing flags need theirs. */
function checkCampaignFlags(a: Record<string, unknown>): void {
  const given = CAMPAIGN_SOURCES.filter((n) => a[n] !== undefined);
  if (given.length > 1) {
    throw flagError(given[1]!, `${given.map((n) => `--${n}`).join(' and ')} each name the repositories of a campaign; choose one.`);
  }
  const source = given[0];
  if (source !== undefined && a['repo'] !== undefined) {
    throw flagError('repo', `--repo names one repository and --${source} the repositories of a campaign; choose one (a local path can be a line of --repos).`);
  }
  if (a['github-org'] === undefined) {
    for (const n of ['topic', 'include-forks', 'include-archived'] as const) {
      if (a[n] !== undefined && a[n] !== false) throw flagError(n, `--${n} narrows the repositories of --github-org ORG; add --github-org, or drop --${n}.`);
    }
  }
  if (source === undefined && a['cache-dir'] !== undefined) {
    throw flagError(
      'cache-dir',
      '--cache-dir says where a campaign keeps its clones; add --repos FILE (or --github-org, --github-search, --gitlab-group), or drop --cache-dir.',
    );
  }
}

const EXAMPLE: Readonly<Record<string, string>> = {
  repos: 'repos.txt',
  'github-org': 'acme',
  topic: 'codemod',
  'github-search': '"org:acme language:typescript"',
  'gitlab-group': 'acme/platform',
  'cache-dir': '~/.cache/scion/repos',
  repo: '../app',
  base: 'main',
  report: 'scion-report.json',
  'pr-body': 'pr.md',
  html: 'report.html',
  shard: '2/4',
  'pr-base': 'main',
  label: 'codemod',
};

/** `--shard 2/4` → { index: 2, count: 4 }; `auto/4` → { index: 'auto', count: 4 }; null when malformed. */
export function parseShard(s: string): { index: number | 'auto'; count: number } | null {
  const m = /^(\d+|auto)\/(\d+)$/.exec(s.trim());
  if (!m) return null;
  const count = Number(m[2]);
  if (m[1] === 'auto') return count >= 1 ? { index: 'auto', count } : null;
  const index = Number(m[1]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}

/**
 * The shard this process runs: I/N as given, or for `auto/N` the index its scheduler gives it:
 * JOB_COMPLETION_INDEX (a Kubernetes indexed Job's pod, 0-based) or SCION_SHARD (1-based, any CI).
 * A usage error when neither is set or the index is outside 1..N.
 */
export function resolveShard(spec: string, env: Readonly<Record<string, string | undefined>>): { index: number; count: number } {
  const parsed = parseShard(spec);
  if (parsed === null) throw flagError('shard', `--shard ${spec} is not I/N or auto/N with 1 <= I <= N (for example --shard 2/4 or --shard auto/4).`);
  if (parsed.index !== 'auto') return { index: parsed.index, count: parsed.count };
  const n = parsed.count;
  const k8s = env['JOB_COMPLETION_INDEX'];
  const own = env['SCION_SHARD'];
  const [variable, text, offset] =
    k8s !== undefined && k8s !== ''
      ? (['JOB_COMPLETION_INDEX', k8s, 1] as const)
      : own !== undefined && own !== ''
        ? (['SCION_SHARD', own, 0] as const)
        : ([null, '', 0] as const);
  if (variable === null) {
    throw flagError(
      'shard',
      `--shard auto/${n} takes the shard from JOB_COMPLETION_INDEX (a Kubernetes indexed Job, 0-based) or SCION_SHARD (1 to ${n}); neither is set, so set one or give --shard I/${n}.`,
    );
  }
  const index = /^\d+$/.test(text.trim()) ? Number(text.trim()) + offset : NaN;
  if (!(index >= 1 && index <= n)) {
    const range = variable === 'JOB_COMPLETION_INDEX' ? `0 to ${n - 1}` : `1 to ${n}`;
    throw flagError('shard', `${variable} is ${JSON.stringify(text)}, not a shard of --shard auto/${n} (${range}); run ${n} shards, or fix ${variable}.`);
  }
  return { index, count: n };
}

/** `--label a --label b` (yargs gives a string for one, an array for several). */
export function labelsOf(v: string | readonly string[] | undefined): string[] {
  return (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]).map((l) => l.trim()).filter((l) => l !== '');
}

/**
 * The flag that gives each library option: the library's messages name options (give the `repo`
 * option a folder inside one), and on the command line they read as flags (give --repo a folder
 * inside one). A command that gives an option through another flag has its own entry.
 */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  repo: '--repo',
  base: '--base',
  remote: '--remote',
  report: '--report',
  recipes: 'the recipe arguments',
  repositories: '--repos, --github-org, --github-search or --gitlab-group',
  'repositories.list': '--repos',
  concurrency: '--concurrency',
  jobs: '--job',
  shard: '--shard',
  publish: '--push',
  'publish.remote': '--push',
  'publish.base': '--pr-base',
  'publish.intervalMs': '--pr-interval',
  'publish.labels': '--label',
  intervalMs: '--pr-interval',
  labels: '--label',
  dryRun: '--dry-run (or plan)',
};

const COMMAND_OPTION_FLAGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // run and plan push to the remote --push names.
  run: { remote: '--push' },
  plan: { remote: '--push' },
};

/** `text` with every "the `option` option" the library wrote said as the flag of `command`. */
export function inFlagWords(text: string, command: string | undefined): string {
  const own = command === undefined ? undefined : COMMAND_OPTION_FLAGS[command];
  return text.replace(/\b[Tt]he `([\w.]+)` option\b/g, (all, name: string) => own?.[name] ?? OPTION_FLAGS[name] ?? all);
}
