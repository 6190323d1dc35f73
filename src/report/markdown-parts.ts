// Pieces shared by the PR body and the step summary: the jobs table, the failure list with the fix
// to try, the skipped list and the agent cost line.
import { fixHintFor } from './hints.js';
import { mdCode, mdTable, mdText } from './md.js';
import { formatUsage, jobCounts, jobLabel, num, plural } from './summary-data.js';
import { sumUsage, usageIsZero } from '../model/usage.js';
import type { JobReport, JobStatus, RunReport } from '../model/types.js';

const STATUS_BADGE: Readonly<Record<JobStatus, string>> = {
  changed: '✅ changed',
  unchanged: '🟰 unchanged',
  empty: '➖ empty',
  failed: '❌ failed',
};

export function statusBadge(status: JobStatus): string {
  return STATUS_BADGE[status];
}

export function jobsTable(report: RunReport): string {
  const rows = report.jobs.map((job) => {
    const c = jobCounts(job);
    return [
      mdText(jobLabel(job)),
      mdCode(job.branch, true),
      statusBadge(job.status),
      num(job.commits.length),
      num(c.files),
      `+${num(c.added)} −${num(c.removed)}`,
    ];
  });
  return mdTable(['Job', 'Branch', 'Status', 'Commits', 'Files', '+/−'], ['l', 'l', 'l', 'r', 'r', 'r'], rows);
}

/** One list item per error, with its kind, where it happened and the fix to try. */
export function failureItems(job: JobReport, maxMessage = 500): string[] {
  return job.errors.map((e) => {
    const where = [`step ${e.step}`, ...(e.file === null ? [] : [mdCode(e.file)])].join(', ');
    const code = e.code === undefined ? '' : ` (code ${e.code})`;
    return (
      `- **${mdText(jobLabel(job))}** (${mdCode(job.branch)}), ${where}: **${e.kind}**${code}: ${mdText(e.message, maxMessage)}\n` +
      `  - Fix: ${fixHintFor(e)}\n`
    );
  });
}

/** The "Failures" section, or '' when nothing failed; past `maxItems`, a count of the rest. */
export function failuresSection(report: RunReport, heading: string, maxMessage?: number, maxItems = Infinity): string {
  const items = report.jobs.flatMap((j) => failureItems(j, maxMessage));
  if (items.length === 0) return '';
  const shown = items.slice(0, maxItems);
  const more = items.length - shown.length;
  const rest = more > 0 ? `- … and ${plural(more, 'more failure')}: see the JSON report.\n` : '';
  return `${heading} Failures (${num(items.length)})\n\n${shown.join('')}${rest}\n`;
}

export function skippedList(job: JobReport): string {
  if (job.skipped.length === 0) return '';
  const items = job.skipped.map((s) => `- step ${s.step}, ${mdCode(s.file)}: ${s.reason === 'outside-selection' ? 'changed outside the files selection, not committed' : 'already applied'}\n`);
  return `Skipped (the change is already in the base): ${plural(job.skipped.length, 'edit')}\n\n${items.join('')}\n`;
}

export function usageLine(job: JobReport): string {
  return usageIsZero(job.usage) ? '' : `Agent usage: ${mdText(formatUsage(job.usage))}\n\n`;
}

/** Total agent cost of the run, or '' when no agent ran. */
export function totalUsageLine(report: RunReport): string {
  const total = sumUsage(report.jobs.map((j) => j.usage));
  return usageIsZero(total) ? '' : `**Agent usage (all jobs):** ${mdText(formatUsage(total))}\n\n`;
}

export function dryRunNote(report: RunReport): string {
  return report.dryRun ? '> **Dry run:** nothing was committed or pushed; the diffs show what a run would change.\n\n' : '';
}
