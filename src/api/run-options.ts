// The options of a run (one repository or a campaign's) and what both kinds of run share: the
// runner's options they give, the publishing settings, and a run followed through its events so an
// interrupt still ends with a report.
import type { HostOptions } from '../host/open.js';
import { usageError } from '../errors.js';
import type { DiscoverQuery } from '../campaign/discover.js';
import type { RepoEvent } from '../campaign/run-campaign.js';
import type { Env } from '../host/remote.js';
import type { RunReport } from '../model/types.js';
import { checkPublishSettings, type PublishSettings } from '../publish/settings.js';
import type { RunEvent, RunOptions as RunnerOptions } from '../runner/types.js';
import { scanWorkersFromEnv } from '../runner/scan-workers.js';
import { RunTracker, settle } from './interrupt.js';

/** The repositories of a campaign: a list file (one a line; `-` reads `readStdin`), or a discovery query. */
export type RepositoriesOptions = ({ readonly list: string; readonly readStdin?: () => Promise<string> } | { readonly discover: DiscoverQuery }) & {
  /** Where the clones are kept between runs. Default: $XDG_CACHE_HOME/scion/repos, else ~/.cache/scion/repos. */
  readonly cacheDir?: string;
  /** Told when a repository is being cloned or fetched, and how that ended. */
  readonly onRepo?: (e: RepoEvent) => void;
};

/** Publishing after the run: push to `remote`, then (with pullRequests) one pull request per branch. */
export interface PublishOptions {
  /** The remote to push to (a campaign pushes each clone back to its own URL). */
  readonly remote: string;
  /** Push the branches of failed jobs too (what they committed before failing). */
  readonly pushFailed?: boolean;
  /** Create or update one pull request per pushed branch. */
  readonly pullRequests?: boolean;
  /** Open new pull requests as drafts. */
  readonly draft?: boolean;
  /** Added to every pull request. */
  readonly labels?: readonly string[];
  /** The branch pull requests merge into. Default: the remote's default branch. */
  readonly base?: string;
  /** Open a pull request again where a person closed one holding the same change. */
  readonly reopen?: boolean;
  /** Milliseconds between two pull requests (a whole number, 0 or more). @default 1000 */
  readonly intervalMs?: number;
  /** What every host opened shares: the write budget and the clock it waits on (hostOptions()). */
  readonly hostOptions?: HostOptions;
}

export interface RunOptions {
  /** Recipe files (relative to `cwd`). */
  readonly recipes: readonly string[];
  readonly cwd?: string;
  /** The repository (any folder inside it). Default: `cwd`. Not with `repositories`. */
  readonly repo?: string;
  /** A campaign: the repositories to run in (a list file, or a discovery query). */
  readonly repositories?: RepositoriesOptions;
  /** The commit every job starts from (overrides the recipe's base). */
  readonly base?: string;
  /** Only the jobs whose name matches one of these globs. */
  readonly jobs?: readonly string[];
  /** Jobs (or a campaign's repositories) worked on at once: a whole number of at least 1. @default the number of CPUs */
  readonly concurrency?: number;
  /** Only shard `index` (1-based) of `count`. */
  readonly shard?: { readonly index: number; readonly count: number };
  /** Compute everything, write nothing. */
  readonly dryRun?: boolean;
  readonly keepWorktrees?: boolean;
  /** Overwrite a scion branch that someone added commits to. */
  readonly force?: boolean;
  /** Run every step, ignoring the step cache. */
  readonly noCache?: boolean;
  /** Run only this many jobs, spread evenly over the expansion (a campaign's repositories too), and cluster their failures. */
  readonly sample?: number;
  /** Start no model conversation once the run has spent this many US dollars (those not started fail with kind budget). */
  readonly maxCostUsd?: number;
  /** Agent steps ask the model nothing: they say what they would ask and what it may cost (what `plan` does). */
  readonly estimateAgent?: boolean;
  /** Publish the branches after the run. Not with dryRun. */
  readonly publish?: PublishOptions;
  readonly env?: Env;
  /** The interrupt: jobs stop, nothing more is published, and the report says which jobs it caught. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: RunEvent) => void;
  /** One line per branch pushed and pull request published. */
  readonly say?: (line: string) => void;
  /** Notes that are not results (a campaign that found no repository, a clone being fetched). */
  readonly note?: (line: string) => void;
}

