// The pull requests a run calls for: one per branch a changed job pushed, each described by the
// PR body of that job alone.
import { jobPullRequestBody } from '../report/markdown.js';
import { reportTitle } from '../report/summary-data.js';
import type { RunReport } from '../model/types.js';
import type { PullRequestSpec } from './pulls.js';

export interface PrsFromReportOptions {
  /** Passed to jobPullRequestBody. Default GitHub's 65,536. */
  readonly maxChars?: number;
}

/** Changed jobs of a real run (a dry run pushes nothing): one spec per distinct branch. */
export function pullRequestsFor(report: RunReport, opts: PrsFromReportOptions = {}): PullRequestSpec[] {
  if (report.dryRun) return [];
  const seen = new Set<string>();
  const specs: PullRequestSpec[] = [];
  for (const job of report.jobs) {
    if (job.status !== 'changed' || job.head === null || seen.has(job.branch)) continue;
    seen.add(job.branch);
    const one: RunReport = { ...report, jobs: [job] };
    const title = job.name === job.recipe ? reportTitle(one) : `${reportTitle(one)} [${job.name}]`;
    const body = jobPullRequestBody(one, job, { title, ...(opts.maxChars === undefined ? {} : { maxChars: opts.maxChars }) });
    specs.push({ branch: job.branch, title, body });
  }
  return specs;
}
