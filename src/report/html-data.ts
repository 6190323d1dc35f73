// The diffs of the HTML report travel as compact data (unified diff text in one JSON <script>
// element) and become HTML in the browser only when a reviewer opens a job: a 1,400-file run
// would otherwise make a page of hundreds of thousands of elements that takes seconds to open.
import type { FileReport, RunReport } from '../model/types.js';
import { bigDiff, diffLineCount, encodingNote } from './big-diff.js';
import { scriptJson } from './html-text.js';
import { languageOf } from './languages.js';
import { unifiedDiff } from './unified.js';

/**
 * One file's diff: `p` its path, `d` the unified diff text (absent when no text diff was recorded),
 * `n` set for a new file, `o` for a deleted one, `x` the number of diff lines left out to keep a huge
 * report small, `l` the highlight.js language, `e` what to say about its encoding (binary, UTF-16),
 * `c` when the diff is big enough to stay collapsed until asked for: [lines, reason, added, removed].
 */
export interface DiffEntry {
  readonly p: string;
  readonly d?: string;
  readonly n?: 1;
  readonly o?: 1;
  readonly x?: number;
  readonly l?: string;
  readonly e?: string;
  readonly c?: readonly [number, string, number, number];
}

/** Per job, per file (in report order). */
export type DiffData = DiffEntry[][];

export function diffData(report: RunReport, leftOut: ReadonlySet<FileReport>): DiffData {
  return report.jobs.map((job) =>
    job.files.map((f): DiffEntry => {
      if (leftOut.has(f)) return { p: f.path, x: diffLines(f) };
      const d = unifiedDiff(f);
      const l = d === '' ? undefined : languageOf(f.path, firstLine(d));
      const e = encodingNote(f);
      const big = bigDiff(f);
      return {
        p: f.path,
        ...(d === '' ? {} : { d }),
        ...(f.created ? { n: 1 as const } : {}),
        ...(f.deleted ? { o: 1 as const } : {}),
        ...(l === undefined ? {} : { l }),
        ...(e === null ? {} : { e }),
        ...(big === null ? {} : { c: [big.lines, big.reason, f.added, f.removed] as const }),
      };
    }),
  );
}

export function diffDataScript(data: DiffData): string {
  return `<script type="application/json" id="scion-diffs">${scriptJson(data)}</script>`;
}

/** The files whose diffs are left out: the largest first, until the rest fit in `maxLines`. */
export function leftOutFiles(report: RunReport, maxLines: number): Set<FileReport> {
  const files = report.jobs.flatMap((j) => j.files);
  let total = files.reduce((n, f) => n + diffLines(f), 0);
  const out = new Set<FileReport>();
  for (const f of [...files].sort((a, b) => diffLines(b) - diffLines(a))) {
    if (total <= maxLines) break;
    out.add(f);
    total -= diffLines(f);
  }
  return out;
}

export const diffLines = diffLineCount;

/** For a `#!` line: the first line of the new side when the diff starts at the top of the file. */
function firstLine(d: string): string | undefined {
  const m = /^@@ -[01],\d+ \+1,\d+ @@\n(?:-.*\n)*[+ ](.*)/m.exec(d);
  return m?.[1];
}