export interface RunResult {
  readonly report: RunReport;
  /** The host's failure that stopped pull requests (one line per repository of a campaign); null when none. */
  readonly publishError: string | null;
  /** The signal fired: the report holds what was done, the rest `interrupted`. */
  readonly interrupted: boolean;
}

/**
 * Everything about the options that can be known without the repository: a mistake is a `usage`
 * error before anything runs (the CLI's flag rules find the same mistakes earlier, in flag words).
 */
export function checkRunOptions(o: RunOptions): void {
  if (o.recipes.length === 0) throw usageError('Name at least one recipe file.');
  const c = o.concurrency;
  if (c !== undefined && !(Number.isInteger(c) && c >= 1))
    throw usageError(`The \`concurrency\` option (${c}) must be a whole number of at least 1.`, [], 'concurrency');
  const s = o.shard;
  if (s !== undefined && !(Number.isInteger(s.index) && Number.isInteger(s.count) && s.index >= 1 && s.index <= s.count)) {
    throw usageError(`The \`shard\` option (${s.index}/${s.count}) is not I/N with 1 <= I <= N.`, [], 'shard');
  }
  if (o.repo !== undefined && o.repositories !== undefined) {
    throw usageError('The `repo` option names one repository and the `repositories` option those of a campaign; choose one.', [], 'repo');
  }
  if (o.publish !== undefined) {
    if (o.dryRun === true) {
      throw usageError('The `publish` option cannot go with the `dryRun` option: a dry run writes no branch to push; drop one of them.', [], 'push');
    }
    if (o.publish.remote.trim() === '') throw usageError('The `publish.remote` option needs a remote name (for example origin).', [], 'push');
    checkPublishSettings(settingsShape(o.publish), 'publish.');
  }
  // Checked once here, before any repository of a campaign runs (each would fail alike).
  scanWorkersFromEnv(o.env ?? process.env);
}

/** The settings of the one publishing path that a run's publish options give; recipes are added once loaded. */
export function publishSettingsFor(o: Pick<RunOptions, 'env' | 'force' | 'say' | 'note' | 'signal'>, p: PublishOptions): PublishSettings {
  return {
    env: o.env ?? process.env,
    push: { force: o.force === true, pushFailed: p.pushFailed === true },
    pullRequests: p.pullRequests === true,
    recipes: [],
    ...settingsShape(p),
    reopen: p.reopen === true,
    ...(p.hostOptions ? { hostOptions: p.hostOptions } : {}),
    ...(o.say ? { say: o.say } : {}),
    ...(o.note ? { note: o.note } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  };
}

function settingsShape(p: PublishOptions): Pick<PublishSettings, 'intervalMs' | 'extra'> & { base?: string } {
  return {
    intervalMs: p.intervalMs ?? 1000,
    extra: { draft: p.draft === true, labels: p.labels ?? [] },
    ...(p.base !== undefined ? { base: p.base } : {}),
  };
}

/** The runner's options that a run's options give, whatever the repositories (one, or a campaign's). */
export function runnerOptionsOf(o: RunOptions): Omit<RunnerOptions, 'repo'> {
  return {
    ...(o.base !== undefined ? { base: o.base } : {}),
    dryRun: o.dryRun === true,
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.shard ? { shard: o.shard } : {}),
    keepWorktrees: o.keepWorktrees === true,
    force: o.force === true,
    noCache: o.noCache === true,
    ...(o.jobs !== undefined && o.jobs.length > 0 ? { jobs: o.jobs } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.sample !== undefined ? { sample: o.sample } : {}),
    ...(o.maxCostUsd !== undefined ? { maxCostUsd: o.maxCostUsd } : {}),
    ...(o.estimateAgent === true ? { estimateAgent: true } : {}),
  };
}

/** Runs `start` with the events followed, so an interrupt that the run does not settle still gives a report. */
export async function tracked(o: RunOptions, start: (onEvent: (e: RunEvent) => void) => Promise<RunReport>, repo: string | null): Promise<RunReport> {
  const tracker = new RunTracker();
  const onEvent = (e: RunEvent) => {
    tracker.onEvent(e);
    o.onEvent?.(e);
  };
  return settle(start(onEvent), o.signal, () => tracker.report(repo, o.dryRun === true));
}
