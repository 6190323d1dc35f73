// Reading a JSON report back (for `merge-reports` and `pr`): enough checking to name the file and
// the field when it is not a scion report, without re-validating every nested value.
import { UsageError } from '../errors.js';
import type { RunReport } from './types.js';
import { ZERO_USAGE } from './usage.js';

const JOB_FIELDS = ['recipe', 'name', 'branch', 'status', 'commits', 'files', 'errors'] as const;

/** `source` names the file in the error: "report-1.json is not a scion report: …". */
export function parseRunReport(text: string, source: string): RunReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${source} is not valid JSON (${(e as Error).message}); pass a file written by \`scion run --report\`.`);
  }
  const problems: string[] = [];
  if (!isObject(data)) {
    problems.push('the top level is not an object');
  } else {
    if (data.version !== 1) problems.push(`version is ${JSON.stringify(data.version)}, expected 1`);
    if (typeof data.repo !== 'string' && data.repo !== null) problems.push('repo is missing or not a string (null for a campaign)');
    if (!Array.isArray(data.jobs)) problems.push('jobs is missing or not an array');
    else {
      data.jobs.forEach((job: unknown, i: number) => {
        if (!isObject(job)) problems.push(`jobs[${i}] is not an object`);
        else for (const f of JOB_FIELDS) if (!(f in job)) problems.push(`jobs[${i}].${f} is missing`);
      });
    }
  }
  if (problems.length > 0) {
    throw new UsageError(`${source} is not a scion report; pass a file written by \`scion run --report\`.`, problems);
  }
  const report = data as RunReport & { dryRun?: boolean };
  // Older or hand-written reports may lack the optional collections; renderers expect them.
  return {
    ...report,
    dryRun: report.dryRun === true,
    jobs: report.jobs.map((j) => ({
      ...j,
      skipped: j.skipped ?? [],
      usage: j.usage ?? ZERO_USAGE,
    })),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
