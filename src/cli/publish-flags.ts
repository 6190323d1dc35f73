// The flags of the publishing commands, apart from the commands themselves so `--help` and usage
// checks load no host client (the commands are imported only when they run).
import type { Argv } from 'yargs';

/** The flags `scion pr` and `run --pr` share beyond --draft/--label (defined here, registered by both). */
export function prLifecycleFlags<T>(y: Argv<T>) {
  return y
    .option('pr-interval', { type: 'number', default: 1000, describe: 'Milliseconds between two pull requests, to stay under the host\'s secondary rate limits' })
    .option('reopen', { type: 'boolean', default: false, describe: 'Open a pull request again where a person closed one holding the same change' });
}

export function statusFlags<T>(y: Argv<T>) {
  return y
    .option('report', { type: 'string', describe: 'The JSON report of a run: one row per job in it' })
    .option('repo', { type: 'string', default: '.', describe: 'The repository' })
    .option('remote', { type: 'string', describe: 'The remote whose host holds the pull requests (default: the one the report names, else origin)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the rows as a JSON array' })
    .option('cache-dir', { type: 'string', requiresArg: true, describe: CACHE_DIR });
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
