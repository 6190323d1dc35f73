// The rows of `track` as CSV (RFC 4180): one line per job, every field quoted where it must be. A cell
// that a spreadsheet would run as a formula (=, +, -, @ first) is written with a leading apostrophe.
import type { TrackRow } from './types.js';

const HEAD = ['repo', 'recipe', 'job', 'branch', 'pull_request', 'url', 'state', 'checks', 'review', 'reviewers'].concat([
  'last_activity',
  'idle_days',
  'behind',
  'files',
  'flags',
]);

function cell(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderTrackCsv(rows: readonly TrackRow[]): string {
  const lines = rows.map((r) =>
    [
      r.repo,
      r.recipe,
      r.job,
      r.branch,
      r.pullRequest?.number ?? null,
      r.pullRequest?.url ?? null,
      r.state,
      r.checks,
      r.review,
      r.reviewers.join(' '),
      r.lastActivity,
      r.idleDays,
      r.behind,
      r.files,
      r.flags.join(' '),
    ]
      .map(cell)
      .join(','),
  );
  return [HEAD.join(','), ...lines].join('\r\n') + '\r\n';
}
