// What a person at a terminal reads: the summary after `scion run` (and `scion plan`'s diffs, from
// terminal-diff.ts). Plain text unless `color` is set.
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import { paint, visible, type Paint } from './ansi.js';
import { fixHintFor } from './hints.js';
import { agentSummaryLines, refusalLines } from './terminal-agent.js';
import { formatUsage, idleSteps as idleStepsOf, jobCounts, jobLabel, repoShown, statusLine } from './summary-data.js';
import { plural } from '../util/plural.js';
import { sumUsage, usageIsZero } from '../model/usage.js';
import type { JobReport, JobStatus, RunReport } from '../model/types.js';
// The plan's diffs have their own module (highlighting, word marks, wrapping); re-exported here.
export { planDiffRenderer, renderPlanDiff, type PlanDiffOptions } from './terminal-diff.js';

export interface TerminalOptions {
  readonly color: boolean;
  /** The terminal's width: the summary fits it. Undefined off a terminal (plain columns, no wrapping). */
  readonly width?: number;
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
  const labelWidth = Math.max(0, ...report.jobs.map((j) => stringWidth(summaryLabel(j))));
  const branchWidth = Math.max(0, ...report.jobs.map((j) => j.branch.length));
  const factsWidth = Math.max(0, ...report.jobs.map((j) => stringWidth(facts(j, paint(false)))));
  const cols = columnsFor(labelWidth, branchWidth, factsWidth, opts.width);
  const lines: string[] = [];
  for (const job of report.jobs) lines.push(...jobLines(job, p, cols, opts.width));
  lines.push(...idleSteps(report));
  lines.push(...failureRecap(report, p, opts.width));
  lines.push(...agentSummaryLines(report, p).map((l) => wrap(l, opts.width, '    ')));
  const total = sumUsage(report.jobs.map((j) => j.usage));
  if (!usageIsZero(total)) lines.push(wrap(`Agent usage: ${formatUsage(total)}`, opts.width, '  '));
  lines.push(wrap(p.bold(`${statusLine(report)}${report.dryRun ? ' (dry run: nothing written)' : ''}`), opts.width, ''));
  return `${lines.join('\n')}\n`;
}

interface Columns {
  /** Widths to pad (and on a terminal, cut) to; null: each line at its own width. */
  readonly label: number | null;
  readonly branch: number | null;
}

/** Off a terminal (a pipe, a file, a CI log) the columns line up only while a line stays this narrow. */
const PLAIN_WIDTH = 100;

/**
 * Label and branch columns. On a terminal narrower than they want, both give way (branch first).
 * Elsewhere nothing is cut: they are padded to line up when every line fits in 100 columns, and
 * otherwise each line keeps its natural width (long names are not padded into 200-column lines).
 */
function columnsFor(label: number, branch: number, factsWidth: number, width: number | undefined): Columns {
  // status (9) + 3 gaps + the facts ("2 commits, 13 files, +120 -80, …").
  if (width === undefined) return 9 + 5 + label + branch + factsWidth <= PLAIN_WIDTH ? { label, branch } : { label: null, branch: null };
  const room = width - 1 - 9 - 5 - factsWidth;
  if (label + branch <= room) return { label, branch };
  const b = Math.max(12, Math.min(branch, room - Math.min(label, Math.max(12, Math.floor(room / 2)))));
  return { label: Math.max(12, Math.min(label, room - b)), branch: b };
}

/**
 * The job as the summary names it: in a run over many repositories, the repository (its path on the
 * host: `acme/app`) before the job, so the same recipe in nine repositories is nine distinct lines.
 */
function summaryLabel(job: JobReport): string {
  return job.repo === undefined ? jobLabel(job) : `${repoShown(job.repo)} ${jobLabel(job)}`;
}

/** Runs of more than a screenful name their failed jobs again at the end, one line each. */
const RECAP_AFTER = 5;

/** "Failed (2 of 40):" then one line per failed job with its first error's kind, step and file. */
function failureRecap(report: RunReport, p: Paint, width: number | undefined): string[] {
  const failed = report.jobs.filter((j) => j.status === 'failed');
  if (failed.length === 0 || report.jobs.length <= RECAP_AFTER) return [];
  const out = [p.bold(`Failed (${failed.length} of ${report.jobs.length}):`)];
  for (const job of failed) {
    const e = job.errors[0];
    const why = e === undefined ? '' : `: ${p.red(e.kind)} step ${e.step + 1}${e.file === null ? '' : `, ${visible(e.file)}`}`;
    out.push(wrap(`  ${visible(summaryLabel(job))}${why}${job.errors.length > 1 ? ` (+${plural(job.errors.length - 1, 'more error')})` : ''}`, width, '    '));
  }
  return out;
}

