// The run report. Renderers (json, markdown, html, terminal) read only these types.
import type { ErrorKind } from '../errors.js';
import type { Hunk } from '../core/types.js';
import type { Diagnostic } from './diagnostic.js';

export type JobStatus = 'changed' | 'unchanged' | 'empty' | 'failed';

export interface CommitReport {
  /** null in a dry run. */
  readonly sha: string | null;
  readonly group: string;
  readonly message: string;
  readonly files: readonly string[];
}

export interface FileReport {
  readonly path: string;
  readonly group: string;
  readonly added: number;
  readonly removed: number;
  /** Unified-diff hunks (3 lines of context) of the file's whole change in this job. */
  readonly hunks?: readonly Hunk[];
  /** True when the file did not exist at the base. */
  readonly created?: boolean;
  /** True when the job removed the file. */
  readonly deleted?: boolean;
  /**
   * Structural steps (astgrep, jscodeshift's none): matches the job's kept steps rewrote in this file,
   * plus those a rule without a fix found in it. Absent when no structural step matched it.
   */
  readonly matches?: number;
  /** The file's git mode after the job, when it is not 100644 (an executable, a symlink). */
  readonly mode?: string;
  /** The file's mode at the base, when the job changed it. */
  readonly oldMode?: string;
  /** The file's encoding when it is not plain UTF-8: hunks are decoded text (git sees UTF-16 as binary). */
  readonly encoding?: 'utf8-bom' | 'utf16le';
}

export interface ErrorReport {
  /** 0-based index in `steps`; verify commands count on after the last step. */
  readonly step: number;
  readonly file: string | null;
  readonly kind: ErrorKind;
  readonly code?: number;
  readonly message: string;
  /** The fix for this error when the kind's general hint does not fit it (else absent). */
  readonly hint?: string;
}

export type SkipReason = 'already-applied' | 'outside-selection' | 'binary' | 'lfs-pointer' | 'submodule' | 'symlink' | 'syntax-error';

export interface SkipReport {
  readonly step: number;
  readonly file: string;
  /**
   * already-applied: the change is in the file already. binary: a binary file (NUL bytes), passed by:
   * without the match by `replace`, whatever it holds by the structural steps.
   * lfs-pointer, submodule, symlink: paths scion never edits, left alone by a step over many files.
   * outside-selection: a `run` command changed a file outside the job's `files` selection, and the
   * change was put back (not committed). syntax-error: a structural step left a file that did not
   * parse before it (its rewrite could not be checked).
   */
  readonly reason: SkipReason;
}

/** What one step did in a job (verify commands are not listed). */
export interface StepReport {
  /** 0-based index in `steps`. */
  readonly step: number;
  /** The step's kind: edit, replace, write, notebook, run, agent, astgrep, jscodeshift or transform. */
  readonly kind: string;
  /** Files whose content or mode the step changed. */
  readonly changed: number;
  /** Files the step found already applied (see `skipped`). */
  readonly alreadyApplied: number;
  /** Structural steps: matches rewritten (or found, by a rule without a fix) over all files. */
  readonly matches?: number;
  /** Set for a structural step that only counts (no fix): the files in which it found matches (what its `expect` counts). */
  readonly found?: number;
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  readonly costUsd: number;
  /** Files whose agent conversation came from the response cache. */
  readonly cachedFiles?: readonly string[];
}

/** Where `run --push` left the job's branch on the remote (the remote held this change afterwards). */
export interface PushReport {
  /** The remote's name, e.g. `origin`. */
  readonly remote: string;
  /** The remote ref: `refs/heads/<branch>`. */
  readonly ref: string;
  /** The commit the remote branch holds. Differs from `head` when the remote already held an equal change. */
  readonly sha: string;
  /** What the remote branch held before: null when it did not exist. */
  readonly previous: string | null;
  /** False when nothing was sent: the remote already held this change. */
  readonly sent: boolean;
}

/**
 * What `run --pr` / `scion pr` did with the pull request of the job's branch: `created`,
 * `updated`, `closed` (the job ended empty), `declined` (a person closed it unmerged and the result
 * is the same: left closed). The one record publishing returns and the report keeps.
 */
export interface PullRequestReport {
  readonly number: number;
  readonly url: string;
  readonly action: PullRequestAction;
}

export type PullRequestAction = 'created' | 'updated' | 'closed' | 'declined';

/** A rule of CODEOWNERS that gave files of a piece their owners. */
export interface OwnerRuleReport {
  /** 1-based line in the CODEOWNERS file. */
  readonly line: number;
  readonly pattern: string;
  /** GitLab's section of the rule; null outside sections and on GitHub. */
  readonly section: string | null;
  /** How many of the piece's files this rule decided. */
  readonly files: number;
}

/** How a piece of a job split by owner (`split: { by: owners }`) came to be. */
export interface SplitReport {
  /** The recipe's job the piece was cut from. */
  readonly job: string;
  /** The piece's name: the owners' slug, with a hash part when needed (`team-web`, `unowned`). */
  readonly piece: string;
  /** Whose reading of CODEOWNERS decided: github or gitlab. */
  readonly codeowners: 'github' | 'gitlab';
  /** The CODEOWNERS file of the base commit that decided; null when it has none (every file is `unowned`). */
  readonly file: string | null;
  /** For a piece cut by `maxFiles`: the deepest folder holding its files ('' for the root); else null. */
  readonly directory: string | null;
  /** The rules that decided its files' owners, in file order; empty for files no rule owns. */
  readonly rules: readonly OwnerRuleReport[];
}

