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
}

/** `--shard 2/4` → { index: 2, count: 4 }; null when malformed. */
export function parseShard(s: string): { index: number; count: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}
