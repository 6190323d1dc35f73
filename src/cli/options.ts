// The flags of `run` and `plan` (SPEC §1), described once as data: yargs reads them for parsing and
// --help, and the usage checks read the same names for "did you mean".
import type { Argv, Options } from 'yargs';

/** A flag that takes a value: given without one (`--report` at the end, `--report=`) is bad usage. */
const valued = (o: Options): Options => ({ ...o, requiresArg: true });

/** Flags that `run` and `plan` both honour. */
export const COMMON_RUN_OPTIONS = {
  repo: valued({ type: 'string', default: '.', describe: 'The repository to work on: any folder inside it, also inside a linked worktree', group: 'Run:' }),
  base: valued({ type: 'string', describe: "The commit every job starts from (overrides the recipe's base; default: recipe base, else HEAD)", group: 'Run:' }),
  job: valued({ type: 'string', array: true, describe: 'Run only the jobs whose name matches NAME (globs allowed; repeat for several)', group: 'Run:' }),
  concurrency: valued({ type: 'number', describe: 'Jobs run at once; edits inside a job are always serial (default: number of CPUs)', group: 'Run:' }),
  shard: valued({ type: 'string', describe: 'Run only shard I of N (I/N, 1-based): job k belongs to shard k mod N + 1', group: 'Run:' }),
  force: { type: 'boolean', default: false, describe: 'Overwrite a scion branch that someone added commits to', group: 'Run:' },
  cache: { type: 'boolean', default: true, describe: 'Reuse cached agent answers and step results for unchanged files (--no-cache to bypass)', group: 'Run:' },
  report: valued({ type: 'string', describe: 'Write the JSON report to FILE', group: 'Output:' }),
  'pr-body': valued({ type: 'string', describe: 'Write a Markdown pull-request description to FILE', group: 'Output:' }),
  html: valued({ type: 'string', describe: 'Write a self-contained HTML report with rendered diffs to FILE', group: 'Output:' }),
  json: { type: 'boolean', default: false, describe: 'Print the JSON report to stdout instead of the human summary', group: 'Output:' },
} as const satisfies Record<string, Options>;

/** `run` only: what a dry run cannot honour. */
export const RUN_ONLY_OPTIONS = {
  'dry-run': { type: 'boolean', default: false, describe: 'Compute and print everything; write no ref, no object, no worktree (.git stays byte-identical)', group: 'Run:' },
  'keep-worktrees': { type: 'boolean', default: false, describe: "Leave each job's worktree on disk (default: removed, branch kept)", group: 'Run:' },
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
  repo: string;
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
 * mistake ends the parse before any command handler runs (SPEC §1: usage is checked before
 * anything runs). Throws a FlagError whose message is the one sentence the user reads.
 */
export function checkRunFlags(a: Record<string, unknown>): true {
  for (const name of ['repo', 'base', 'report', 'pr-body', 'html', 'shard', 'pr-base', 'label'] as const) {
    const v = a[name];
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => x === '')) throw new FlagError(`--${name} needs a value (for example --${name} ${EXAMPLE[name]}).`);
  }
  const jobs = a['job'];
  if (Array.isArray(jobs) && jobs.some((j) => String(j).trim() === '')) throw new FlagError('--job needs a job name or glob (for example --job web --job "pkg-*").');
  if (a['shard'] !== undefined && parseShard(String(a['shard'])) === null) {
    throw new FlagError(`--shard ${String(a['shard'])} is not I/N with 1 <= I <= N (for example --shard 2/4).`);
  }
  const c = a['concurrency'];
  if (c !== undefined && !(typeof c === 'number' && Number.isInteger(c) && c >= 1)) {
    const shown = typeof c === 'number' && !Number.isNaN(c) ? ` ${c}` : '';
    throw new FlagError(`--concurrency${shown} must be a whole number of at least 1 (for example --concurrency 4).`);
  }
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

const EXAMPLE: Readonly<Record<string, string>> = {
  repo: '../app',
  base: 'main',
  report: 'scion-report.json',
  'pr-body': 'pr.md',
  html: 'report.html',
  shard: '2/4',
  'pr-base': 'main',
  label: 'codemod',
};

/** `--shard 2/4` → { index: 2, count: 4 }; null when malformed. */
export function parseShard(s: string): { index: number; count: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}
