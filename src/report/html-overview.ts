// The top of the HTML report: the run's counts, the failures grouped by kind and message (one
// entry per mistake, with the list of where it happened) and the job index a reviewer filters.
import { groupFailures, type FailureGroup } from './failure-groups.js';
import { fixHintFor } from './hints.js';
import { esc, stepLabel, statusChip, withCode } from './html-text.js';
import { jobCounts, jobLabel, statusCounts } from './summary-data.js';
import { num, plural, pluralWord } from '../util/plural.js';
import type { JobReport, JobStatus, RunReport } from '../model/types.js';

const STATUSES: readonly JobStatus[] = ['changed', 'failed', 'unchanged', 'empty'];

/** Counts that tell at a glance how the run went. */
export function overview(report: RunReport): string {
  const counts = statusCounts(report);
  let files = 0;
  let added = 0;
  let removed = 0;
  let failures = 0;
  let diagnostics = 0;
  let skipped = 0;
  for (const job of report.jobs) {
    const c = jobCounts(job);
    files += c.files;
    added += c.added;
    removed += c.removed;
    failures += job.errors.length;
    diagnostics += job.diagnostics?.length ?? 0;
    skipped += job.skipped.length;
  }
  const cell = (n: number, label: string, cls = '') => `<div class="count${cls}"><b>${num(n)}</b> ${esc(label)}</div>`;
  return `<section id="overview" class="counts">
${cell(report.jobs.length, pluralWord(report.jobs.length, 'job'))}
${STATUSES.filter((s) => counts[s] > 0)
  .map((s) => cell(counts[s], s, ` count-${s}`))
  .join('\n')}
${cell(files, pluralWord(files, 'file changed', 'files changed'))}
<div class="count"><b><span class="add">+${num(added)}</span> <span class="del">−${num(removed)}</span></b> lines</div>
${failures > 0 ? cell(failures, pluralWord(failures, 'failure'), ' count-failed') : ''}
${diagnostics > 0 ? cell(diagnostics, pluralWord(diagnostics, 'diagnostic'), ' count-failed') : ''}
${skipped > 0 ? cell(skipped, 'skipped') : ''}
</section>`;
}

/** Near the top, so a reviewer sees at once what went wrong, where, and what to try. */
export function failures(report: RunReport): string {
  const groups = groupFailures(report);
  if (groups.length === 0) return report.jobs.length === 0 ? '' : '<p class="ok-banner">No failures.</p>';
  const total = groups.reduce((n, g) => n + g.places.length, 0);
  return `<section id="failures" class="failures">
<h2>Failures (${num(total)}${groups.length < total ? ` in ${plural(groups.length, 'group')}` : ''})</h2>
${groups.map(failureGroup).join('\n')}
</section>`;
}

function failureGroup(g: FailureGroup): string {
  const jobs = new Set(g.places.map((p) => p.jobIndex)).size;
  const where = g.places.length === 1 ? '' : ` · ${plural(g.places.length, 'time')} in ${plural(jobs, 'job')}`;
  const places = g.places.map(
    (p) =>
      `<li><a href="#job-${p.jobIndex}">${esc(jobLabel(p.job))}</a>, ${stepLabel(p.step)}` +
      `${p.file === null ? '' : `, <code>${esc(p.file)}</code>`}${g.places.length > 1 && p.message !== g.message ? `: ${esc(p.message)}` : ''}</li>`,
  );
  // A handful of places is read in full; a long list stays folded until asked for.
  const list = `<details${g.places.length <= 5 ? ' open' : ''}><summary>Where (${num(g.places.length)})</summary><ul>${places.join('')}</ul></details>`;
  return `<div class="fgroup"><p><span class="kind">${esc(g.kind)}</span>${g.code === undefined ? '' : ` (code ${g.code})`}${where}: ${esc(g.message)}</p>
<div class="fix">Fix: ${withCode(fixHintFor(g))}</div>
${list}</div>`;
}

/** A piece's owners as CODEOWNERS writes them ("nobody" for the unowned piece). */
export function ownersLine(owners: readonly string[]): string {
  return owners.length === 0 ? 'nobody' : owners.join(', ');
}

