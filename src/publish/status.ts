// `scion status`: where each job's pull request stands, one row per job.
import type { Repo } from '../git/index.js';
import { commitsSince } from './ancestry.js';
import type { ChecksState, Host, ReviewState } from '../host/types.js';

export interface StatusJob {
  readonly branch: string;
  /** The commit the job's branch was built on; null when unknown (no branch yet). */
  readonly base: string | null;
}

export type StatusState = 'open' | 'draft' | 'merged' | 'closed' | 'none';

/** One row of `scion status --json`. */
export interface StatusRow {
  readonly repo: string;
  readonly branch: string;
  readonly pullRequest: { readonly number: number; readonly url: string } | null;
  readonly state: StatusState;
  readonly checks: ChecksState;
  readonly review: ReviewState;
  /** Commits the base branch gained since the job's base; null when that cannot be told. */
  readonly behind: number | null;
}

export interface StatusOptions {
  readonly repo: Repo;
  /** The repository's path, as rows show it. */
  readonly repoPath: string;
  /** null: no host to ask (no token or remote): every row says `none`. */
  readonly host: Host | null;
  /** The commit the base branch holds now (fetched where possible); null when unknown. */
  readonly baseTip: (baseBranch: string | null) => Promise<string | null>;
}

export async function pullRequestStatus(jobs: readonly StatusJob[], o: StatusOptions): Promise<StatusRow[]> {
  const rows: StatusRow[] = [];
  for (const job of jobs) {
    const pull = o.host === null ? null : await o.host.findPull(job.branch);
    const state: StatusState = pull === null ? 'none' : pull.state === 'open' ? (pull.draft ? 'draft' : 'open') : pull.state;
    const live = pull !== null && pull.state === 'open';
    const tip = await o.baseTip(pull?.base || null);
    rows.push({
      repo: o.repoPath,
      branch: job.branch,
      pullRequest: pull === null ? null : { number: pull.number, url: pull.url },
      state,
      checks: live ? await o.host!.checks(pull) : 'none',
      review: live ? await o.host!.review(pull) : 'none',
      behind: job.base === null || tip === null ? null : await commitsSince(o.repo, job.base, tip),
    });
  }
  return rows;
}

/** The table `scion status` prints: aligned columns, one row per job. */
export function renderStatusTable(rows: readonly StatusRow[], o: { readonly repos?: boolean } = {}): string {
  // A campaign's rows name their repository first: the same branch lives in every repository.
  const head = [...(o.repos ? ['REPO'] : []), 'BRANCH', 'PR', 'STATE', 'CHECKS', 'REVIEW', 'BEHIND'];
  const cells = rows.map((r) => [
    ...(o.repos ? [r.repo] : []),
    r.branch,
    r.pullRequest ? `#${r.pullRequest.number} ${r.pullRequest.url}` : '-',
    r.state,
    r.checks,
    r.review,
    r.behind === null ? '?' : String(r.behind),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...cells.map(line)].join('\n') + '\n';
}
