// Pieces shared by the PR bodies and the step summary: the jobs table, failures (grouped by kind and
// message for a run, one by one for a job) with the fix to try, diagnostics, skipped files, cost.
import { groupFailures } from './failure-groups.js';
import { fixHintFor } from './hints.js';
import { mdCode, mdTable, mdText } from './md.js';
import { formatUsage, idleSteps, jobCounts, jobLabel, skipReason } from './summary-data.js';
import { num, plural } from '../util/plural.js';
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

/** A person reads steps 1-based; the JSON report keeps them 0-based. */
export function stepLabel(step: number): string {
  return `step ${step + 1}`;
}

/** The jobs worth a row: those that changed something or failed. */
export function listedJobs(report: RunReport): JobReport[] {
  return byRepository(report.jobs.filter((j) => j.status === 'changed' || j.status === 'failed'));
}

/**
 * A campaign's jobs grouped by repository, the repositories in the order they first appear (merged
 * shards interleave them); the jobs of one repository keep their order.
 */
export function byRepository(jobs: readonly JobReport[]): JobReport[] {
  const groups = new Map<string | undefined, JobReport[]>();
  for (const job of jobs) {
    const g = groups.get(job.repo);
    if (g) g.push(job);
    else groups.set(job.repo, [job]);
  }
  return [...groups.values()].flat();
}

/** One row per job given; past `maxRows`, a last row counting the rest. */
export function jobsTable(jobs: readonly JobReport[], maxRows = Infinity): string {
  const withRepo = jobs.some((j) => j.repo !== undefined);
  const rows = jobs.slice(0, maxRows).map((job, i) => {
    const c = jobCounts(job);
    // A repository is named on the first row of its group.
    const repoCell = i > 0 && jobs[i - 1]!.repo === job.repo ? '' : mdCode(job.repo ?? '', true);
    return [
      ...(withRepo ? [repoCell] : []),
      mdText(jobLabel(job)),
      mdCode(job.branch, true),
      statusBadge(job.status),
      num(job.commits.length),
      num(c.files),
      `+${num(c.added)} −${num(c.removed)}`,
    ];
  });
  const more = jobs.length - rows.length;
  if (more > 0) rows.push([...(withRepo ? [''] : []), `… and ${plural(more, 'more job')}`, '', '', '', '', '']);
  return mdTable(
    [...(withRepo ? ['Repository'] : []), 'Job', 'Branch', 'Status', 'Commits', 'Files', '+/−'],
    [...(withRepo ? (['l'] as const) : []), 'l', 'l', 'l', 'r', 'r', 'r'],
    rows,
  );
}

/** "150 jobs: 60 changed, 87 failed, 3 empty · 1,400 files, +4,200 −4,200" */
export function countsLine(report: RunReport): string {
  const counts: Record<JobStatus, number> = { changed: 0, failed: 0, unchanged: 0, empty: 0 };
  let files = 0;
  let added = 0;
  let removed = 0;
  for (const j of report.jobs) {
    counts[j.status] += 1;
    const c = jobCounts(j);
    files += c.files;
    added += c.added;
    removed += c.removed;
  }
  const parts = (Object.keys(counts) as JobStatus[]).filter((s) => counts[s] > 0).map((s) => `${num(counts[s])} ${s}`);
  return (
    `**${plural(report.jobs.length, 'job')}**${parts.length > 0 ? `: ${parts.join(', ')}` : ''} · ${plural(files, 'file')} changed, ` +
    `+${num(added)} −${num(removed)}\n\n`
  );
}

/** A job's own failures, one item each, with the fix to try; past `maxItems`, a count of the rest. */
export function jobFailures(job: JobReport, heading: string, maxItems = 100, maxMessage = 500): string {
  if (job.errors.length === 0) return '';
  const items = job.errors.slice(0, maxItems).map((e) => {
    const where = [stepLabel(e.step), ...(e.file === null ? [] : [mdCode(e.file)])].join(', ');
    const code = e.code === undefined ? '' : ` (code ${e.code})`;
    return `- ${where}: **${e.kind}**${code}: ${mdText(e.message, maxMessage)}\n  - Fix: ${fixHintFor(e)}\n`;
  });
  const more = job.errors.length - items.length;
  const rest = more > 0 ? `- … and ${plural(more, 'more failure')}: see the JSON report.\n` : '';
  return `${heading} Failures (${num(job.errors.length)})\n\n${items.join('')}${rest}\n`;
}

/**
 * The run's failures grouped by kind and message: one item per mistake with the fix to try and
 * where it happened (the first `maxPlaces` places, then a count). '' when nothing failed.
 */
