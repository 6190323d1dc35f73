// Following a campaign to done, as data: one row per job (where its pull request stands and what
// needs a person), and one snapshot per run of `track` (the counts a burndown is drawn from).
import type { ChecksState, ReviewState } from '../host/types.js';

export type TrackState = 'open' | 'draft' | 'merged' | 'closed' | 'declined' | 'none';
export const TRACK_STATES: readonly TrackState[] = ['open', 'draft', 'merged', 'closed', 'declined', 'none'];

/** What needs a person: checks failed, nobody asked to review, nothing happened for days, the base moved. */
export type TrackFlag = 'failing' | 'no-reviewer' | 'stale' | 'behind';

/** What a bulk operation's --state selects: a state of a live pull request, or a flag one carries. */
export type BulkState = Extract<TrackState, 'open' | 'draft'> | Exclude<TrackFlag, 'behind'>;
export const BULK_STATES: readonly BulkState[] = ['open', 'draft', 'failing', 'stale', 'no-reviewer'];

export interface TrackRow {
  /** The repository: `<host>/<owner>/<name>` in a campaign, the repository's path otherwise. */
  readonly repo: string;
  readonly recipe: string;
  readonly job: string;
  readonly branch: string;
  readonly pullRequest: { readonly number: number; readonly url: string } | null;
  readonly state: TrackState;
  readonly checks: ChecksState;
  readonly review: ReviewState;
  /** Reviews requested and not given yet. */
  readonly reviewers: readonly string[];
  /** When anything last happened on the pull request (ISO 8601); null without one. */
  readonly lastActivity: string | null;
  /** Whole days since then; null without a pull request. */
  readonly idleDays: number | null;
  /** Commits the base branch gained since the job's base; null when that cannot be told. */
  readonly behind: number | null;
  /** Files the job's change still touches (0 when the job ended empty). */
  readonly files: number;
  readonly flags: readonly TrackFlag[];
}

/** One line of the history (JSON Lines): a run of `track`. */
export interface TrackSnapshot {
  readonly at: string;
  readonly recipe: string;
  readonly jobs: number;
  readonly open: number;
  readonly draft: number;
  readonly merged: number;
  readonly closed: number;
  readonly declined: number;
  readonly none: number;
  readonly failing: number;
  readonly noReviewer: number;
  readonly stale: number;
  readonly behind: number;
  /** Files the change still touches, summed over the jobs that are not empty. */
  readonly remaining: number;
}
