// Bulk operations on the pull requests of a report: comment on, close, mark ready or merge every live
// pull request the filters select (--job and --repo globs, --state). Each acts only where it is safe:
// a comment is never posted twice with the same text on one pull request (looked up before it is
// sent, so a rerun after a crash posts nothing new), a closed pull request's branch is deleted only
// when every commit on it is scion's, a merge only when the checks pass and the review allows it.
import { HostError } from '../errors.js';
import type { MergeMethod } from '../host/types.js';
import type { JobReport, RunReport } from '../model/types.js';
import { deleteIfOurs } from '../publish/pulls.js';
import { globTest } from '../recipe/index.js';
import { noRedaction, type Redactor } from '../redact.js';
import { gatherPulls, type GatherOptions, type PullAt } from './gather.js';
import type { BulkState } from './types.js';

export type BulkAction =
  | { readonly kind: 'comment'; readonly text: string }
  | { readonly kind: 'close' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'merge'; readonly method: MergeMethod };

export { BULK_STATES, type BulkState } from './types.js';

export interface BulkOptions extends GatherOptions {
  /** Globs over job names (`recipe/name` matches too); none: every job. */
  readonly jobs?: readonly string[];
  /** Globs over repositories (a campaign's `<host>/<owner>/<name>`, or the report's path); none: every one. */
  readonly repos?: readonly string[];
  /** Only pull requests in one of these states or carrying one of these flags; none: every live one. */
  readonly states?: readonly BulkState[];
  readonly redact?: Redactor;
  readonly signal?: AbortSignal;
  /** Told each line as it is decided. */
  readonly say?: (line: string) => void;
}

export interface BulkLine {
  readonly repo: string;
  readonly branch: string;
  readonly number: number;
  readonly url: string;
  /** `done`: the host did it; `skipped`: not safe or not needed (why is in `message`); `failed`: the host refused. */
  readonly outcome: 'done' | 'skipped' | 'failed';
  readonly message: string;
}

export interface BulkResult {
  readonly lines: readonly BulkLine[];
  readonly problems: readonly string[];
}

export async function bulkPullRequests(report: RunReport, action: BulkAction, o: BulkOptions): Promise<BulkResult> {
  const redact = o.redact ?? noRedaction;
  const jobTest = o.jobs && o.jobs.length > 0 ? globTest(o.jobs, { dot: true }) : () => true;
  const repoTest = o.repos && o.repos.length > 0 ? globTest(o.repos, { dot: true }) : () => true;
  const only = (j: JobReport) => (jobTest(j.name) || jobTest(`${j.recipe}/${j.name}`)) && repoTest(j.repo ?? report.repo ?? '');
  const lines: BulkLine[] = [];
  const campaign = report.jobs.some((j) => j.repo !== undefined);
  const { problems } = await gatherPulls(report, { ...o, only }, async (p) => {
    if (p.pull === null || p.host === null || !(p.row.state === 'open' || p.row.state === 'draft')) return;
    if (o.states && o.states.length > 0 && !o.states.some((s) => s === p.row.state || (p.row.flags as readonly string[]).includes(s))) return;
    if (o.signal?.aborted) return;
    const [outcome, message] = await act(p, action, o.signal);
    const line: BulkLine = { repo: p.row.repo, branch: p.row.branch, number: p.pull.number, url: p.pull.url, outcome, message: redact(message) };
    lines.push(line);
    o.say?.(`${campaign ? `${line.repo}: ` : ''}#${line.number} ${line.branch}: ${line.message}`);
  });
  return { lines, problems };
}

async function act(p: PullAt, action: BulkAction, signal: AbortSignal | undefined): Promise<[BulkLine['outcome'], string]> {
  const host = p.host!;
  const pull = p.pull!;
  try {
    switch (action.kind) {
      case 'comment': {
        if ((await host.comments(pull)).some((c) => c.trim() === action.text.trim())) return ['skipped', 'skipped: this comment is there already'];
        await host.comment(pull, action.text);
        return ['done', 'commented'];
      }
      case 'close': {
        await host.closePull(pull);
        if (p.push === null) return ['done', `closed; kept ${p.job.branch}: scion cannot reach the remote to delete it`];
        return ['done', `closed; ${await deleteIfOurs(p.job, p.repo, p.push, signal)}`];
      }
      case 'ready': {
        if (!pull.draft) return ['skipped', 'skipped: not a draft'];
        await host.markReady(pull);
        return ['done', 'marked ready for review'];
      }
      case 'merge': {
        const why = mergeBlocker(p);
        if (why !== null) return ['skipped', `not merged: ${why}`];
        await host.merge(pull, action.method);
        return ['done', `merged (${action.method})`];
      }
    }
  } catch (e) {
    if (!(e instanceof HostError)) throw e;
    return ['failed', `failed: ${e.message}`];
  }
}

/** Why a pull request may not be merged yet, or null: checks must pass (or be none) and the review allow it. */
function mergeBlocker(p: PullAt): string | null {
  const r = p.row;
  if (r.state === 'draft') return 'it is a draft (--ready first)';
  if (r.checks === 'failure') return 'checks failed';
  if (r.checks === 'pending') return 'checks are still running';
  if (r.review === 'changes-requested') return 'a reviewer requested changes';
  if (r.review === 'required') return 'it waits for a review';
  return null;
}
