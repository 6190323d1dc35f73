// One job of the HTML report: a <details> element, closed by default, whose summary line says what
// happened and whose body lists commits, failures, diagnostics, the model's refused edits, skipped
// files and files. The diffs are drawn by the page's script from the JSON data when the job is opened.
import { esc, firstLine, statusChip, stepLabel } from './html-text.js';
import { diffLines } from './html-data.js';
import { formatUsage, idleSteps, jobCounts, jobLabel, skipReason } from './summary-data.js';
import { num, plural } from '../util/plural.js';
import { usageIsZero } from '../model/usage.js';
import type { FileReport, JobReport } from '../model/types.js';

/** Diagnostics listed per job at most; the JSON report has them all. */
const MAX_DIAGNOSTICS = 500;

export function jobSection(job: JobReport, i: number, leftOut: ReadonlySet<FileReport>): string {
  const c = jobCounts(job);
  const idle = idleSteps(job);
  const facts = [
    c.files > 0 ? `${plural(c.files, 'file')}, <span class="add">+${num(c.added)}</span> <span class="del">−${num(c.removed)}</span>` : '',
    job.errors.length > 0 ? `<span class="kind">${plural(job.errors.length, 'failure')}</span>` : '',
    (job.diagnostics?.length ?? 0) > 0 ? plural(job.diagnostics!.length, 'diagnostic') : '',
    job.skipped.length > 0 ? `${num(job.skipped.length)} skipped` : '',
    (job.refusals?.length ?? 0) > 0 ? `<span class="warn">${plural(job.refusals!.length, 'refused model edit')}</span>` : '',
    idle.length > 0 ? `<span class="warn">${plural(idle.length, 'step')} changed nothing</span>` : '',
  ].filter((s) => s !== '');
  const parts = [
    `<details class="job" id="job-${i}" data-job="${i}" data-status="${job.status}">`,
    `<summary><span class="job-name">${esc(jobLabel(job))}</span> <code>${esc(job.branch)}</code> ${statusChip(job)}` +
      `${facts.length > 0 ? ` <span class="muted">${facts.join(' · ')}</span>` : ''}</summary>`,
    '<div class="job-body">',
  ];
  if (job.repo !== undefined) parts.push(`<p>Repository <code>${esc(job.repo)}</code></p>`);
  parts.push(ownersPart(job));
  if (job.pullRequest)
    parts.push(`<p>Pull request <a href="${esc(safeUrl(job.pullRequest.url))}">#${job.pullRequest.number}</a> (${esc(job.pullRequest.action)})</p>`);
  if (job.status === 'unchanged') parts.push('<p>The branch already holds this change; nothing was rewritten.</p>');
  if (job.status === 'empty' && job.errors.length === 0) parts.push('<p>Nothing to change on this base.</p>');
  if (job.commits.length > 0) {
    parts.push(
      `<h3>Commits (${num(job.commits.length)})</h3><ul class="commits">${job.commits
        .map(
          (k) =>
            `<li><code>${k.sha === null ? 'dry run' : esc(k.sha.slice(0, 12))}</code> [${esc(k.group)}] ` +
            `${esc(firstLine(k.message))} (${plural(k.files.length, 'file')})</li>`,
        )
        .join('')}</ul>`,
    );
  }
  if (job.errors.length > 0) {
    parts.push(
      `<h3>Failures (${num(job.errors.length)})</h3><ul class="errors">${job.errors
        .map(
          (e) =>
            `<li><span class="kind">${esc(e.kind)}</span>${e.code === undefined ? '' : ` (code ${e.code})`}, ${stepLabel(e.step)}` +
            `${e.file === null ? '' : `, <code>${esc(e.file)}</code>`}: ${esc(e.message)}</li>`,
        )
        .join('')}</ul>`,
    );
  }
  parts.push(steps(job), diagnostics(job), refusals(job), skipped(job));
  if (!usageIsZero(job.usage)) parts.push(`<p>Agent usage: ${esc(formatUsage(job.usage))}</p>`);
  if (job.files.length > 0) {
    parts.push(filesTable(job.files, leftOut));
    parts.push(`<div class="diffs" data-job="${i}"><p class="no-diff">Diffs are drawn when the job is opened (this needs JavaScript).</p></div>`);
  }
  parts.push('</div>', '</details>');
  return parts.filter((p) => p !== '').join('\n');
}

