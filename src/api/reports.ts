// Report files, read in one place: `scion pr`, `status`, `branches` and `merge-reports` all take a
// report written by `scion run --report FILE` (or merge-reports), and all say the same when they cannot.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { usageError } from '../errors.js';
import { mergeReports as mergeParsed } from '../model/merge.js';
import { parseRunReport } from '../model/parse.js';
import type { RunReport } from '../model/types.js';

/**
 * The report in `file` (relative to `cwd`), checked as a scion report. Throws a `usage` ScionError
 * naming the file when it cannot be read or is not a report.
 */
export async function readReport(file: string, cwd: string = process.cwd()): Promise<RunReport> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (e) {
    throw usageError(`Cannot read ${file} (${e instanceof Error ? e.message : String(e)}); pass a report written by \`scion run --report FILE\`.`);
  }
  return parseRunReport(text, file);
}

/** The reports of CI shards (files written by `run --report`) as one report. */
export async function mergeReportFiles(files: readonly string[], cwd: string = process.cwd()): Promise<RunReport> {
  const reports: RunReport[] = [];
  for (const f of files) reports.push(await readReport(f, cwd));
  return mergeParsed(reports);
}
