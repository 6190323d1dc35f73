// Failures grouped by kind and message, so 87 jobs failing the same way read as one problem with one
// fix and a list of where it happened, in the HTML report and in the PR bodies alike.
import type { ErrorKind } from '../errors.js';
import type { JobReport, RunReport } from '../model/types.js';

export interface FailurePlace {
  readonly job: JobReport;
  /** Index of the job in the report (anchors in the HTML report). */
  readonly jobIndex: number;
  /** 0-based, as in the JSON report. */
  readonly step: number;
  readonly file: string | null;
  readonly message: string;
}

export interface FailureGroup {
  readonly kind: ErrorKind;
  readonly code: number | undefined;
  /**
   * The message with what differs from place to place put in general words: the file's path is "the
   * file", the branch "the job's branch", a commit id "a commit", a count "N". A group of one keeps its message.
   */
  readonly message: string;
  /** The error's own fix when its kind's general hint does not fit it. */
  readonly hint?: string;
  readonly places: readonly FailurePlace[];
}

/** Groups in order of size (largest first), then of first appearance. */
export function groupFailures(report: RunReport): FailureGroup[] {
  const groups = new Map<string, { kind: ErrorKind; code: number | undefined; message: string; hint?: string; places: FailurePlace[] }>();
  report.jobs.forEach((job, jobIndex) => {
    for (const e of job.errors) {
      const message = messageShape(e.message, e.file, job);
      const key = `${e.kind}\u0000${e.code ?? ''}\u0000${e.hint ?? ''}\u0000${message}`;
      const place: FailurePlace = { job, jobIndex, step: e.step, file: e.file, message: e.message };
      const g = groups.get(key);
      if (g) g.places.push(place);
      else groups.set(key, { kind: e.kind, code: e.code, message, ...(e.hint === undefined ? {} : { hint: e.hint }), places: [place] });
    }
  });
  return [...groups.values()]
    .map((g) => (g.places.length === 1 ? { ...g, message: g.places[0]!.message } : g))
    .sort((a, b) => b.places.length - a.places.length);
}

/**
 * What stays the same when one mistake repeats over jobs and files: the message without the file
 * path, the job's branch and commit ids (hex with a digit, so a word like "defaced" stays). Longest
 * first, so a path is not cut by a branch name inside it.
 */
function messageShape(message: string, file: string | null, job: JobReport): string {
  const parts: [string, string][] = [];
  if (file !== null && file !== '') parts.push([file, 'the file']);
  parts.push([job.branch, "the job's branch"]);
  let out = message;
  // Placeholders are marked while the parts are replaced, so a path that holds a digit is not read as a count.
  for (const [text, placeholder] of parts.sort((a, b) => b[0].length - a[0].length)) out = out.split(text).join(`\u0001${placeholder}\u0001`);
  return (
    out
      .replace(/\b(?=[a-f]*\d)[0-9a-f]{7,40}\b/g, '\u0001a commit\u0001')
      // A count that differs from place to place ("Found 2 matches", "Found 3 matches") is one mistake.
      .replace(/(?<![\w.\u0001])\d[\d,]*(?![\w\u0001])/g, 'N')
      .replace(/\u0001/g, '')
  );
}
