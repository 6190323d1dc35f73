// The flags of the publishing commands, apart from the commands themselves so `--help` and usage
// checks load no host client (the commands are imported only when they run).
import type { Argv } from 'yargs';

/** The flags `scion pr` and `run --pr` share beyond --draft/--label (defined here, registered by both). */
export function prLifecycleFlags<T>(y: Argv<T>) {
  return y
    .option('pr-interval', { type: 'number', default: 1000, describe: 'Milliseconds between two pull requests, to stay under the host\'s secondary rate limits' })
    .option('reopen', { type: 'boolean', default: false, describe: 'Open a pull request again where a person closed one holding the same change' })
    .option('write-budget', WRITE_BUDGET);
}

/** The flag of every command that writes to a host. */
export const WRITE_BUDGET = {
  type: 'string',
  requiresArg: true,
  describe: 'Writes (pull requests, comments, labels, reviewers, issue edits) allowed per host and token: PER_MINUTE/PER_HOUR (default 80/500)',
} as const;

export function statusFlags<T>(y: Argv<T>) {
  return y
    .option('report', { type: 'string', describe: 'The JSON report of a run: one row per job in it' })
    .option('repo', { type: 'string', default: '.', describe: 'The repository' })
    .option('remote', { type: 'string', describe: 'The remote whose host holds the pull requests (default: the one the report names, else origin)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the rows as a JSON array' })
    .option('cache-dir', { type: 'string', requiresArg: true, describe: CACHE_DIR });
}

export function trackFlags<T>(y: Argv<T>) {
  return y
    .option('report', { type: 'string', demandOption: true, requiresArg: true, describe: 'The JSON report of the run (or of merge-reports) whose pull requests to follow' })
    .option('history', { type: 'string', requiresArg: true, describe: "Append this run's snapshot to FILE (JSON Lines); the burndown is drawn from it" })
    .option('html', { type: 'string', requiresArg: true, describe: 'Write a page with the burndown and one row per job to FILE' })
    .option('csv', { type: 'string', requiresArg: true, describe: 'Write one row per job to FILE as CSV' })
    .option('issue', { type: 'string', requiresArg: true, describe: 'Keep one tracking issue up to date in OWNER/REPO (OWNER/REPO#N: that issue)' })
    .option('stale', { type: 'number', default: 14, describe: 'An open pull request with no activity for this many days is stale' })
    .option('repo', { type: 'string', requiresArg: true, describe: 'The repository of a one-repository report (default: the path the report names)' })
    .option('remote', { type: 'string', requiresArg: true, describe: 'The remote whose host holds the pull requests (default: the one the report names, else origin)' })
    .option('cache-dir', { type: 'string', requiresArg: true, describe: CACHE_DIR })
    .option('json', { type: 'boolean', default: false, describe: 'Print the snapshot and the rows as JSON' })
    .option('write-budget', WRITE_BUDGET);
}

export function branchesFlags<T>(y: Argv<T>) {
  return y
    .option('prune', { type: 'boolean', default: false, describe: 'Delete scion branches whose pull request is merged or closed, or that hold no commit' })
    .option('remote', { type: 'string', describe: 'Prune the branches on this remote too (and ask its host about pull requests)' })
    .option('repo', { type: 'string', default: '.', describe: 'The repository' })
    .option('report', { type: 'string', requiresArg: true, describe: "A campaign's JSON report: prune in each of its repositories" })
    .option('cache-dir', { type: 'string', requiresArg: true, describe: CACHE_DIR });
}

const CACHE_DIR = "A campaign report's clones: the --cache-dir of its run (default: $XDG_CACHE_HOME/scion/repos, else ~/.cache/scion/repos)";
