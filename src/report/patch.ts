// `plan --patch` and `plan --stat`: the run's changes in the two shapes git users already read.
// The patch is built from the report's hunks (no gutter, no colour) with git's own headers, so
// `git apply` takes it; the stat lines are `git diff --stat`'s.
import type { FileReport, JobReport, RunReport } from '../model/types.js';
import { jobLabel } from './summary-data.js';
import { hunkHeader } from './unified.js';
import { pluralWord } from '../util/plural.js';

/**
 * Files git would not diff as text (binary, undecodable, UTF-16) cannot be in a text patch: named by
 * `skipped`. Line endings, a BOM, new, deleted and mode-changed files are written as git writes them.
 */
export function renderPatch(report: RunReport, skipped: (job: JobReport, file: FileReport) => void = () => undefined): string {
  let out = '';
  for (const job of report.jobs) {
    for (const file of job.files) {
      const hunks = file.hunks;
      if (hunks === undefined || file.encoding === 'utf16le') {
        skipped(job, file);
        continue;
      }
      const modeChanged = file.oldMode !== undefined && !file.created && !file.deleted;
      if (hunks.length === 0 && !modeChanged && !file.created && !file.deleted) continue;
      const a = quotePath(`a/${file.path}`);
      const b = quotePath(`b/${file.path}`);
      out += `diff --git ${a} ${b}\n`;
      if (file.created) out += `new file mode ${file.mode ?? '100644'}\n`;
      else if (file.deleted) out += `deleted file mode ${file.oldMode ?? '100644'}\n`;
      else if (modeChanged) out += `old mode ${file.oldMode}\nnew mode ${file.mode ?? '100644'}\n`;
      if (hunks.length === 0) continue;
      out += `--- ${file.created ? '/dev/null' : a}\n+++ ${file.deleted ? '/dev/null' : b}\n`;
      for (const h of hunks) {
        out += `${hunkHeader(h)}\n`;
        for (const line of h.lines) out += `${line}\n`;
      }
    }
  }
  return out;
}

/**
 * A path as git writes it in patch headers: in double quotes with C escapes when it holds a quote,
 * a backslash or a control character (git apply reads the same form back).
 */
export function quotePath(p: string): string {
  if (!/["\\\x00-\x1f\x7f]/.test(p)) return p;
  const named: Readonly<Record<string, string>> = { '\x07': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '"': '"', '\\': '\\' };
  let out = '"';
  for (const ch of p) {
    const code = ch.codePointAt(0)!;
    if (named[ch] !== undefined) out += `\\${named[ch]}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

export interface StatOptions {
  /** Columns the lines may take (git uses the terminal's width, 80 off a terminal). */
  readonly width: number;
}

/** Per job: a title line, ` path | N +++--` lines, and git's totals line. */
export function renderStat(report: RunReport, o: StatOptions): string {
  const blocks: string[] = [];
  for (const job of report.jobs) {
    if (job.files.length === 0) continue;
    blocks.push(`${jobLabel(job)} (${job.branch})\n${statLines(job.files, o.width)}`);
  }
  return blocks.join('\n');
}

export function statLines(files: readonly FileReport[], width: number): string {
  const rows = files.map((f) => ({
    name: f.path,
    count: f.added + f.removed,
    added: f.added,
    removed: f.removed,
    binary: (f.hunks ?? []).length === 0 && f.added + f.removed === 0,
  }));
  const nameWidth = Math.max(...rows.map((r) => r.name.length));
  const countWidth = Math.max(...rows.map((r) => (r.binary ? 3 : String(r.count).length)));
  const maxCount = Math.max(...rows.map((r) => r.count));
  // git: " name | count graph"; the graph gets what is left of the width, names are cut from the left.
  const room = Math.max(10, width - countWidth - 4);
  const shownName = Math.min(nameWidth, Math.max(10, room - Math.min(maxCount, 40)));
  const graphWidth = Math.max(0, Math.min(maxCount, width - shownName - countWidth - 4));
  const scale = maxCount > graphWidth && maxCount > 0 ? graphWidth / maxCount : 1;
  const lines = rows.map((r) => {
    const name = r.name.length > shownName ? `...${r.name.slice(r.name.length - shownName + 3)}` : r.name.padEnd(shownName);
    if (r.binary) return ` ${name} | ${'Bin'.padStart(countWidth)}`;
    let plus = Math.round(r.added * scale);
    let minus = Math.round(r.removed * scale);
    // A file that changed shows at least one mark, as git's does.
    if (r.added > 0 && plus === 0) plus = 1;
    if (r.removed > 0 && minus === 0) minus = 1;
    return ` ${name} | ${String(r.count).padStart(countWidth)} ${'+'.repeat(plus)}${'-'.repeat(minus)}`.trimEnd();
  });
  const added = rows.reduce((n, r) => n + r.added, 0);
  const removed = rows.reduce((n, r) => n + r.removed, 0);
  // git's own words and digits (no thousands separators).
  const n = (k: number, word: string) => `${k} ${pluralWord(k, word)}`;
  const totals = [` ${n(files.length, 'file')} changed`];
  if (added > 0 || removed === 0) totals.push(`${n(added, 'insertion')}(+)`);
  if (removed > 0 || added === 0) totals.push(`${n(removed, 'deletion')}(-)`);
  return `${lines.join('\n')}\n${totals.join(', ')}\n`;
}
