// The contract between the runner and the agent step. The runner owns the workspace and
// the job's rules; the agent sees files only through `AgentFiles`, so every edit the model makes
// passes the same gate and the same engine as a recipe's edits.
import type { EngineOptions } from '../core/types.js';
import type { Failure, Result } from '../errors.js';
import type { EstimateReport, RefusalReport, Usage } from '../model/types.js';
import type { Redactor } from '../redact.js';
import type { CostBudget } from './budget.js';
import type { GuardSettings } from './guards/index.js';

export interface AgentStepConfig {
  readonly prompt: string;
  readonly files?: { readonly include?: readonly string[]; readonly exclude?: readonly string[] };
  readonly per: 'file' | 'job';
  readonly model?: string;
  readonly maxTurns: number;
  readonly maxTokens: number;
  /** Conversations at once with per: file. */
  readonly concurrency: number;
  /** Send each round of per-file conversations as one Message Batch. */
  readonly batch: boolean;
  /** Overall time limit for the step. */
  readonly timeoutMs?: number;
}

export interface AgentFiles {
  /** The paths this step may show and change: the job's selection, narrowed by the step, minus deny. */
  paths(): readonly string[];
  /** Normalises a path the model gave (relative, or absolute inside `root`) and checks it may be touched. */
  guard(path: string): Result<string>;
  read(path: string): Promise<Uint8Array | null>;
  /** Writes are applied serially, in the order they are called. */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /** deny, JSON schema and path suggestions for the engine (the agent adds `read`). */
  engineOptions(path: string): EngineOptions;
  /** The git blob id of a file's current bytes (keys the response cache). */
  blobId(bytes: Uint8Array): string;
  /** Absolute folder the model may name paths under, when files are on disk. */
  readonly root: string | null;
  /** The recipe's guards on the model's edits; absent: every guard on, with the usual test and config files. */
  readonly guards?: GuardSettings;
}

export interface AgentEnv {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where cached conversation results live (inside the repository's git dir). */
  readonly cacheDir: string;
  /** Read the cache but never write it (dry run keeps .git byte-identical). */
  readonly cacheReadOnly: boolean;
  readonly noCache: boolean;
  readonly log: (message: string) => void;
  /** The run's redaction pass; default: one built from `env`. */
  readonly redact?: Redactor;
  /**
   * The run's abort (SIGINT/SIGTERM) or the step's own deadline (the runner's step signal): when it
   * fires, the request in flight is cancelled, no tool call or request follows, and the step ends
   * with kind `interrupted` (or the kind the abort reason carries, e.g. `timeout`).
   */
  readonly signal?: AbortSignal;
  /** Tuning for tests and unusual networks; production leaves it out. */
  readonly client?: AgentClientOptions;
  /** The run's --max-cost, shared by every conversation of the run: none starts once it is spent. */
  readonly budget?: CostBudget;
  /**
   * Estimate instead of asking (`scion plan`): no request is sent and no API key is needed; cached
   * answers are still replayed, and each conversation that would start is estimated instead.
   */
  readonly estimate?: boolean;
}

export interface AgentClientOptions {
  /** SDK retries of 429/529/5xx and connection errors. Default: the SDK's 2. */
  readonly maxRetries?: number;
  /** SDK timeout of one request in milliseconds. Default: the SDK's. */
  readonly requestTimeoutMs?: number;
  /** First wait between polls of a Message Batch. Default 5 s; doubles up to `batchPollMaxMs`. */
  readonly batchPollMs?: number;
  /** Longest wait between polls. Default 60 s. */
  readonly batchPollMaxMs?: number;
  /** How long one batch may take before its conversations fail. Default 24 h (the API's own limit). */
  readonly batchDeadlineMs?: number;
}

export interface AgentOutcome {
  readonly errors: readonly { readonly file: string | null; readonly failure: Failure }[];
  readonly usage: Usage;
  /** Every edit a guard refused, in the order they were tried. */
  readonly refusals: readonly GuardRefusal[];
  /** What the conversations that were not started would cost (`estimate` mode); null when none was estimated. */
  readonly estimate: Estimate | null;
}

/** An edit a guard refused: the model was told why, and the report lists it (with its step). */
export type GuardRefusal = Omit<RefusalReport, 'step'>;

/** The estimate of one agent step or fix round (see estimate.ts); the report adds its step. */
export type Estimate = Omit<EstimateReport, 'step'>;
