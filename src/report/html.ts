// One self-contained HTML file for reviewing a run, built to stay fast at 150 jobs and thousands of
// files: the counts, the failures grouped by kind and message, a filterable job index, then every job
// collapsed, its diffs drawn by diff2html in the browser only when it is opened, with the syntax
// highlighted (highlight.js) and the changed words marked; a lock file or a huge diff stays folded
// behind an "Open diff" button.
// No network: CSS, data and scripts are inlined and a Content-Security-Policy forbids any fetch.
import { DIFF2HTML_CSS, DIFF2HTML_JS, HIGHLIGHT_CSS, REPORT_CSS, REPORT_SCRIPT } from './html-assets.js';
import { diffData, diffDataScript, diffLines, leftOutFiles } from './html-data.js';
import { jobSection } from './html-job.js';
import { failures, jobIndex, overview, reposOf } from './html-overview.js';
import { esc } from './html-text.js';
import { formatUsage, recipesOf, reportTitle, statusLine } from './summary-data.js';
import { num, plural } from '../util/plural.js';
import { sumUsage, usageIsZero } from '../model/usage.js';
import type { FileReport, RunReport } from '../model/types.js';

export interface HtmlOptions {
  readonly title?: string;
  /**
   * Diff lines the page carries at most, over the whole report. Past it the largest diffs are left
   * out (listed with their size), so a huge run still gives a file a browser opens quickly.
   * Default 100,000.
   */
  readonly maxDiffLines?: number;
}

const VIEWS = [
  { view: 'line-by-line', label: 'Line by line' },
  { view: 'side-by-side', label: 'Side by side' },
] as const;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

export function renderHtml(report: RunReport, opts: HtmlOptions = {}): string {
  const title = opts.title ?? reportTitle(report);
  const leftOut = leftOutFiles(report, opts.maxDiffLines ?? 100_000);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${DIFF2HTML_CSS}</style>
<style>${HIGHLIGHT_CSS}</style>
<style>${REPORT_CSS}</style>
</head>
<body data-view="line-by-line">
<header>
<h1>${esc(title)}</h1>
${descriptions(report)}<p class="meta">${esc(statusLine(report))}${report.repo ? ` · repository <code>${esc(report.repo)}</code>` : ''}</p>
${report.dryRun ? '<p class="dry-run"><strong>Dry run:</strong> nothing was committed; the diffs show what a run would change.</p>\n' : ''}</header>
${overview(report)}
${failures(report)}
${leftOutNotice(leftOut)}<section id="jobs">
<h2>Jobs</h2>
${totalUsage(report)}${jobIndex(report)}
<div class="toolbar" role="group" aria-label="Diff view">Diff view:
${VIEWS.map((v, i) => `<button type="button" data-view="${v.view}" aria-pressed="${i === 0}">${v.label}</button>`).join('\n')}
<span class="muted">· open a job to see its diffs</span>
</div>
</section>
<main>
${jobSections(report, leftOut)}
</main>
${diffDataScript(diffData(report, leftOut))}
<script>${DIFF2HTML_JS}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/** Under a heading per repository when the jobs carry one (a campaign over many repositories). */
function jobSections(report: RunReport, leftOut: ReadonlySet<FileReport>): string {
  return reposOf(report)
    .map(([repo, jobs]) => {
      const sections = jobs.map(([job, i]) => jobSection(job, i, leftOut)).join('\n');
      if (repo === null) return sections;
      return (
        `<section class="repo" data-repo="${esc(repo)}">\n` +
        `<h2>${esc(repo)} <span class="muted">(${plural(jobs.length, 'job')})</span></h2>\n${sections}\n</section>`
      );
    })
    .join('\n');
}

function descriptions(report: RunReport): string {
  return recipesOf(report)
    .filter((r) => r.description !== undefined)
    .map((r) => `<p class="description"><code>${esc(r.name)}</code> ${esc(r.description!)}</p>\n`)
    .join('');
}

function totalUsage(report: RunReport): string {
  const total = sumUsage(report.jobs.map((j) => j.usage));
  return usageIsZero(total) ? '' : `<p><strong>Agent usage (all jobs):</strong> ${esc(formatUsage(total))}</p>\n`;
}

function leftOutNotice(leftOut: ReadonlySet<FileReport>): string {
  if (leftOut.size === 0) return '';
  const lines = [...leftOut].reduce((n, f) => n + diffLines(f), 0);
  return (
    `<p class="dry-run" id="not-rendered"><strong>Large run:</strong> the diffs of ${plural(leftOut.size, 'file')} ` +
    `(${num(lines)} lines, largest first) are not included, to keep this page fast; they are listed with their ` +
    'line counts, and <code>git diff</code> on the branch shows them.</p>\n'
  );
}
