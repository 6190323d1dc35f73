// The flags of every command but `run` and `plan`, as data (their rules are in rules.ts).
import type { Options } from 'yargs';
import { PR_LIFECYCLE_OPTIONS, valued } from './run-options.js';

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
