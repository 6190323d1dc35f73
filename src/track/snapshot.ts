// A row's flags and a run's snapshot, from what the host said: pure functions of the rows.
import type { ChecksState, ReviewState } from '../host/types.js';
import { TRACK_STATES, type TrackFlag, type TrackRow, type TrackSnapshot, type TrackState } from './types.js';

export const DEFAULT_STALE_DAYS = 14;
const DAY = 86_400_000;

/** Whole days from `since` to `now`; null without a time. */
export function idleDays(since: string | null, now: number): number | null {
  if (since === null) return null;
  const t = Date.parse(since);
  return Number.isNaN(t) ? null : Math.max(0, Math.floor((now - t) / DAY));
}

export function flagsOf(
  r: { state: TrackState; checks: ChecksState; review: ReviewState; reviewers: readonly string[]; idleDays: number | null; behind: number | null },
  staleDays: number,
): TrackFlag[] {
  const live = r.state === 'open' || r.state === 'draft';
  const flags: TrackFlag[] = [];
  if (r.checks === 'failure') flags.push('failing');
  if (r.state === 'open' && r.reviewers.length === 0 && r.review === 'none') flags.push('no-reviewer');
  if (live && r.idleDays !== null && r.idleDays >= staleDays) flags.push('stale');
  if (live && r.behind !== null && r.behind > 0) flags.push('behind');
  return flags;
}

export function snapshotOf(rows: readonly TrackRow[], recipes: readonly string[], at: number): TrackSnapshot {
  const count = (s: TrackState) => rows.filter((r) => r.state === s).length;
  const flagged = (f: TrackFlag) => rows.filter((r) => r.flags.includes(f)).length;
  const states = Object.fromEntries(TRACK_STATES.map((s) => [s, count(s)])) as Record<TrackState, number>;
  return {
    at: new Date(at).toISOString(),
    recipe: [...new Set(recipes)].join(','),
    jobs: rows.length,
    ...states,
    failing: flagged('failing'),
    noReviewer: flagged('no-reviewer'),
    stale: flagged('stale'),
    behind: flagged('behind'),
    remaining: rows.reduce((n, r) => n + r.files, 0),
  };
}

/** The snapshots of a history file's text, oldest first; a line that is not one is skipped. */
export function parseHistory(text: string): TrackSnapshot[] {
  const out: TrackSnapshot[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const s = JSON.parse(line) as TrackSnapshot;
      if (typeof s.at === 'string' && typeof s.jobs === 'number') out.push(s);
    } catch {
      // A line cut short by a crash while appending: the others still draw the burndown.
    }
  }
  return out;
}
