// What the runner takes and what it tells the outside while it works.
import type { JobReport } from '../model/types.js';
import type { Redactor } from '../redact.js';
import type { CostBudget } from '../agent/budget.js';
import type { RepoReadOptions } from '../git/index.js';

export interface RunOptions {
  /** Any folder inside the repository (a linked worktree too). */
  readonly repo: string;
  /** Overrides every recipe's `base`. */
  readonly base?: string;
  readonly dryRun?: boolean;
  readonly concurrency?: number;
  /** 1-based shard of `count`: job k (0-based, after expansion) runs in shard k mod count + 1. */
  readonly shard?: { readonly index: number; readonly count: number };
  readonly keepWorktrees?: boolean;
  readonly force?: boolean;
  /** Bypass the agent response cache (and the step cache). */
  readonly noCache?: boolean;
  /** Run only the jobs whose name matches one of these globs (`--job`). */
  readonly jobs?: readonly string[];
  /** `--max-cost`: no model conversation starts once the run has spent this many US dollars. */
  readonly maxCostUsd?: number;
  /** `--sample N`: run only N jobs spread evenly over the expansion (after --shard and --job). */
  readonly sample?: number;
  /** `scion plan`: estimate the model conversations instead of starting them (no request is sent). */
  readonly estimateAgent?: boolean;
  /**
   * Aborts the run (SIGINT/SIGTERM at the CLI): no job starts after it fires; running jobs end their
   * child processes, write no ref and report kind `interrupted`.
   */
  readonly signal?: AbortSignal;
}

export interface PlannedJob {
  readonly id: string;
  readonly recipe: string;
  readonly name: string;
  readonly branch: string;
  readonly steps: readonly string[];
  /** The repository, in a campaign over many: `<host>/<owner>/<name>` or a local path. */
  readonly repo?: string;
}

/**
 * How many jobs the whole run holds, when something above one repository knows it (a campaign, before
 * its first clone): `counting` while some repository's jobs are still estimated (its `each` entries are
 * known only from its tree, a `--job` glob only once matched), after which `jobs` is exact.
 */
export interface RunTotal {
  readonly jobs: number;
  readonly counting: boolean;
  /** The repositories the run covers. */
  readonly repositories: number;
}

export type RunEvent =
  /** `total`, when given, replaces the count the displays would otherwise add up from these events. */
  | { readonly type: 'jobs'; readonly jobs: readonly PlannedJob[]; readonly total?: RunTotal }
  | { readonly type: 'job-start'; readonly job: string }
  | { readonly type: 'step-start'; readonly job: string; readonly step: number; readonly label: string }
  | { readonly type: 'step-end'; readonly job: string; readonly step: number; readonly files: number; readonly errors: number }
  /** `pieces`: a job split by owner ended as these jobs (`report` sums them up for a progress line). */
  | { readonly type: 'job-end'; readonly job: string; readonly report: JobReport; readonly pieces?: readonly JobReport[] }
  | { readonly type: 'log'; readonly job: string; readonly message: string };

/** Everything impure the runner needs, passed in (no process globals below the CLI). */
export interface RunContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly onEvent?: (e: RunEvent) => void;
  readonly now?: () => Date;
  /** Masks secrets in command output before it enters a report. Default: built from `env`. */
  readonly redact?: Redactor;
  /** The run's --max-cost meter, shared by every job (and every repository of a campaign). */
  readonly budget?: CostBudget;
  /** How the repository's packs are read and its blobs scanned (the benchmark and tests; default: the git layer's). */
  readonly git?: RepoReadOptions;
}