/** A piece of a job split by owner: its owners and the CODEOWNERS lines that made them its owners. */
function ownersPart(job: JobReport): string {
  const split = job.split;
  if (split === undefined) return '';
  const owners = (job.owners ?? []).length === 0 ? 'nobody' : (job.owners ?? []).map((o) => `<code>${esc(o)}</code>`).join(', ');
  const head =
    `<p>Piece <code>${esc(split.piece)}</code> of job ` +
    `<code>${esc(split.job)}</code>, owned by ${owners}${split.directory === null ? '' : `, files under <code>${esc(split.directory || '/')}</code>`}.</p>`;
  if (split.file === null)
    return `${head}<p class="muted">The base commit has no CODEOWNERS file: every changed file is in the piece <code>unowned</code>.</p>`;
  if (split.rules.length === 0) return `${head}<p class="muted">No line of <code>${esc(split.file)}</code> owns these files.</p>`;
  const rules = split.rules.map(
    (r) =>
      `<li><code>${esc(`${split.file}:${r.line}`)}</code> <code>${esc(r.pattern)}</code>` +
      `${r.section === null ? '' : ` [${esc(r.section)}]`}: ${plural(r.files, 'file')}</li>`,
  );
  return `${head}<h3>Why these owners</h3><ul class="owner-rules">${rules.join('')}</ul>`;
}

/** What each step did; a step that changed nothing is marked, since it usually means a recipe drifted. */
function steps(job: JobReport): string {
  if (job.steps === undefined || job.steps.length === 0) return '';
  const failed = new Set(job.errors.map((e) => e.step));
  const items = job.steps.map((s) => {
    const did = [s.changed > 0 ? plural(s.changed, 'file') + ' changed' : '', s.alreadyApplied > 0 ? `${num(s.alreadyApplied)} already applied` : ''].filter(
      (x) => x !== '',
    );
    // A failed step is not one that "changed nothing": its error is listed with the job's failures.
    const idle = did.length === 0 && !failed.has(s.step);
    const what = did.length > 0 ? did.join(', ') : idle ? 'changed nothing' : 'failed';
    return `<li${did.length === 0 ? ' class="warn"' : ''}>${stepLabel(s.step)} <code>${esc(s.kind)}</code>: ${what}</li>`;
  });
  return `<h3>Steps</h3><ul class="steps">${items.join('')}</ul>`;
}

function diagnostics(job: JobReport): string {
  const all = job.diagnostics ?? [];
  if (all.length === 0) return '';
  const shown = all.slice(0, MAX_DIAGNOSTICS);
  const rows = shown.map(
    (d) =>
      `<tr><td><code>${esc(d.file)}:${d.line}:${d.col}</code></td><td class="sev-${esc(d.severity)}">${esc(d.severity)}</td>` +
      `<td>${esc(d.message)}</td><td>${d.source === undefined ? '' : `<code>${esc(d.source)}</code>`}</td></tr>`,
  );
  const more = all.length - shown.length;
  return `<h3>Diagnostics (${num(all.length)})</h3>
<table class="diagnostics"><thead><tr><th>Where</th><th>Severity</th><th>Message</th><th>Source</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${more > 0 ? `<p class="muted">… and ${plural(more, 'more diagnostic')}: see the JSON report.</p>` : ''}`;
}

/** The model's edits the guards refused, each with the reason it was given (also for a job that ended changed). */
function refusals(job: JobReport): string {
  const all = job.refusals ?? [];
  if (all.length === 0) return '';
  const items = all.map((r) => {
    const what = `<code>${esc(r.tool)}</code> refused by the <code>${esc(r.guard)}</code> guard`;
    return `<li>${stepLabel(r.step)}, <code>${esc(r.file)}</code>: ${what}: ${esc(r.message)}</li>`;
  });
  return `<h3>Model edits the guards refused (${num(all.length)})</h3><ul class="refusals">${items.join('')}</ul>`;
}

function skipped(job: JobReport): string {
  if (job.skipped.length === 0) return '';
  return `<h3>Skipped files (${num(job.skipped.length)})</h3><ul class="skipped">${job.skipped
    .map((s) => `<li>${stepLabel(s.step)}, <code>${esc(s.file)}</code>: ${esc(skipReason(s.reason))}</li>`)
    .join('')}</ul>`;
}

/** Where a file's diff left out of the page is said to be (the overview's list of large runs). */
const LARGE_RUN_LINK = '<a href="#not-rendered">large run</a>';

function filesTable(files: readonly FileReport[], leftOut: ReadonlySet<FileReport>): string {
  const rows = files.map(
    (f) =>
      `<tr><td><code>${esc(f.path)}</code>${f.created ? ' (new)' : ''}` +
      `${f.matches === undefined ? '' : ` <span class="muted">(${plural(f.matches, 'match', 'matches')})</span>`}` +
      `${leftOut.has(f) ? ` <span class="muted">(diff of ${plural(diffLines(f), 'line')} not included: ${LARGE_RUN_LINK})</span>` : ''}</td>` +
      `<td>${esc(f.group)}</td><td class="n"><span class="add">+${num(f.added)}</span> <span class="del">−${num(f.removed)}</span></td></tr>`,
  );
  return `<h3>Files (${num(files.length)})</h3>
<table class="files"><thead><tr><th>File</th><th>Group</th><th>+/−</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** Only web links: a report must not carry a javascript: URL into a reviewer's click. */
function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '#';
}