export interface JobReport {
  readonly recipe: string;
  readonly name: string;
  readonly description?: string;
  readonly base: string;
  readonly branch: string;
  readonly status: JobStatus;
  readonly head: string | null;
  readonly worktree: string | null;
  readonly commits: readonly CommitReport[];
  readonly files: readonly FileReport[];
  readonly errors: readonly ErrorReport[];
  readonly skipped: readonly SkipReport[];
  /** Per step that ran: how many files it changed, so a summary can name the steps that changed nothing. */
  readonly steps?: readonly StepReport[];
  readonly usage: Usage;
  readonly durationMs: number;
  /** Set by `run --push`. */
  readonly pushed?: PushReport;
  /** Set by `run --pr`. */
  readonly pullRequest?: PullRequestReport;
  /** `<host>/<owner>/<name>` in a run over many repositories. */
  readonly repo?: string;
  /** The URL that repository was cloned from (no credentials): where `scion pr` finds it again. */
  readonly repoUrl?: string;
  /** What the failing `verify` command reported. */
  readonly diagnostics?: readonly Diagnostic[];
  /**
   * Set when the recipe's verify commands were not run: `no-change`, the job changed nothing, so there
   * was nothing to verify (and no files were put on disk for it). Not set where a command has a `fix`.
   */
  readonly verifySkipped?: 'no-change';
  /**
   * Include globs of the recipe's or the job's `files` that matched no file, at the base or among the
   * files the job wrote: a typo there would otherwise leave the job silently empty. Absent when none.
   */
  readonly unmatched?: readonly string[];
  /** A piece of a job split by owner: the owners its pull request asks for review (as CODEOWNERS writes them). */
  readonly owners?: readonly string[];
  /** A piece of a job split by owner: which job, which CODEOWNERS rules. */
  readonly split?: SplitReport;
  /** Every edit of the model a guard refused (agent steps and fix rounds), in order. */
  readonly refusals?: readonly RefusalReport[];
  /** `scion plan`: what the model conversations this job would start are estimated to cost (no request was sent). */
  readonly estimates?: readonly EstimateReport[];
}

/** An edit of the model that a guard refused; the model was told why. */
export interface RefusalReport {
  /** 0-based, as for errors (a verify fix round counts after the steps). */
  readonly step: number;
  readonly file: string;
  /** testFiles, testCount, skips, suppressions or config. */
  readonly guard: string;
  /** The tool the model called (edit_file, write_file, notebook_edit), or `replay` for a cached answer. */
  readonly tool: string;
  readonly message: string;
}

/** The estimate of one agent step (or a verify command's fix rounds) in a plan. */
export interface EstimateReport {
  readonly step: number;
  readonly model: string;
  /** file: a conversation per file; job: one for the job; fix: the fix rounds of a verify command. */
  readonly per: 'file' | 'job' | 'fix';
  /** Conversations that would start (those whose answer is cached are replayed, not counted). */
  readonly conversations: number;
  /** The files the model would be shown or could read, with their estimated tokens (UTF-8 bytes / 4). */
  readonly files: readonly { readonly path: string; readonly tokens: number }[];
  /** Tokens of one pass over every conversation's context: system prompt, tools, first message. */
  readonly inputTokens: number;
  /** The least it can cost: each context sent once, nothing answered. Null when the model's price is not known. */
  readonly minUsd: number | null;
  /** The most: maxTurns round trips per conversation (maxRounds for fixes), each answering maxTokens. */
  readonly maxUsd: number | null;
}

/** `run --max-cost`: what the run spent, and the conversations it did not start. */
export interface BudgetReport {
  readonly maxCostUsd: number;
  readonly spentUsd: number;
  /** Model conversations not started because the budget was spent (each is an error of kind `budget`). */
  readonly notStarted: number;
}

/** `run --sample N`: which part of the expansion ran, and its failures clustered. */
export interface SampleReport {
  /** Jobs the sample ran. */
  readonly jobs: number;
  /** Jobs the full run would run; null in a campaign (repositories are not cloned to count them). */
  readonly of: number | null;
  /** Failures grouped by kind and first diagnostic (or message), largest first. */
  readonly clusters: readonly FailureCluster[];
}

export interface FailureCluster {
  readonly kind: ErrorKind;
  /** The first diagnostic (`code: message`) or the error's message, with paths and ids made generic. */
  readonly cause: string;
  /** Jobs with this failure. */
  readonly count: number;
  /** Those jobs (recipe/job, prefixed with the repository in a campaign). */
  readonly jobs: readonly string[];
}

export interface RunReport {
  readonly version: 1;
  /** The repository the run worked on; null for a campaign across many (each job names its own). */
  readonly repo: string | null;
  readonly dryRun: boolean;
  readonly jobs: readonly JobReport[];
  /** Set by `run --max-cost`. */
  readonly budget?: BudgetReport;
  /** Set by `run --sample`. */
  readonly sample?: SampleReport;
}