export function groupedFailures(report: RunReport, heading: string, o: { maxGroups?: number; maxPlaces?: number; maxMessage?: number } = {}): string {
  const groups = groupFailures(report);
  if (groups.length === 0) return '';
  const maxGroups = o.maxGroups ?? 50;
  const maxPlaces = o.maxPlaces ?? 20;
  const total = groups.reduce((n, g) => n + g.places.length, 0);
  const items = groups.slice(0, maxGroups).map((g) => {
    const code = g.code === undefined ? '' : ` (code ${g.code})`;
    const times = g.places.length === 1 ? '' : ` × ${num(g.places.length)}`;
    const places = g.places
      .slice(0, maxPlaces)
      .map((p) => `${mdText(jobLabel(p.job))} (${[stepLabel(p.step), ...(p.file === null ? [] : [mdCode(p.file)])].join(', ')})`);
    const more = g.places.length - places.length;
    return (
      `- **${g.kind}**${code}${times}: ${mdText(g.message, o.maxMessage ?? 500)}\n` +
      `  - Fix: ${fixHintFor(g)}\n` +
      `  - In: ${places.join(', ')}${more > 0 ? `, … and ${num(more)} more` : ''}\n`
    );
  });
  const moreGroups = groups.length - items.length;
  const rest = moreGroups > 0 ? `- … and ${plural(moreGroups, 'more kind')} of failure: see the JSON report.\n` : '';
  const title = groups.length < total ? `${num(total)} in ${plural(groups.length, 'group')}` : num(total);
  return `${heading} Failures (${title})\n\n${items.join('')}${rest}\n`;
}

export function diagnosticsList(job: JobReport, heading: string, maxItems = 50): string {
  const all = job.diagnostics ?? [];
  if (all.length === 0) return '';
  const items = all
    .slice(0, maxItems)
    .map(
      (d) =>
        `- ${mdCode(`${d.file}:${d.line}:${d.col}`)} ${mdText(d.severity)}: ${mdText(d.message, 300)}` +
        `${d.source === undefined ? '' : ` (${mdCode(d.source)})`}\n`,
    );
  const more = all.length - items.length;
  const rest = more > 0 ? `- … and ${plural(more, 'more diagnostic')}: see the JSON report.\n` : '';
  return `${heading} Diagnostics (${num(all.length)})\n\n${items.join('')}${rest}\n`;
}

/**
 * The model's edits the guards refused: a reviewer of a job that ended `changed` must still see that the
 * model reached for the tests or the checks on the way, and where.
 */
export function refusalsList(job: JobReport, heading: string, maxItems = 50): string {
  const all = job.refusals ?? [];
  if (all.length === 0) return '';
  const items = all.slice(0, maxItems).map((r) => `- ${stepLabel(r.step)}, ${mdCode(r.file)}: ${mdCode(r.tool)} refused by the ${mdCode(r.guard)} guard\n`);
  const more = all.length - items.length;
  const rest = more > 0 ? `- … and ${plural(more, 'more refusal')}: see the JSON report.\n` : '';
  return `${heading} Model edits the guards refused (${num(all.length)})\n\n${items.join('')}${rest}\n`;
}

export function skippedList(job: JobReport, maxItems = 100): string {
  if (job.skipped.length === 0) return '';
  const items = job.skipped.slice(0, maxItems).map((s) => `- ${stepLabel(s.step)}, ${mdCode(s.file)}: ${mdText(skipReason(s.reason))}\n`);
  const more = job.skipped.length - items.length;
  return `Skipped files: ${num(job.skipped.length)}\n\n${items.join('')}${more > 0 ? `- … and ${num(more)} more\n` : ''}\n`;
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

/** "Steps that changed nothing: step 2 (`replace`)", or '' when every step did something. */
export function idleStepsLine(job: JobReport): string {
  const idle = idleSteps(job);
  if (idle.length === 0) return '';
  return `**Steps that changed nothing:** ${idle.map((s) => `${stepLabel(s.step)} (${mdCode(s.kind)})`).join(', ')}\n\n`;
}

/**
 * The run's steps that changed nothing, one item per recipe step with the jobs where it happened (the
 * first `maxJobs`, then a count): a scheduled recipe whose code drifted away says so here.
 */
export function idleStepsSection(report: RunReport, heading: string, maxJobs = 10): string {
  const groups = new Map<string, { recipe: string; step: number; kind: string; jobs: JobReport[] }>();
  for (const job of report.jobs) {
    for (const s of idleSteps(job)) {
      const key = JSON.stringify([job.recipe, s.step]);
      const g = groups.get(key);
      if (g) g.jobs.push(job);
      else groups.set(key, { recipe: job.recipe, step: s.step, kind: s.kind, jobs: [job] });
    }
  }
  if (groups.size === 0) return '';
  const items = [...groups.values()].map((g) => {
    const names = g.jobs.slice(0, maxJobs).map((j) => mdText(jobLabel(j)));
    const more = g.jobs.length - names.length;
    return (
      `- ${mdCode(g.recipe)} ${stepLabel(g.step)} (${mdCode(g.kind)}), in ${plural(g.jobs.length, 'job')}: ` +
      `${names.join(', ')}${more > 0 ? `, … and ${num(more)} more` : ''}\n`
    );
  });
  return `${heading} Steps that changed nothing\n\n${items.join('')}\n`;
}
