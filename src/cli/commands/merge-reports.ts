// `scion merge-reports a.json b.json …`: one report and one PR body from the shards of a CI matrix.
import { resolve } from 'node:path';
import { renderJson, renderPrBody } from '../../api/output.js';
import { mergeReportFiles } from '../../api/reports.js';
import { redactDeep } from '../../api/text.js';
import type { Args } from '../args.js';
import { writeOutputFile } from '../files.js';
import { redactorOf, type CliIo } from '../io.js';

export async function run(io: CliIo, a: Args): Promise<number> {
  const files = Array.isArray(a['reports']) ? a['reports'].map(String) : [String(a['reports'])];
  const redact = redactorOf(io);
  const merged = redactDeep(await mergeReportFiles(files, io.cwd), redact);
  const write = (f: unknown, text: string) => writeOutputFile(resolve(io.cwd, String(f)), text, redact);
  if (a['report']) await write(a['report'], renderJson(merged));
  if (a['prBody']) await write(a['prBody'], renderPrBody(merged));
  if (a['html']) await write(a['html'], (await import('../../api/html.js')).renderHtml(merged));
  if (!a['report'] && !a['prBody'] && !a['html']) io.stdout.write(renderJson(merged));
  return merged.jobs.some((j) => j.status === 'failed') ? 1 : 0;
}
