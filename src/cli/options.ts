// The flags of `run` and `plan`, described once as data: yargs reads them for parsing and
// --help, and the usage checks read the same names for "did you mean".
import type { Argv, Options } from 'yargs';
import { UsageError } from '../errors.js';

/** A flag that takes a value: given without one (`--report` at the end, `--report=`) is bad usage. */
const valued = (o: Options): Options => ({ ...o, requiresArg: true });

/** Flags that `run` and `plan` both honour. */
export const COMMON_RUN_OPTIONS = {
  // No yargs default: a --repo given beside a campaign's list is a usage mistake, which needs telling apart.
  repo: valued({ type: 'string', describe: 'The repository to work on: any folder inside it, also inside a linked worktree (default: the current folder)', group: 'Run:' }),
  base: valued({ type: 'string', describe: "The commit every job starts from (overrides the recipe's base; default: recipe base, else HEAD)", group: 'Run:' }),
  job: valued({ type: 'string', array: true, describe: 'Run only the jobs whose name matches NAME (globs allowed; repeat for several)', group: 'Run:' }),
  concurrency: valued({ type: 'number', describe: 'Jobs run at once; edits inside a job are always serial (default: number of CPUs)', group: 'Run:' }),
  shard: valued({
    type: 'string',
    describe: 'Run only shard I of N (I/N, 1-based): job k belongs to shard k mod N + 1; auto/N takes I from JOB_COMPLETION_INDEX (0-based) or SCION_SHARD',
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
  repos: valued({ type: 'string', describe: 'Run in every repository FILE lists, one a line (https URL, owner/name, or a path; @REF for the base; # comments); `-` reads stdin', group: 'Campaign:' }),
  'github-org': valued({ type: 'string', describe: "Every repository of this GitHub organisation (forks and archived ones left out unless asked)", group: 'Campaign:' }),
  topic: valued({ type: 'string', describe: 'With --github-org: only the repositories with this topic', group: 'Campaign:' }),
  'include-forks': { type: 'boolean', default: false, describe: 'With --github-org: forks too', group: 'Campaign:' },
  'include-archived': { type: 'boolean', default: false, describe: 'With --github-org: archived repositories too', group: 'Campaign:' },
  'github-search': valued({ type: 'string', describe: 'The repositories a GitHub repository search finds (e.g. "org:acme language:typescript")', group: 'Campaign:' }),
  'gitlab-group': valued({ type: 'string', describe: 'Every project of this GitLab group, subgroups included', group: 'Campaign:' }),
  'cache-dir': valued({ type: 'string', describe: 'Where the repositories are cloned and kept between runs (default: $XDG_CACHE_HOME/scion/repos, else ~/.cache/scion/repos)', group: 'Campaign:' }),
} as const satisfies Record<string, Options>;

/** The flags that name a campaign's repositories: at most one, and never beside --repo. */
export const CAMPAIGN_SOURCES = ['repos', 'github-org', 'github-search', 'gitlab-group'] as const;

/** `run` only: what a dry run cannot honour. */
export const RUN_ONLY_OPTIONS = {
  'dry-run': { type: 'boolean', default: false, describe: 'Compute and print everything; write no ref, no object, no worktree (.git stays byte-identical)', group: 'Run:' },
  'keep-worktrees': { type: 'boolean', default: false, describe: "Leave each job's worktree on disk (default: removed, branch kept)", group: 'Run:' },
  'max-cost': valued({
    type: 'number',
    describe: 'Start no model conversation once the run has spent USD (conversations not started fail with kind budget)',
    group: 'Run:',
  }),
  push: {
    type: 'string',
    describe: "Push each changed job's branch to REMOTE (default origin) over HTTP(S), token from GITHUB_TOKEN or GIT_TOKEN; never overwrites commits scion did not write",
    group: 'Push and pull requests:',
    coerce: (v: unknown) => {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      return last === undefined || last === '' ? 'origin' : String(last);
    },
  },
  'push-failed': { type: 'boolean', default: false, describe: 'With --push: push the branches of failed jobs too (what they committed before failing)', group: 'Push and pull requests:' },
  pr: { type: 'boolean', default: false, describe: 'With --push: create or update one pull request per pushed branch (GITHUB_TOKEN)', group: 'Push and pull requests:' },
  'pr-base': valued({ type: 'string', describe: "With --pr: the branch pull requests merge into (default: the remote's default branch)", group: 'Push and pull requests:' }),
  draft: { type: 'boolean', default: false, describe: 'With --pr: open new pull requests as drafts', group: 'Push and pull requests:' },
  label: valued({ type: 'string', describe: 'With --pr: add this label to every pull request (repeat for several)', group: 'Push and pull requests:' }),
} as const satisfies Record<string, Options>;

/** `plan` only: the shapes its diff can take. */
export const PLAN_ONLY_OPTIONS = {
  // plan is a dry run already; `plan --dry-run` is accepted (and not listed) rather than refused.
  'dry-run': { type: 'boolean', hidden: true },
  patch: { type: 'boolean', default: false, describe: 'Print one patch that `git apply` accepts (no line numbers, no colour), all jobs in order', group: 'Output:' },
  stat: { type: 'boolean', default: false, describe: 'Print `git diff --stat`-style lines per job instead of the diffs', group: 'Output:' },
} as const satisfies Record<string, Options>;

export function runFlags<T>(y: Argv<T>) {
  return y.options(COMMON_RUN_OPTIONS).options(RUN_ONLY_OPTIONS).check(checkRunFlags);
}

export function planFlags<T>(y: Argv<T>) {
  return y.options(COMMON_RUN_OPTIONS).options(PLAN_ONLY_OPTIONS).check(checkRunFlags);
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
  writeBudget?: string;
  reopen?: boolean;
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

/** A flag mistake found by checkRunFlags: a usage sentence (exit 2), raised inside yargs' parse. */
export class FlagError extends Error {}

/**
 * Everything about the flags that can be known without the repository, checked inside yargs so a
 * mistake ends the parse before any command handler runs (usage is checked before
 * anything runs). Throws a FlagError whose message is the one sentence the user reads.
 */
export function checkRunFlags(a: Record<string, unknown>): true {
  for (const name of ['repo', 'base', 'report', 'pr-body', 'html', 'shard', 'pr-base', 'label', 'repos', 'github-org', 'topic', 'github-search', 'gitlab-group', 'cache-dir'] as const) {
    const v = a[name];
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => x === '')) throw new FlagError(`--${name} needs a value (for example --${name} ${EXAMPLE[name]}).`);
  }
  const jobs = a['job'];
  if (Array.isArray(jobs) && jobs.some((j) => String(j).trim() === '')) throw new FlagError('--job needs a job name or glob (for example --job web --job "pkg-*").');
  if (a['shard'] !== undefined && parseShard(String(a['shard'])) === null) {
    throw new FlagError(`--shard ${String(a['shard'])} is not I/N or auto/N with 1 <= I <= N (for example --shard 2/4, or --shard auto/4 in a Kubernetes indexed Job).`);
  }
  const c = a['concurrency'];
  if (c !== undefined && !(typeof c === 'number' && Number.isInteger(c) && c >= 1)) {
    const shown = typeof c === 'number' && !Number.isNaN(c) ? ` ${c}` : '';
    throw new FlagError(`--concurrency${shown} must be a whole number of at least 1 (for example --concurrency 4).`);
  }
  checkCampaignFlags(a);
  checkCostFlags(a);
  if (a['patch'] === true && a['stat'] === true) throw new FlagError('--patch and --stat print the plan in two different shapes; choose one.');
  if ((a['patch'] === true || a['stat'] === true) && a['json'] === true) {
    throw new FlagError(`--${a['patch'] === true ? 'patch' : 'stat'} and --json both print to stdout; choose one (--report FILE writes the JSON beside it).`);
  }
  // Flags that only say how another flag works.
  if (a['push'] === undefined) {
    if (a['push-failed'] === true) throw new FlagError('--push-failed only says which branches --push pushes; add --push [REMOTE].');
    if (a['pr'] === true) throw new FlagError('--pr opens pull requests for the branches --push pushed; add --push [REMOTE].');
  } else if (a['dry-run'] === true) {
    throw new FlagError('--push cannot go with plan or --dry-run: a dry run writes no branch to push; drop one of them.');
  }
  if (a['pr'] !== true) {
    if (a['draft'] === true) throw new FlagError('--draft says how --pr opens pull requests; add --push --pr, or drop --draft.');
    if (a['label'] !== undefined) throw new FlagError('--label labels the pull requests --pr opens; add --push --pr, or drop --label.');
    if (a['pr-base'] !== undefined) throw new FlagError('--pr-base says where the pull requests of --pr merge; add --push --pr, or drop --pr-base.');
  }
  return true;
}

/** --sample N is a whole number of jobs; --max-cost a positive amount of US dollars. */
function checkCostFlags(a: Record<string, unknown>): void {
  const n = a['sample'];
  if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
    throw new FlagError(`--sample${shown(n)} must be a whole number of jobs, at least 1 (for example --sample 20).`);
  }
  if (n !== undefined && a['shard'] !== undefined) {
    throw new FlagError(
      '--sample picks jobs over the whole expansion and --shard splits it for a sweep; choose one (tune on a sample first, then shard the full run).',
    );
  }
  const usd = a['max-cost'];
  if (usd !== undefined && !(typeof usd === 'number' && Number.isFinite(usd) && usd > 0)) {
    throw new FlagError(`--max-cost${shown(usd)} must be an amount of US dollars above 0 (for example --max-cost 25).`);
  }
}

