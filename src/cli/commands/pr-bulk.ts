// `scion pr --report FILE --comment TEXT | --close | --ready | --merge [METHOD]`: flags → one bulk
// operation (src/track/bulk.ts) over the report's live pull requests, one line per pull request,
// exit 1 when the host refused any.
import { usageError } from '../../api/errors.js';
import type { RunReport } from '../../api/output.js';
import { BULK_STATES, bulkPullRequests, hostOptionsFor, type BudgetFlags, type BulkAction, type BulkState, type MergeMethod } from '../../api/track.js';
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

/** The one bulk operation the flags ask for; null when none (then `pr` publishes as usual). Throws UsageError for two. */
export function bulkActionOf(f: BulkFlags): BulkAction | null {
  const asked: BulkAction[] = [];
  if (f.comment !== undefined) {
    if (f.comment.trim() === '') throw usageError('--comment needs the text to post (for example --comment "Please review: this closes in a week").');
    asked.push({ kind: 'comment', text: f.comment });
  }
  if (f.close === true) asked.push({ kind: 'close' });
  if (f.ready === true) asked.push({ kind: 'ready' });
  if (f.merge !== undefined) {
    const method = f.merge === '' ? 'merge' : f.merge;
    if (!['squash', 'merge', 'rebase'].includes(method)) {
      throw usageError(`--merge ${f.merge} is not a merge method; use --merge squash, --merge merge or --merge rebase.`);
    }
    asked.push({ kind: 'merge', method: method as MergeMethod });
  }
  if (asked.length > 1) throw usageError('--comment, --close, --ready and --merge each act on every selected pull request; choose one per command.');
  if (asked.length === 0 && ((f.job?.length ?? 0) > 0 || (f.state?.length ?? 0) > 0 || f.stale !== undefined)) {
    throw usageError('--job, --state and --stale select the pull requests of a bulk operation; add --comment TEXT, --close, --ready or --merge.');
  }
  return asked[0] ?? null;
}

export async function bulkPrCmd(io: CliIo, report: RunReport, source: string, action: BulkAction, f: BulkFlags): Promise<number> {
  const states = (f.state ?? []).map((s) => {
    if (!(BULK_STATES as readonly string[]).includes(s)) throw usageError(`--state ${s} is not one of ${BULK_STATES.join(', ')}.`);
    return s as BulkState;
  });
  if (f.stale !== undefined && !(Number.isInteger(f.stale) && f.stale >= 1)) {
    throw usageError(`--stale ${f.stale} must be a whole number of days, 1 or more.`);
  }
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
