// GitHub's answers as scion reads them: the fields of a pull request and an issue it needs (the
// shapes an answer must have, else it is a `host` error), and what they say as the Host's values
// (a pull request's state, its checks, its review verdict).
import { isRecord } from './answer.js';
import type { ChecksState, HostIssue, HostPull, ReviewState } from './types.js';

export interface PullJson {
  number: number;
  html_url: string;
  state: string;
  merged_at?: string | null;
  draft?: boolean;
  head?: { sha?: string };
  base?: { ref?: string };
  body?: string | null;
  node_id?: string;
  requested_reviewers?: { login?: string }[];
  requested_teams?: { slug?: string }[];
  updated_at?: string | null;
}

export interface IssueJson {
  number: number;
  html_url: string;
  body?: string | null;
  pull_request?: unknown;
}

export interface CheckRunJson {
  status?: string;
  conclusion?: string | null;
}

export interface ReviewJson {
  state?: string;
  user?: { login?: string } | null;
}

/** The fields of a pull request scion reads: a number, its page, its state. */
export function isPull(d: unknown): d is PullJson {
  return isRecord(d) && Number.isInteger(d['number']) && typeof d['html_url'] === 'string' && typeof d['state'] === 'string';
}

export const isIssue = (d: unknown): d is IssueJson => isRecord(d) && Number.isInteger(d['number']) && typeof d['html_url'] === 'string';

export const issueOf = (i: IssueJson): HostIssue => ({ number: i.number, url: i.html_url, body: i.body ?? '' });

export function pullOf(p: PullJson): HostPull {
  return {
    number: p.number,
    url: p.html_url,
    state: p.merged_at ? 'merged' : p.state === 'open' ? 'open' : 'closed',
    draft: p.draft === true,
    headSha: p.head?.sha ?? null,
    base: p.base?.ref ?? '',
    body: p.body ?? '',
    nodeId: p.node_id ?? '',
    updatedAt: p.updated_at ?? null,
    reviewers: [...(p.requested_reviewers ?? []).map((r) => r.login ?? ''), ...(p.requested_teams ?? []).map((t) => `team:${t.slug ?? ''}`)].filter(
      (r) => r !== '' && r !== 'team:',
    ),
  };
}

/** A commit's checks: its check runs and its combined commit status, as one state (any failure fails, any pending waits). */
export function checksOf(runs: readonly CheckRunJson[], combined: { state?: string; total_count?: number }): ChecksState {
  const states: ChecksState[] = [];
  for (const r of runs) {
    if (r.status !== 'completed') states.push('pending');
    else states.push(['success', 'neutral', 'skipped'].includes(r.conclusion ?? '') ? 'success' : 'failure');
  }
  if ((combined.total_count ?? 0) > 0) states.push(combined.state === 'success' ? 'success' : combined.state === 'pending' ? 'pending' : 'failure');
  if (states.length === 0) return 'none';
  return states.includes('failure') ? 'failure' : states.includes('pending') ? 'pending' : 'success';
}

/** The reviews' verdict, or null when no reviewer approved or blocked (then whether reviews are requested decides). */
export function verdictOf(reviews: readonly ReviewJson[]): ReviewState | null {
  // A reviewer's latest approving or blocking review is their verdict; comments do not change it.
  const verdict = new Map<string, string>();
  for (const r of reviews) if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') verdict.set(r.user?.login ?? '', r.state);
  const states = [...verdict.values()];
  if (states.includes('CHANGES_REQUESTED')) return 'changes-requested';
  if (states.includes('APPROVED')) return 'approved';
  return null;
}
