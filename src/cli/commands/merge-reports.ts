// `scion merge-reports a.json b.json …`: one report and one PR body from the shards of a CI matrix.
import { readFile } from 'node:fs/promises';
import { usageError } from '../../errors.js';
import { resolve } from 'node:path';
import { renderHtml } from '../../report/html.js';
import { renderJson } from '../../report/json.js';
import { renderPrBody } from '../../report/markdown.js';
import { mergeReports } from '../../model/merge.js';
import { parseRunReport } from '../../model/parse.js';
import type { RunReport } from '../../model/types.js';
import { writeOutputFile } from '../files.js';
import { redactorOf, type CliIo } from '../io.js';
import { redactDeep } from '../../redact.js';

export async function mergeReportsCmd(io: CliIo, files: readonly string[], o: { report?: string; prBody?: string; html?: string }): Promise<number> {
  const reports: RunReport[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = await readFile(resolve(io.cwd, f), 'utf8');
    } catch (e) {
      throw usageError(`Cannot read ${f} (${e instanceof Error ? e.message : String(e)}); pass report files written by scion run --report.`);
    }
    reports.push(parseRunReport(text, f));
  }
  const merged = redactDeep(mergeReports(reports), redactorOf(io));
  const redact = redactorOf(io);
  const write = (f: string, text: string) => writeOutputFile(resolve(io.cwd, f), text, redact);
  if (o.report) await write(o.report, renderJson(merged));
  if (o.prBody) await write(o.prBody, renderPrBody(merged));
  if (o.html) await write(o.html, renderHtml(merged));
  if (!o.report && !o.prBody && !o.html) io.stdout.write(renderJson(merged));
  return merged.jobs.some((j) => j.status === 'failed') ? 1 : 0;
}