/** `text` padded to `width`; cut at its end with an ellipsis when longer (on a terminal: off one, widths fit every text). */
function cell(text: string, width: number | null): string {
  if (width === null) return text;
  const shown = stringWidth(text) > width ? cliTruncate(text, width, { position: 'end' }) : text;
  return shown + ' '.repeat(Math.max(0, width - stringWidth(shown)));
}

/**
 * Steps that changed no file in any job where they ran (a `replace` whose text is gone, a typo in a
 * glob): said once per recipe step, with the jobs it ran in, 1-based. Read from the report's
 * per-step counts where the runner gives them.
 */
function idleSteps(report: RunReport): string[] {
  const byStep = new Map<string, { recipe: string; step: number; kind: string; idle: number; ran: number }>();
  for (const job of report.jobs) {
    const idle = new Set(idleStepsOf(job).map((s) => s.step));
    for (const s of job.steps ?? []) {
      const key = `${job.recipe}\0${s.step}`;
      const e = byStep.get(key) ?? { recipe: job.recipe, step: s.step, kind: s.kind, idle: 0, ran: 0 };
      e.ran += 1;
      if (idle.has(s.step)) e.idle += 1;
      byStep.set(key, e);
    }
  }
  const out: string[] = [];
  for (const e of byStep.values()) {
    if (e.idle === 0) continue;
    const where = e.ran === 1 ? '' : e.idle === e.ran ? ` in any of its ${e.ran} jobs` : ` in ${e.idle} of its ${e.ran} jobs`;
    out.push(`${e.recipe} step ${e.step + 1} (${e.kind}) changed nothing${where}.`);
  }
  return out;
}

function facts(job: JobReport, p: Paint): string {
  const c = jobCounts(job);
  return [plural(job.commits.length, 'commit'), plural(c.files, 'file'), `${p.green(`+${c.added}`)} ${p.red(`-${c.removed}`)}`, ...alreadyApplied(job)].join(
    ', ',
  );
}

/** "2 already applied": only the files found with the change in them, not those skipped for another reason. */
function alreadyApplied(job: JobReport): string[] {
  const n = job.skipped.filter((s) => s.reason === 'already-applied').length;
  return n > 0 ? [`${n} already applied`] : [];
}

function jobLines(job: JobReport, p: Paint, cols: Columns, width: number | undefined): string[] {
  const status = p[STATUS_COLOUR[job.status]](job.status.padEnd(9));
  const head = `${status} ${cell(visible(summaryLabel(job)), cols.label)}  ${cell(visible(job.branch), cols.branch)}  ${facts(job, p)}`.trimEnd();
  const out = [wrap(head, width, ' '.repeat(10))];
  for (const e of job.errors) {
    // People count steps from 1; the JSON report's `step` stays 0-based.
    const where = `step ${e.step + 1}${e.file === null ? '' : `, ${visible(e.file)}`}`;
    // A multi-line message (a command's output) stays multi-line, indented under its error.
    const message = e.message.split(/\r?\n/).map(visible).join('\n    ');
    out.push(wrap(`  ${p.red(e.kind)}${e.code === undefined ? '' : ` (${e.code})`} ${where}: ${message}`, width, '    '));
    out.push(wrap(`    ${p.dim(`fix: ${fixHintFor(e)}`)}`, width, '      '));
  }
  out.push(...refusalLines(job, p).map((l) => wrap(l, width, '      ')));
  if (job.unmatched && job.unmatched.length > 0) {
    const globs = job.unmatched.map((g) => `"${visible(g)}"`).join(', ');
    out.push(wrap(`  ${p.yellow(`files: ${globs} matched no file`)} ${p.dim('(check the glob against `git ls-files`)')}`, width, '    '));
  }
  if (job.worktree !== null) out.push(`  ${p.dim(`worktree: ${visible(job.worktree)}`)}`);
  return out;
}

/** Word-wraps each line of `text` to `width` columns (ANSI-aware widths), continuing with `indent`. */
function wrap(text: string, width: number | undefined, indent: string): string {
  if (width === undefined) return text;
  const max = Math.max(20, width - 1);
  return text
    .split('\n')
    .map((line) => {
      if (stringWidth(line) <= max) return line;
      const out: string[] = [];
      let cur = '';
      for (const word of line.split(' ')) {
        const next = cur === '' ? word : `${cur} ${word}`;
        if (stringWidth(next) > max && cur.trim() !== '') {
          out.push(cur);
          cur = `${indent}${word}`;
        } else cur = next;
      }
      out.push(cur);
      return out.join('\n');
    })
    .join('\n');
}