/** A numeric flag's value as the message repeats it (nothing for a value yargs could not read as a number). */
const shown = (v: unknown): string => (typeof v === 'number' && !Number.isNaN(v) ? ` ${v}` : '');

/** A campaign's repositories come from one flag, never beside --repo; the narrowing flags need theirs. */
function checkCampaignFlags(a: Record<string, unknown>): void {
  const given = CAMPAIGN_SOURCES.filter((n) => a[n] !== undefined);
  if (given.length > 1) {
    throw new FlagError(`${given.map((n) => `--${n}`).join(' and ')} each name the repositories of a campaign; choose one.`);
  }
  const source = given[0];
  if (source !== undefined && a['repo'] !== undefined) {
    throw new FlagError(`--repo names one repository and --${source} the repositories of a campaign; choose one (a local path can be a line of --repos).`);
  }
  if (a['github-org'] === undefined) {
    for (const n of ['topic', 'include-forks', 'include-archived'] as const) {
      if (a[n] !== undefined && a[n] !== false) throw new FlagError(`--${n} narrows the repositories of --github-org ORG; add --github-org, or drop --${n}.`);
    }
  }
  if (source === undefined && a['cache-dir'] !== undefined) {
    throw new FlagError('--cache-dir says where a campaign keeps its clones; add --repos FILE (or --github-org, --github-search, --gitlab-group), or drop --cache-dir.');
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

/** `--shard 2/4` → { index: 2, count: 4 }, `--shard auto/4` → { index: 'auto', count: 4 }; null when malformed. */
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
 * Throws UsageError when neither is set or the index is outside 1..N.
 */
export function resolveShard(spec: string, env: Readonly<Record<string, string | undefined>>): { index: number; count: number } {
  const parsed = parseShard(spec);
  if (parsed === null) throw new UsageError(`--shard ${spec} is not I/N or auto/N with 1 <= I <= N (for example --shard 2/4 or --shard auto/4).`);
  if (parsed.index !== 'auto') return { index: parsed.index, count: parsed.count };
  const n = parsed.count;
  const k8s = env['JOB_COMPLETION_INDEX'];
  const own = env['SCION_SHARD'];
  const [variable, text, offset] = k8s !== undefined && k8s !== '' ? ['JOB_COMPLETION_INDEX', k8s, 1] as const : own !== undefined && own !== '' ? ['SCION_SHARD', own, 0] as const : [null, '', 0] as const;
  if (variable === null) {
    throw new UsageError(`--shard auto/${n} takes the shard from JOB_COMPLETION_INDEX (a Kubernetes indexed Job, 0-based) or SCION_SHARD (1 to ${n}); neither is set, so set one or give --shard I/${n}.`);
  }
  const index = /^\d+$/.test(text.trim()) ? Number(text.trim()) + offset : NaN;
  if (!(index >= 1 && index <= n)) {
    const range = variable === 'JOB_COMPLETION_INDEX' ? `0 to ${n - 1}` : `1 to ${n}`;
    throw new UsageError(`${variable} is ${JSON.stringify(text)}, not a shard of --shard auto/${n} (${range}); run ${n} shards, or fix ${variable}.`);
  }
  return { index, count: n };
}
