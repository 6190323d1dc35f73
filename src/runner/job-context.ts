// What the phases of one job share: its recipe and workspace, the step context each step or verify
// command gets, the usage meter, progress events, and running a body under its limit.
import { failure, type Failure } from '../errors.js';
import { readBlob, type Repo, type TreeEntry } from '../git/index.js';
import { matcher, type JobSpec, type Recipe } from '../recipe/index.js';
import type { Usage } from '../model/types.js';
import { sumUsage, ZERO_USAGE } from '../model/usage.js';
import type { FileState, Workspace } from '../workspace/types.js';
import type { StructuralPool } from '../structural/index.js';
import type { StepContext } from './step-context.js';
import { StepCache, stepCacheDir } from './step-cache.js';
import { fencedWorkspace, runBounded, type Bounds } from './step-bounds.js';
import type { RunContext, RunEvent, RunOptions } from './types.js';

/** A body run under its limit: its value, or the timeout/interrupt that ended it. */
export type BoundedRun<T> =
  | { readonly ended: 'done'; readonly value: T }
  | {
      readonly ended: 'timeout' | 'interrupted';
      readonly failure: Failure;
      /** What it returned when it still settled while winding down; null when it did not. */
      readonly late: { readonly value: T } | null;
    };

export interface JobContext {
  readonly recipe: Recipe;
  readonly job: JobSpec;
  /** recipe/job, as events and reports name it. */
  readonly id: string;
  readonly ws: Workspace;
  readonly stepCache: StepCache;
  readonly baseTree: string;
  readonly baseState: (path: string) => Promise<FileState | null>;
  /** The run was interrupted: the job stops at the next step boundary (a running command at once). */
  interrupted(): boolean;
  emit(e: RunEvent): void;
  usage(): Usage;
  bounded<T>(label: string, limitMs: number | null, body: (c: StepContext) => Promise<T>): Promise<BoundedRun<T>>;
}

/** What of a job's input (runJob's JobInput) its phases read. */
export interface JobContextInput {
  readonly repo: Repo;
  readonly recipe: Recipe;
  readonly job: JobSpec;
  readonly baseTree: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
  readonly schemaFor: (path: string) => object | undefined;
  readonly options: RunOptions;
  /** The run's pool of structural workers (astgrep, jscodeshift), started on first use. */
  readonly structural?: () => StructuralPool;
}

export function jobId(job: JobSpec): string {
  return `${job.recipe.name}/${job.name}`;
}

/** `run` is the job's own (redacting) context. */
export function jobContext(input: JobContextInput, run: RunContext, ws: Workspace): JobContext {
  const { repo, recipe, job, options } = input;
  const dryRun = options.dryRun ?? false;
  const inRecipe = matcher(recipe.files);
  const inJob = matcher(job.files);
  const selected = (p: string) => inRecipe(p) && inJob(p);
  const isDenied = recipe.deny.length > 0 ? matcher({ include: recipe.deny, exclude: [] }) : () => false;
  const stepCache = new StepCache({ repo, dir: stepCacheDir(repo.commonDir), readOnly: dryRun, noRead: options.noCache ?? false });
  const baseState = async (path: string) => {
    const e = input.entries.get(path);
    return e ? { bytes: await readBlob(repo, e.oid), mode: e.mode } : null;
  };
  const id = jobId(job);
  let usage: Usage = ZERO_USAGE;

  const stepContext = (b: Bounds): StepContext => ({
    recipe,
    job,
    ws: fencedWorkspace(ws, b.signal),
    run,
    dryRun,
    selected,
    isDenied,
    schemaFor: input.schemaFor,
    signal: b.signal,
    deadline: b.deadline,
    baseState,
    gitDir: repo.commonDir,
    noCache: options.noCache ?? false,
    ...(options.estimateAgent ? { estimate: true } : {}),
    commands: { cache: stepCache, baseTree: input.baseTree, baseState },
    ...(input.structural ? { structural: input.structural } : {}),
    log: (message) => run.onEvent?.({ type: 'log', job: id, message }),
    addUsage: (u) => {
      usage = sumUsage([usage, u]);
    },
  });

  async function bounded<T>(label: string, limitMs: number | null, body: (c: StepContext) => Promise<T>): Promise<BoundedRun<T>> {
    // Cast: assigned in the closure, so the compiler would narrow it to null.
    let settled = null as { value: T } | null;
    const ended = await runBounded(limitMs, options.signal, async (b) => {
      settled = { value: await body(stepContext(b)) };
    });
    if (ended === 'done') return { ended, value: settled!.value };
    const seconds = (limitMs ?? 0) / 1000;
    const f =
      ended === 'timeout'
        ? failure('timeout', `The step ${label} ran past its timeout of ${seconds} s and was stopped; nothing it changed was kept.`, {
            timeoutSeconds: seconds,
          })
        : failure('interrupted', `The run was interrupted during the step ${label}; nothing it changed was kept.`);
    return { ended, failure: f, late: settled };
  }

  return {
    recipe,
    job,
    id,
    ws,
    stepCache,
    baseTree: input.baseTree,
    baseState,
    interrupted: () => options.signal?.aborted === true,
    emit: (e) => run.onEvent?.(e),
    usage: () => usage,
    bounded,
  };
}
