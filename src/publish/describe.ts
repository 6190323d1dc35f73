// What a job's pull request says: title and body from the recipe's `pr` block (templates) or the
// defaults, and a fingerprint of the job's change, kept in the body, by which a later run knows
// whether a closed pull request held the same result (a person's decision to close it stands).
import { createHash } from 'node:crypto';
import type { JobReport, RunReport } from '../model/types.js';
import { renderTemplate } from '../recipe/templates.js';
import { jobPullRequestBody } from '../report/markdown.js';
import { reportTitle } from '../report/summary-data.js';
import type { MergeMethod } from '../host/types.js';
import { compareCodeUnits } from '../util/compare.js';

/** The recipe's `pr` block with the CLI's flags added. */
export interface PrSettings {
  readonly title?: string;
  readonly body?: string;
  readonly draft: boolean;
  readonly labels: readonly string[];
  readonly reviewers: readonly string[];
  readonly assignees: readonly string[];
  readonly autoMerge?: MergeMethod;
  readonly closeWhenEmpty: boolean;
}

export const DEFAULT_PR_SETTINGS: PrSettings = { draft: false, labels: [], reviewers: [], assignees: [], closeWhenEmpty: true };

/**
 * Each job's pull-request settings: its recipe's `pr` block (defaults when it has none), with what the
 * command line adds (--draft, --label) on top.
 */
export function settingsFor(
  recipes: readonly { readonly name: string; readonly pr?: PrSettings | undefined }[],
  extra: { readonly draft?: boolean; readonly labels?: readonly string[] } = {},
): (job: JobReport) => PrSettings {
  const byName = new Map(recipes.map((r) => [r.name, r]));
  return (job) => {
    const block = byName.get(job.recipe)?.pr ?? DEFAULT_PR_SETTINGS;
    return { ...block, draft: block.draft || extra.draft === true, labels: [...new Set([...block.labels, ...(extra.labels ?? [])])] };
  };
}

export interface PullText {
  readonly title: string;
  readonly body: string;
  readonly fingerprint: string;
}

export interface DescribeOptions {
  /** Longest body the host takes. Default GitHub's 65,536. */
  readonly maxChars?: number;
}

const MARK = /<!-- scion:result ([0-9a-f]{16}) -->/;

/**
 * The job's change, independent of where it was computed: each file's path and its added and
 * removed lines (no line numbers, no context), so a rerun on a moved base gives the same value.
 */
export function changeFingerprint(job: JobReport): string {
  const h = createHash('sha256');
  for (const f of [...job.files].sort((a, b) => compareCodeUnits(a.path, b.path))) {
    h.update(`${f.path}\0`);
    if (f.hunks)
      for (const hunk of f.hunks)
        for (const l of hunk.lines)
          if (l.startsWith('+') || l.startsWith('-')) h.update(`${l}\n`);
          else h.update(`${f.added}/${f.removed}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

/** The fingerprint a body written by scion carries, or null. */
export function fingerprintOf(body: string): string | null {
  return MARK.exec(body)?.[1] ?? null;
}

export function describeJob(report: RunReport, job: JobReport, s: PrSettings, o: DescribeOptions = {}): PullText {
  const one: RunReport = { ...report, jobs: [job] };
  const firstLine = job.commits[0]?.message.split('\n')[0]?.trim();
  const fallback = job.name === job.recipe ? reportTitle(one) : `${reportTitle(one)} [${job.name}]`;
  const vars = { recipe: job.recipe, job: job.name, description: job.description ?? '', branch: job.branch };
  // The pull requests of a job split by owner would share one subject: each says whose part it is.
  const generated = firstLine && job.split !== undefined ? `${firstLine} (${job.split.piece})` : firstLine;
  const title = s.title !== undefined ? renderTemplate(s.title, vars).trim() || fallback : generated || fallback;
  const fingerprint = changeFingerprint(job);
  const mark = `\n<!-- scion:result ${fingerprint} -->\n`;
  const max = (o.maxChars ?? 65_536) - mark.length;
  const summary = jobPullRequestBody(one, job, { title, maxChars: max });
  const body = s.body !== undefined ? renderTemplate(s.body, { ...vars, summary }).slice(0, max) : summary;
  return { title, body: `${body.replace(/\n+$/, '')}\n${mark}`, fingerprint };
}

/**
 * The jobs of a report whose pull requests `scion pr` / `run --pr` publish: the branches --push left
 * on the remote holding the job's change, whether this run sent it or found it there, and the empty
 * jobs (whose open pull request is closed). Failed jobs get none, even with --push-failed. A report
 * written without --push records no push: its changed branches are then taken as pushed by other
 * means, and `note` says so.
 */
export function jobsToPublish(report: RunReport, note: (s: string) => void, source = 'the report'): { open: JobReport[]; close: JobReport[] } {
  if (report.dryRun) return { open: [], close: [] };
  const anyPushed = report.jobs.some((j) => j.pushed !== undefined);
  const seen = new Set<string>();
  const open: JobReport[] = [];
  const close: JobReport[] = [];
  for (const j of report.jobs) {
    if (seen.has(j.branch)) continue;
    const pushed = anyPushed ? j.pushed !== undefined && (j.status === 'changed' || j.status === 'unchanged') : j.status === 'changed' && j.head !== null;
    if (pushed) open.push(j);
    else if (j.status === 'empty') close.push(j);
    else continue;
    seen.add(j.branch);
  }
  if (!anyPushed && open.length > 0) {
    note(`${source} records no push (it was written without --push); opening pull requests for its changed branches, which must already be on the remote.`);
  }
  return { open, close };
}
