// One short "what to try next" per error kind, shown beside each failure in the PR body, the HTML
// report and the step summary. A Record over ErrorKind makes the compiler insist on every kind.
import type { ErrorKind } from '../errors.js';

export const FIX_HINTS: Readonly<Record<ErrorKind, string>> = {
  secret: 'The new content looks like it holds a credential: take the secret out of the recipe (use a placeholder or an environment variable).',
  'no-op': 'old_string and new_string are identical: fix the step or remove it.',
  denied: "The path matches the recipe's `deny` list: narrow the step's `files`, or change `deny` if the change is intended.",
  'unc-path': 'UNC/network paths are refused: use a path relative to the repository root.',
  outside: 'The path leaves the repository (`..`, absolute, or through a symlink): use a path inside the repository.',
  'too-large': 'The file is over the size limit: exclude it from `files` or change it by hand.',
  binary: 'The file is binary: exclude it from `files`.',
  encoding: 'The file is not valid text in its detected encoding and was left alone: fix or re-encode it, or exclude it from `files`.',
  'file-missing': 'The file does not exist at the base: check the path (see the suggestions in the message), or create it with `write`.',
  'file-exists': 'An empty old_string creates a file, but this file has content: give a non-empty old_string, or use `write`.',
  notebook: 'This is a Jupyter notebook: use a `notebook` step instead of `edit`/`replace`.',
  'not-read': 'The agent edited a file it had not read first: rerun; if it repeats, raise `maxTurns` or make the prompt more specific.',
  stale: 'The file changed after it was read: rerun the job.',
  'not-found': 'old_string is not in the file: check the recipe against the base (whitespace, quotes, or a change an earlier step made).',
  'not-unique': 'old_string matches more than once: add surrounding context to make it unique, or set `replace_all: true`.',
  cascade: 'old_string is part of a new_string an earlier edit of the same step inserted: reorder the edits or split them into separate steps.',
  'invalid-result': 'The result would no longer parse (JSON/notebook) or would fail the schema the recipe names: fix the edit so the file stays valid.',
  unsupported: 'Symlinks, submodules and Git LFS pointers cannot be edited: exclude the path from `files`.',
  'command-failed': "The command exited non-zero: rerun with `--keep-worktrees` and run it in the job's worktree to see why, then fix the code or the command.",
  agent: 'The model gave up or ran out of turns: raise `maxTurns`, make the prompt more specific, or narrow `files`.',
  'branch-diverged':
    'Someone else committed on the branch: merge or close its pull request, or (when the branch is a scion branch someone added to) rerun with ' +
    '`--force` to overwrite it.',
  expectation:
    "The step changed fewer or more files than its `expect` allows: the code drifted from the recipe; check the step's old_string and files against the base.",
  timeout: "The step ran past its `timeout`: raise the step's `timeout`, simplify the regular expression, or narrow `files`.",
  interrupted: 'The run was interrupted before this job finished: run the same command again; finished jobs are kept.',
  locked: 'Another scion run is working on this job right now: wait for it to finish (the message names its pid), then run again.',
  environment:
    'The machine refused the operation (disk full, permission, read-only file system, ownership, missing object): fix what the message names, then run again.',
  'push-failed': 'The push was refused: check the remote URL, that the token may push to it, and that it is sent over HTTPS.',
  'pr-failed': "The pull request could not be created or updated: check the token's permissions and the message from the host.",
  'clone-failed': 'The repository could not be cloned or fetched: check its URL, that it exists, and the token for it.',
  transform: 'The jscodeshift transform threw on this file: fix the transform (the message names the file and its error), or exclude the file from `files`.',
  guard:
    "The model kept trying edits that would make the checks pass without fixing the code (see the job's `refusals`): make the prompt more specific, " +
    'or relax that one guard in the recipe (`guards: { suppressions: false }`) if the migration really needs it.',
  budget:
    'The run reached its --max-cost before this conversation started: raise --max-cost, or run again (answers already paid for are replayed from the cache).',
};

export function fixHint(kind: ErrorKind): string {
  return FIX_HINTS[kind];
}

/** The hint for one reported error: its own (set where the kind's general advice would be wrong), else the kind's. */
export function fixHintFor(e: { readonly kind: ErrorKind; readonly hint?: string | undefined }): string {
  return e.hint ?? FIX_HINTS[e.kind];
}
