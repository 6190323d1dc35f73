// Failures clustered the way a person tuning a recipe on a sample reads them: by kind, and by the
// first diagnostic of the failing verify command (its code and message) or else the error's message,
// made generic (the job's own file path and branch, commit ids). Largest cluster first, each with
// how many jobs it holds and which.
import type { ErrorKind } from '../errors.js';
import type { FailureCluster, JobReport } from './types.js';

const MAX_CAUSE = 240;

export function clusterFailures(jobs: readonly JobReport[]): FailureCluster[] {
  const clusters = new Map<string, { kind: ErrorKind; cause: string; jobs: string[]; first: number }>();
  jobs.forEach((job, i) => {
    if (job.status !== 'failed') return;
    const id = `${job.repo === undefined ? '' : `${job.repo} `}${job.recipe}/${job.name}`;
    const seen = new Set<string>();
    for (const e of job.errors) {
      const cause = causeOf(job, e);
      const key = `${e.kind}\u0000${cause}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const c = clusters.get(key) ?? { kind: e.kind, cause, jobs: [], first: i };
      c.jobs.push(id);
      clusters.set(key, c);
    }
  });
  return [...clusters.values()]
    .sort((a, b) => b.jobs.length - a.jobs.length || a.first - b.first)
    .map((c) => ({ kind: c.kind, cause: c.cause, count: c.jobs.length, jobs: c.jobs }));
}

function causeOf(job: JobReport, e: JobReport['errors'][number]): string {
  const d = e.kind === 'command-failed' ? job.diagnostics?.[0] : undefined;
  if (d) {
    const code = (d as { code?: string }).code;
    return clip(`${code ? `${code}: ` : ''}${generic(d.message, d.file, job)}`);
  }
  return clip(generic(e.message.split('\n')[0] ?? '', e.file, job));
}

/** The message without what differs from job to job: its file, the job's branch and name, commit ids. */
function generic(message: string, file: string | null, job: JobReport): string {
  const parts: [string, string][] = [];
  if (file !== null && file !== '') parts.push([file, '{file}']);
  parts.push([job.branch, '{branch}']);
  if (job.name.length >= 3) parts.push([job.name, '{job}']);
  let out = message;
  for (const [text, placeholder] of parts.sort((a, b) => b[0].length - a[0].length)) out = out.split(text).join(placeholder);
  return out.replace(/\b(?=[a-f]*\d)[0-9a-f]{7,40}\b/g, '{sha}');
}

function clip(s: string): string {
  return s.length > MAX_CAUSE ? `${s.slice(0, MAX_CAUSE - 1)}…` : s;
}
