// The tracking page: self-contained HTML (no script, no outside resource), the burndown drawn from the
// history and one row per job. Rows are written lean (no closing cell tags, short attributes) so a
// 5,000-job campaign with a year of daily snapshots stays under 2 MB.
import { CHART_STATES, STATE_COLOURS, remainingChart, stateChart } from './chart.js';
import type { TrackRow, TrackSnapshot } from './types.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Only http(s) links are links; anything else is shown as text. */
const safeUrl = (u: string) => (/^https?:\/\//i.test(u) ? esc(u) : null);

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:24px;color:#1f2328}table{border-collapse:collapse;width:100%}' +
  'th,td{border-bottom:1px solid #d0d7de;padding:3px 6px;text-align:left;white-space:nowrap}th{position:sticky;top:0;background:#f6f8fa}' +
  'tr.flagged td{background:#fff8c5}.legend span{display:inline-block;margin-right:12px}' +
  '.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}' +
  'figure{display:inline-block;margin:0 24px 24px 0}figcaption{font-weight:600;margin-bottom:4px}.counts td{padding-right:16px}';

export function renderTrackHtml(history: readonly TrackSnapshot[], rows: readonly TrackRow[], title: string): string {
  const last = history[history.length - 1];
  const legend = CHART_STATES.map((s) => `<span><i style="background:${STATE_COLOURS[s]}"></i>${s}</span>`).join('');
  const keys = ['jobs', ...CHART_STATES, 'failing', 'noReviewer', 'stale', 'behind', 'remaining'];
  const value = (k: string) => String((last as unknown as Record<string, number> | undefined)?.[k] ?? 0);
  const cells = (f: (k: string) => string) => keys.map(f).join('');
  const counts = last ? `<table class="counts"><tr>${cells((k) => `<th>${k}`)}</tr><tr>${cells((k) => `<td>${value(k)}`)}</tr></table>` : '';
  const head = ['repository', 'branch', 'pull request', 'state', 'checks', 'review', 'reviewers requested', 'days idle', 'behind', 'flags'];
  const body = rows.map(row).join('\n');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head><body>` +
    `<h1>${esc(title)}</h1>${counts}<section id="burndown"><div class="legend">${legend}</div>${stateChart(history)}${remainingChart(history)}</section>` +
    `<table id="jobs"><thead><tr>${head.map((h) => `<th>${h}`).join('')}</tr></thead><tbody>\n${body}\n</tbody></table></body></html>\n`
  );
}

function row(r: TrackRow): string {
  const url = r.pullRequest === null ? null : safeUrl(r.pullRequest.url);
  const pr = r.pullRequest === null ? '-' : url === null ? `#${r.pullRequest.number}` : `<a href="${url}">#${r.pullRequest.number}</a>`;
  const cls = r.flags.length > 0 ? ' class="flagged"' : '';
  const idle = r.idleDays === null ? '' : String(r.idleDays);
  const behind = r.behind === null ? '?' : String(r.behind);
  const cells = [esc(r.repo), esc(r.branch), pr, r.state, r.checks, r.review, esc(r.reviewers.join(', ')), idle, behind, r.flags.join(' ')];
  return `<tr${cls}><td>${cells.join('<td>')}`;
}
