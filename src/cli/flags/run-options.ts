// The flags of `run` and `plan` as data: yargs reads them for parsing and --help, the usage checks read
// the same names for "did you mean". Their rules are in rules.ts.
import type { Options } from 'yargs';

/** A flag that takes a value: given without one (`--report` at the end, `--report=`) is bad usage. */
export const valued = (o: Options): Options => ({ ...o, requiresArg: true });

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
      "Push each changed job's branch to REMOTE (default origin) over HTTP(S), token from GITHUB_TOKEN or GIT_TOKEN; never overwrites commits scion " +
      'did not write',
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

/** The flags of `run` and `plan` as yargs gives them to the command (camel-cased). */
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