/** The job index: one row per job (grouped by repository when the jobs carry one), filterable. */
export function jobIndex(report: RunReport): string {
  const byRepo = reposOf(report);
  const bodies = byRepo.map(([repo, jobs]) => {
    const head =
      repo === null ? '' : `<tr class="repo-row"><th colspan="8">${esc(repo)} <span class="muted">(${plural(jobs.length, 'job')})</span></th></tr>\n`;
    return `<tbody${repo === null ? '' : ` data-repo="${esc(repo)}"`}>\n${head}${withSplitRows(jobs).join('\n')}\n</tbody>`;
  });
  const buttons = ['all', ...STATUSES.filter((s) => report.jobs.some((j) => j.status === s))]
    .map((s, i) => `<button type="button" data-status="${s}" aria-pressed="${i === 0}">${s}</button>`)
    .join('');
  return `<div class="filters" role="search">
<input type="search" id="filter" placeholder="Filter jobs: name, branch, repository, file, error kind" aria-label="Filter jobs" autocomplete="off">
<span role="group" aria-label="Status">${buttons}</span>
<span id="shown" aria-live="polite">${plural(report.jobs.length, 'job')}</span>
</div>
<table class="jobs">
<thead><tr><th>Job</th><th>Branch</th><th>Status</th><th>Files</th><th>+/−</th><th>Failures</th><th>Diagnostics</th><th>Skipped</th></tr></thead>
${bodies.join('\n')}
</table>`;
}

/** The rows of some jobs, the pieces of a job split by owner under one row naming that job. */
function withSplitRows(jobs: readonly [JobReport, number][]): string[] {
  const rows: string[] = [];
  let current: string | null = null;
  for (const [job, i] of jobs) {
    const key = job.split === undefined ? null : `${job.recipe}\0${job.split.job}`;
    if (key !== null && key !== current) {
      const count = jobs.filter(([j]) => j.split !== undefined && `${j.recipe}\0${j.split.job}` === key).length;
      const from = job.split!.file === null ? 'no CODEOWNERS file: every file unowned' : `by ${job.split!.file}`;
      rows.push(
        `<tr class="split-row"><th colspan="8">${esc(jobLabel({ ...job, name: job.split!.job }))} <span class="muted">split by owner into ` +
          `${plural(count, 'piece')} (${esc(from)})</span></th></tr>`,
      );
    }
    current = key;
    rows.push(indexRow(job, i));
  }
  return rows;
}

function indexRow(job: JobReport, i: number): string {
  const c = jobCounts(job);
  const n = (v: number) => (v === 0 ? '' : num(v));
  return (
    `<tr data-job="${i}" data-status="${job.status}" data-text="${esc(searchText(job))}">` +
    `<td><a href="#job-${i}">${esc(jobLabel(job))}</a>${
      job.owners === undefined ? '' : ` <span class="muted owners">${esc(ownersLine(job.owners))}</span>`
    }</td>` +
    `<td><code>${esc(job.branch)}</code></td><td>${statusChip(job)}</td>` +
    `<td class="n">${num(c.files)}</td><td class="n"><span class="add">+${num(c.added)}</span> <span class="del">−${num(c.removed)}</span></td>` +
    `<td class="n">${n(job.errors.length)}</td><td class="n">${n(job.diagnostics?.length ?? 0)}</td><td class="n">${n(job.skipped.length)}</td></tr>`
  );
}

/** What the filter box matches: everything a reviewer might type to find a job. */
export function searchText(job: JobReport): string {
  return [
    jobLabel(job),
    job.branch,
    job.repo ?? '',
    job.status,
    ...(job.owners ?? []),
    ...job.files.map((f) => f.path),
    ...job.errors.map((e) => `${e.kind} ${e.file ?? ''}`),
    ...(job.diagnostics ?? []).map((d) => d.file),
    ...job.skipped.map((s) => s.file),
  ]
    .join(' ')
    .toLowerCase();
}

/** Jobs by repository in order of first appearance; one unnamed group when no job names one. */
export function reposOf(report: RunReport): [string | null, [JobReport, number][]][] {
  const groups = new Map<string | null, [JobReport, number][]>();
  const anyRepo = report.jobs.some((j) => j.repo !== undefined);
  report.jobs.forEach((job, i) => {
    const key = anyRepo ? (job.repo ?? '(no repository)') : null;
    const list = groups.get(key);
    if (list) list.push([job, i]);
    else groups.set(key, [[job, i]]);
  });
  return [...groups];
}
