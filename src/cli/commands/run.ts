// `scion run` and `scion plan`: load, run, write the outputs asked for, summarise, exit 0/1.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { githubOutputs } from '../../github/outputs.js';
import { renderHtml } from '../../report/html.js';
import { renderJson } from '../../report/json.js';
import { renderPrBody, renderSummary } from '../../report/markdown.js';
import { renderPlanDiff, renderSummaryText } from '../../report/terminal.js';
import type { RunReport } from '../../report/types.js';
import { runRecipes } from '../../runner/run-recipes.js';
import { useColor, type CliIo } from '../io.js';
import { loadAll } from '../load.js';
import { parseShard, type RunFlags } from '../options.js';
import { makeProgress } from '../progress.js';

export async function runCmd(io: CliIo, recipes: readonly string[], flags: RunFlags, mode: 'run' | 'plan'): Promise<number> {
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (shard === null) throw new UsageError(`--shard ${flags.shard} is not I/N with 1 <= I <= N (for example --shard 2/4).`);
  if (flags.concurrency !== undefined && !(Number.isInteger(flags.concurrency) && flags.concurrency >= 1)) {
    throw new UsageError(`--concurrency ${flags.concurrency} must be a whole number of at least 1.`);
  }
  const loaded = await loadAll(recipes, io.cwd);
  const dryRun = mode === 'plan' || flags.dryRun;
  const live = io.stderr.isTTY === true && !io.env['CI'];
  const progress = makeProgress(io, { live, quiet: false });
  let report: RunReport;
  try {
    report = await runRecipes(
      loaded,
      {
        repo: resolve(io.cwd, flags.repo),
        ...(flags.base !== undefined ? { base: flags.base } : {}),
        dryRun,
        ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
        ...(shard ? { shard } : {}),
        keepWorktrees: flags.keepWorktrees,
        force: flags.force,
        noCache: !flags.cache,
      },
      { env: io.env, onEvent: (e) => progress.onEvent(e) },
    );
  } finally {
    await progress.done();
  }

  const out = (f: string) => resolve(io.cwd, f);
  if (flags.report) await writeOut(out(flags.report), renderJson(report));
  if (flags.prBody) await writeOut(out(flags.prBody), renderPrBody(report));
  if (flags.html) await writeOut(out(flags.html), renderHtml(report));
  await githubOutputs(io.env, {
    report,
    reportPath: flags.report ? out(flags.report) : null,
    prBodyPath: flags.prBody ? out(flags.prBody) : null,
    summary: renderSummary(report),
  });

  if (flags.json) io.stdout.write(renderJson(report));
  else {
    const color = useColor(io);
    if (dryRun) {
      for (const job of report.jobs) {
        if (job.files.length > 0) io.stdout.write(renderPlanDiff(job.files, { color }));
      }
    }
    io.stdout.write(renderSummaryText(report, { color }));
  }
  return report.jobs.some((j) => j.status === 'failed') ? 1 : 0;
}

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
