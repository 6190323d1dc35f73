// One self-contained HTML file for reviewing a run: failures first, a jobs table, then every job's
// diffs rendered by diff2html twice (line by line and side by side) with a button to switch.
// No network: CSS and script are inlined and a Content-Security-Policy forbids any fetch.
import { html as diffHtml, parse as parseDiff } from 'diff2html';
import { fixHintFor } from './hints.js';
import { DIFF2HTML_CSS, REPORT_CSS, REPORT_SCRIPT } from './html-assets.js';
import { formatUsage, jobCounts, jobLabel, num, plural, recipesOf, reportTitle, statusLine } from './summary-data.js';
import { sumUsage, usageIsZero } from '../model/usage.js';
import type { FileReport, JobReport, RunReport } from '../model/types.js';
import { unifiedDiff } from './unified.js';

export interface HtmlOptions {
  readonly title?: string;
  /**
   * Diff lines rendered at most, over the whole report (each is rendered twice, once per view).
   * Past it the largest diffs are left out, so a huge run still gives a page a browser can open.
   * Default 20,000.
   */
  readonly maxDiffLines?: number;
}

type View = 'line-by-line' | 'side-by-side';
const VIEWS: readonly { view: View; label: string }[] = [
  { view: 'line-by-line', label: 'Line by line' },
  { view: 'side-by-side', label: 'Side by side' },
];

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

