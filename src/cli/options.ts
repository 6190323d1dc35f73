// The flags of `run` and `plan` (SPEC §1), described once for --help.
import type { Argv } from 'yargs';

export function runFlags<T>(y: Argv<T>) {
  return y
    .option('repo', { type: 'string', default: '.', describe: 'The repository to work on: any folder inside it, also inside a linked worktree' })
    .option('base', { type: 'string', describe: "The commit every job starts from (overrides the recipe's base; default: recipe base, else HEAD)" })
    .option('dry-run', { type: 'boolean', default: false, describe: 'Compute and print everything; write no ref, no object, no worktree (.git stays byte-identical)' })
    .option('concurrency', { type: 'number', describe: 'Jobs run at once; edits inside a job are always serial (default: number of CPUs)' })
    .option('shard', { type: 'string', describe: 'Run only shard I of N (I/N, 1-based): job k belongs to shard k mod N + 1' })
    .option('report', { type: 'string', describe: 'Write the JSON report to FILE' })
    .option('pr-body', { type: 'string', describe: 'Write a Markdown pull-request description to FILE' })
    .option('html', { type: 'string', describe: 'Write a self-contained HTML report with rendered diffs to FILE' })
    .option('keep-worktrees', { type: 'boolean', default: false, describe: "Leave each job's worktree on disk (default: removed, branch kept)" })
    .option('force', { type: 'boolean', default: false, describe: 'Overwrite a branch that holds commits scion did not write' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the JSON report to stdout instead of the human summary' })
    .option('cache', { type: 'boolean', default: true, describe: 'Reuse cached agent answers for unchanged files (--no-cache to bypass)' })
    .group(['repo', 'base', 'dry-run', 'concurrency', 'shard', 'force', 'keep-worktrees'], 'Run:')
    .group(['report', 'pr-body', 'html', 'json'], 'Output:');
}

/** `run` only: push the branches and open pull requests after the run. */
export function pushFlags<T>(y: Argv<T>) {
  return y
    .option('push', {
      type: 'string',
      describe: "Push each changed job's branch to REMOTE (default origin) over HTTP(S), token from GITHUB_TOKEN or GIT_TOKEN; never overwrites commits scion did not write",
      coerce: (v: unknown) => {
        const last = Array.isArray(v) ? v[v.length - 1] : v;
        return last === undefined || last === '' ? 'origin' : String(last);
      },
    })
    .option('push-failed', { type: 'boolean', default: false, describe: 'With --push: push the branches of failed jobs too (what they committed before failing)' })
    .option('pr', { type: 'boolean', default: false, describe: 'With --push: create or update one pull request per pushed branch (GITHUB_TOKEN)' })
    .option('pr-base', { type: 'string', describe: "With --pr: the branch pull requests merge into (default: the remote's default branch)" })
    .option('draft', { type: 'boolean', default: false, describe: 'With --pr: open new pull requests as drafts' })
    .option('label', { type: 'string', describe: 'With --pr: add this label to every pull request (repeat for several)' })
    .group(['push', 'push-failed', 'pr', 'pr-base', 'draft', 'label'], 'Push and pull requests:');
}

export interface RunFlags {
  repo: string;
  base?: string;
  dryRun: boolean;
  concurrency?: number;
  shard?: string;
  report?: string;
  prBody?: string;
  html?: string;
  keepWorktrees: boolean;
  force: boolean;
  json: boolean;
  cache: boolean;
  /** `run` only (pushFlags). */
  push?: string;
  pushFailed?: boolean;
  pr?: boolean;
  prBase?: string;
  draft?: boolean;
  label?: string | string[];
}

/** `--shard 2/4` → { index: 2, count: 4 }; null when malformed. */
export function parseShard(s: string): { index: number; count: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}
