// `scion pr --report FILE --comment TEXT | --close | --ready | --merge [METHOD]`: flags → one bulk
// operation (src/track/bulk.ts) over the report's live pull requests, one line per pull request,
// exit 1 when the host refused any.
import type { RunReport } from '../../api/output.js';
import { bulkPullRequests, hostOptionsFor, type BudgetFlags, type BulkAction, type BulkState, type MergeMethod } from '../../api/track.js';
import { EXIT_INTERRUPTED } from '../exit.js';
import type { CliIo } from '../io.js';

export interface BulkFlags extends BudgetFlags {
  comment?: string;
  close?: boolean;
  ready?: boolean;
  merge?: string;
  job?: readonly string[];
  /** Globs over the report's repositories. */
  repo?: string | readonly string[];
  state?: readonly string[];
  stale?: number;
  remote?: string;
  cacheDir?: string;
}

/**
 * The one bulk operation the flags ask for; null when none (then `pr` publishes as usual). The flags
 * were checked by yargs (flags/rules.ts: checkPrFlags): at most one operation, each with a usable value.
 */
export function bulkActionOf(f: BulkFlags): BulkAction | null {
  if (f.comment !== undefined) return { kind: 'comment', text: f.comment };
  if (f.close === true) return { kind: 'close' };
  if (f.ready === true) return { kind: 'ready' };
  // `--merge` alone merges with a merge commit.
  if (f.merge !== undefined) return { kind: 'merge', method: (f.merge === '' ? 'merge' : f.merge) as MergeMethod };
  return null;
}

export async function bulkPrCmd(io: CliIo, report: RunReport, source: string, action: BulkAction, f: BulkFlags): Promise<number> {
  const states: BulkState[] = [...((f.state ?? []) as readonly BulkState[])];
  // `--stale DAYS` alone asks for the pull requests idle that long; beside --state it only sets when one is stale.
  if (f.stale !== undefined && states.length === 0) states.push('stale');
  const repos = f.repo === undefined ? [] : typeof f.repo === 'string' ? [f.repo] : [...f.repo];
  const done = await bulkPullRequests(report, action, {
    cwd: io.cwd,
    env: io.env,
    now: io.clock?.now() ?? Date.now(),
    hostOptions: hostOptionsFor(io, f),
    jobs: f.job ?? [],
    repos,
    states,
    ...(f.stale !== undefined ? { staleDays: f.stale } : {}),
    ...(f.remote !== undefined ? { remote: f.remote } : {}),
    ...(f.cacheDir !== undefined ? { cacheDir: f.cacheDir } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    say: (l) => io.stdout.write(`${l}\n`),
  });
  for (const p of done.problems) io.stderr.write(`scion: ${p}\n`);
  if (io.signal?.aborted) return EXIT_INTERRUPTED;
  if (done.lines.length === 0) io.stdout.write(`${source}: no open pull request matches; nothing to do.\n`);
  const failed = done.lines.filter((l) => l.outcome === 'failed').length;
  if (failed > 0) io.stderr.write(`scion: the host refused ${failed} of ${done.lines.length} pull requests; the lines above say which and why.\n`);
  return failed > 0 || done.problems.length > 0 ? 1 : 0;
}