export function renderHtml(report: RunReport, opts: HtmlOptions = {}): string {
  const title = opts.title ?? reportTitle(report);
  const skipped = unrendered(report, opts.maxDiffLines ?? 20_000);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${DIFF2HTML_CSS}</style>
<style>${REPORT_CSS}</style>
<noscript><style>.view { display: block !important; }</style></noscript>
</head>
<body data-view="line-by-line">
<header>
<h1>${esc(title)}</h1>
${descriptions(report)}<p class="meta">${esc(statusLine(report))} · ${report.repo === null ? `${esc(String(new Set(report.jobs.map((j) => j.repo)).size))} repositories` : `repository <code>${esc(report.repo)}</code>`}</p>
${report.dryRun ? '<p class="dry-run"><strong>Dry run:</strong> nothing was committed; the diffs show what a run would change.</p>\n' : ''}</header>
${failures(report)}
${skippedNotice(skipped)}<section id="jobs">
<h2>Jobs</h2>
${jobsTable(report)}${totalUsage(report)}</section>
<div class="toolbar" role="group" aria-label="Diff view">Diff view:
${VIEWS.map((v, i) => `<button type="button" data-view="${v.view}" aria-pressed="${i === 0}">${v.label}</button>`).join('\n')}
</div>
<main>
${report.jobs.map((job, i) => jobSection(job, i, skipped)).join('\n')}
</main>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

function descriptions(report: RunReport): string {
  return recipesOf(report)
    .filter((r) => r.description !== undefined)
    .map((r) => `<p class="description"><code>${esc(r.name)}</code> ${esc(r.description!)}</p>\n`)
    .join('');
}

/** Near the top so a reviewer sees at once what went wrong and what to try. */
function failures(report: RunReport): string {
  const items = report.jobs.flatMap((job, i) =>
    job.errors.map(
      (e) =>
        `<li><span class="kind">${esc(e.kind)}</span>${e.code === undefined ? '' : ` (code ${e.code})`} in ` +
        `<a href="#job-${i}">${esc(jobLabel(job))}</a> <code>${esc(job.branch)}</code>, step ${e.step}` +
        `${e.file === null ? '' : `, <code>${esc(e.file)}</code>`}: ${esc(e.message)}` +
        `<div class="fix">Fix: ${withCode(fixHintFor(e))}</div></li>`,
    ),
  );
  if (items.length === 0) {
    return report.jobs.length === 0 ? '' : '<p class="ok-banner">No failures.</p>';
  }
  return `<section id="failures" class="failures">
<h2>Failures (${num(items.length)})</h2>
<ol>
${items.join('\n')}
</ol>
</section>`;
}

function jobsTable(report: RunReport): string {
  const rows = report.jobs.map((job, i) => {
    const c = jobCounts(job);
    return (
      `<tr><td><a href="#job-${i}">${esc(jobLabel(job))}</a></td><td><code>${esc(job.branch)}</code></td>` +
      `<td>${statusChip(job)}</td><td class="n">${num(job.commits.length)}</td><td class="n">${num(c.files)}</td>` +
      `<td class="n"><span class="add">+${num(c.added)}</span> <span class="del">−${num(c.removed)}</span></td></tr>`
    );
  });
  return `<table class="jobs">
<thead><tr><th>Job</th><th>Branch</th><th>Status</th><th>Commits</th><th>Files</th><th>+/−</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
`;
}

function totalUsage(report: RunReport): string {
  const total = sumUsage(report.jobs.map((j) => j.usage));
  return usageIsZero(total) ? '' : `<p><strong>Agent usage (all jobs):</strong> ${esc(formatUsage(total))}</p>\n`;
}

function statusChip(job: JobReport): string {
  return `<span class="status status-${job.status}">${job.status}</span>`;
}

function jobSection(job: JobReport, i: number, skipped: ReadonlySet<FileReport>): string {
  const parts = [
    `<section class="job" id="job-${i}">`,
    `<h2>${esc(jobLabel(job))} <code>${esc(job.branch)}</code> ${statusChip(job)}</h2>`,
  ];
  if (job.commits.length > 0) {
    parts.push(
      `<h3>Commits</h3><ul class="commits">${job.commits
        .map((k) => `<li><code>${k.sha === null ? 'dry run' : esc(k.sha.slice(0, 12))}</code> [${esc(k.group)}] ${esc(firstLine(k.message))} (${plural(k.files.length, 'file')})</li>`)
        .join('')}</ul>`,
    );
  }
  if (job.skipped.length > 0) {
    parts.push(
      `<h3>Skipped: already applied (${num(job.skipped.length)})</h3><ul class="skipped">${job.skipped
        .map((s) => `<li>step ${s.step}, <code>${esc(s.file)}</code></li>`)
        .join('')}</ul>`,
    );
  }
  if (job.errors.length > 0) {
    parts.push(`<p class="kind">${plural(job.errors.length, 'failure')}: see <a href="#failures">Failures</a>.</p>`);
  }
  if (job.status === 'unchanged') parts.push('<p>The branch already holds this change; nothing was rewritten.</p>');
  if (job.status === 'empty' && job.errors.length === 0) parts.push('<p>Nothing to change on this base.</p>');
  if (!usageIsZero(job.usage)) parts.push(`<p>Agent usage: ${esc(formatUsage(job.usage))}</p>`);
  if (job.files.length > 0) parts.push(filesTable(job.files), diffs(job.files, skipped));
  parts.push('</section>');
  return parts.join('\n');
}

function filesTable(files: readonly FileReport[]): string {
  const rows = files.map(
    (f) =>
      `<tr><td><code>${esc(f.path)}</code>${f.created ? ' (new)' : ''}</td><td>${esc(f.group)}</td>` +
      `<td class="n"><span class="add">+${num(f.added)}</span> <span class="del">−${num(f.removed)}</span></td></tr>`,
  );
  return `<h3>Files (${num(files.length)})</h3>
<table class="files"><thead><tr><th>File</th><th>Group</th><th>+/−</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** The files whose diffs are left out: the largest first, until the rest fit in `maxLines`. */
function unrendered(report: RunReport, maxLines: number): Set<FileReport> {
  const files = report.jobs.flatMap((j) => j.files);
  let total = files.reduce((n, f) => n + diffLines(f), 0);
  const out = new Set<FileReport>();
  for (const f of [...files].sort((a, b) => diffLines(b) - diffLines(a))) {
    if (total <= maxLines) break;
    out.add(f);
    total -= diffLines(f);
  }
  return out;
}

function diffLines(f: FileReport): number {
  return (f.hunks ?? []).reduce((n, h) => n + h.lines.length, 0);
}

function skippedNotice(skipped: ReadonlySet<FileReport>): string {
  if (skipped.size === 0) return '';
  const lines = [...skipped].reduce((n, f) => n + diffLines(f), 0);
  return (
    `<p class="dry-run" id="not-rendered"><strong>Large run:</strong> the diffs of ${plural(skipped.size, 'file')} ` +
    `(${num(lines)} lines, largest first) are not rendered, to keep this page usable; they are listed with their ` +
    'line counts, and <code>git diff</code> on the branch shows them.</p>\n'
  );
}

/** Both renderings of every file; CSS on <body data-view> shows one. */
function diffs(files: readonly FileReport[], skipped: ReadonlySet<FileReport>): string {
  const parsed = files.map((f) => (skipped.has(f) ? { file: f, diff: null } : parseFile(f)));
  return VIEWS.map(
    ({ view }) =>
      `<div class="view" data-view="${view}">\n${parsed.map((p) => renderFile(p, view)).join('\n')}\n</div>`,
  ).join('\n');
}

type Parsed = { file: FileReport; diff: ReturnType<typeof parseDiff> | null };

function parseFile(file: FileReport): Parsed {
  const text = unifiedDiff(file);
  const diff = text === '' ? [] : parseDiff(text);
  // diff2html reads `/dev/null → name` as a rename; the report knows the file is new.
  if (file.created) for (const d of diff) d.isNew = true;
  return { file, diff };
}

function renderFile({ file, diff }: Parsed, view: View): string {
  if (diff === null) {
    return `<p class="no-diff"><code>${esc(file.path)}</code>: diff of ${plural(diffLines(file), 'line')} not rendered (<a href="#not-rendered">large run</a>).</p>`;
  }
  if (diff.length === 0) return `<p class="no-diff"><code>${esc(file.path)}</code>: no text diff recorded.</p>`;
  return diffHtml(diff, { outputFormat: view, drawFileList: false, matching: 'lines' });
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? '';
}

/** The hints mark code with backticks, as Markdown does. */
function withCode(s: string): string {
  return s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `<code>${esc(part)}</code>` : esc(part)))
    .join('');
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
