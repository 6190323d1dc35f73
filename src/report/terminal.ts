// What a person at a terminal reads: `scion plan`'s diffs with line numbers, and the summary after
// `scion run`. Plain text unless `color` is set.
import { paint, visible, type Paint } from './ansi.js';
import { fixHintFor } from './hints.js';
import { formatUsage, jobCounts, jobLabel, plural, statusLine } from './summary-data.js';
import { sumUsage, usageIsZero } from '../model/usage.js';
import type { FileReport, JobReport, JobStatus, RunReport } from '../model/types.js';
import { hunkHeader } from './unified.js';

export interface TerminalOptions {
  readonly color: boolean;
}

/** Unified diffs with an old/new line-number gutter, one file after another. */
export function renderPlanDiff(files: readonly FileReport[], opts: TerminalOptions): string {
  const p = paint(opts.color);
  return files.map((f) => fileDiff(f, p)).join('\n');
}

function fileDiff(file: FileReport, p: Paint): string {
  const hunks = file.hunks ?? [];
  const out = [
    p.bold(`${visible(file.path)}${file.created ? ' (new file)' : ''}  `) + `${p.green(`+${file.added}`)} ${p.red(`-${file.removed}`)}`,
  ];
  if (hunks.length === 0) {
    out.push(p.dim('  (no text diff recorded)'));
    return `${out.join('\n')}\n`;
  }
  out.push(p.bold(`--- ${file.created ? '/dev/null' : `a/${visible(file.path)}`}`), p.bold(`+++ b/${visible(file.path)}`));
  let widest = 1;
  for (const h of hunks) widest = Math.max(widest, String(h.oldStart + h.oldLines).length, String(h.newStart + h.newLines).length);
  const blank = ' '.repeat(widest);
  const gutter = (o: number | null, n: number | null) =>
    p.dim(`${o === null ? blank : String(o).padStart(widest)} ${n === null ? blank : String(n).padStart(widest)} │`);

  for (const h of hunks) {
    out.push(p.cyan(hunkHeader(h)));
    let oldNo = h.oldStart;
    let newNo = h.newStart;
    for (const line of h.lines) {
      const mark = line[0];
      const text = visible(line);
      if (mark === '-') out.push(`${gutter(oldNo++, null)} ${p.red(text)}`);
      else if (mark === '+') out.push(`${gutter(null, newNo++)} ${p.green(text)}`);
      else if (mark === '\\') out.push(`${gutter(null, null)} ${p.dim(text)}`);
      else out.push(`${gutter(oldNo++, newNo++)} ${text}`);
    }
  }
  return `${out.join('\n')}\n`;
}

const STATUS_COLOUR: Readonly<Record<JobStatus, keyof Paint>> = {
  changed: 'green',
  unchanged: 'cyan',
  empty: 'dim',
  failed: 'red',
};

/** The human summary after a run: one line per job, its errors under it, totals last. */
export function renderSummaryText(report: RunReport, opts: TerminalOptions): string {
  const p = paint(opts.color);
  const labelWidth = Math.max(0, ...report.jobs.map((j) => jobLabel(j).length));
  const branchWidth = Math.max(0, ...report.jobs.map((j) => j.branch.length));
  const lines: string[] = [];
  for (const job of report.jobs) lines.push(...jobLines(job, p, labelWidth, branchWidth));
  const total = sumUsage(report.jobs.map((j) => j.usage));
  if (!usageIsZero(total)) lines.push(`Agent usage: ${formatUsage(total)}`);
  lines.push(p.bold(`${statusLine(report)}${report.dryRun ? ' (dry run: nothing written)' : ''}`));
  return `${lines.join('\n')}\n`;
}

function jobLines(job: JobReport, p: Paint, labelWidth: number, branchWidth: number): string[] {
  const c = jobCounts(job);
  const status = p[STATUS_COLOUR[job.status]](job.status.padEnd(9));
  const facts = [
    plural(job.commits.length, 'commit'),
    plural(c.files, 'file'),
    `${p.green(`+${c.added}`)} ${p.red(`-${c.removed}`)}`,
    ...(job.skipped.length > 0 ? [`${job.skipped.length} already applied`] : []),
  ].join(', ');
  const out = [`${status} ${visible(jobLabel(job)).padEnd(labelWidth)}  ${visible(job.branch).padEnd(branchWidth)}  ${facts}`];
  for (const e of job.errors) {
    // People count steps from 1; the JSON report's `step` stays 0-based (SPEC §5).
    const where = `step ${e.step + 1}${e.file === null ? '' : `, ${visible(e.file)}`}`;
    // A multi-line message (a command's output) stays multi-line, indented under its error.
    const message = e.message.split(/\r?\n/).map(visible).join('\n    ');
    out.push(`  ${p.red(e.kind)}${e.code === undefined ? '' : ` (${e.code})`} ${where}: ${message}`);
    out.push(`    ${p.dim(`fix: ${fixHintFor(e)}`)}`);
  }
  if (job.worktree !== null) out.push(`  ${p.dim(`worktree: ${visible(job.worktree)}`)}`);
  return out;
}
