// A run's outputs (report, PR body, HTML, GitHub outputs, annotations, the summary, the diffs or the
// patch) and its exit status: the same for a run in one repository and for a campaign.
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  githubOutputs,
  planDiffRenderer,
  renderJson,
  renderPatch,
  renderPrBody,
  renderStat,
  renderSummary,
  renderSummaryText,
  runAnnotations,
  type RunReport,
} from '../api/output.js';
import { redactDeep } from '../api/text.js';
import { EXIT_INTERRUPTED } from './exit.js';
import { environmentError } from './environment.js';
import { writeOutputFile } from './files.js';
import type { RunFlags } from './flags/run-options.js';
import { inFlagWords } from './flags/words.js';
import { data, redactorOf, styled, useColor, type CliIo, type CliStream } from './io.js';

export async function writeOutcome(
  io: CliIo,
  given: RunReport,
  flags: RunFlags,
  dryRun: boolean,
  o: { readonly interrupted: boolean; readonly prFailed: boolean; readonly command: string },
): Promise<number> {
  const { interrupted, prFailed } = o;
  // The summary's errors and fixes name flags where the library named its options.
  const summary = (opts: Parameters<typeof renderSummaryText>[1]) => inFlagWords(renderSummaryText(report, opts), o.command);
  // One redaction pass over the report (its strings, before any renderer escapes them), and the
  // files and streams redact again at the edge.
  const redact = redactorOf(io);
  const report = redactDeep(given, redact);
  const out = (f: string) => resolve(io.cwd, f);
  if (flags.report) await writeOutputFile(out(flags.report), renderJson(report), redact);
  if (flags.prBody) await writeOutputFile(out(flags.prBody), renderPrBody(report), redact);
  if (flags.html) await writeOutputFile(out(flags.html), (await import('../api/html.js')).renderHtml(report), redact);
  await githubOutputs(
    io.env,
    {
      report,
      reportPath: flags.report ? out(flags.report) : null,
      prBodyPath: flags.prBody ? out(flags.prBody) : null,
      summary: renderSummary(report),
    },
    (path, data) => appendOutput(path, redact(data)),
  );

  // Under GitHub Actions these lines become annotations on the files verify complained about;
  // stdout stays the JSON or the patch alone when one of those was asked for.
  if (io.env['GITHUB_ACTIONS'] === 'true') {
    const lines = runAnnotations(report.jobs);
    if (lines.length > 0) (flags.json || flags.patch ? io.stderr : io.stdout).write(`${lines.join('\n')}\n`);
  }
  if (flags.json) io.stdout.write(renderJson(report));
  else if (flags.patch) {
    // stdout is the patch alone (`scion plan r.yaml --patch | git apply`); the rest goes to stderr.
    data(io.stdout).write(
      renderPatch(report, (job, file) => io.stderr.write(`scion: ${file.path} (${job.name}) has no text diff and is left out of the patch.\n`)),
    );
    styled(io.stderr).write(summary({ color: useColor(io, 'stderr', flags.color), ...widthOf(io.stderr) }));
  } else {
    const color = useColor(io, 'stdout', flags.color);
    if (flags.stat) {
      const stat = renderStat(report, { width: io.stdout.isTTY ? (io.stdout.columns ?? 80) : 80 });
      if (stat !== '') io.stdout.write(`${stat}\n`);
    } else if (dryRun) {
      // The highlighter and its grammars are loaded here, only when colour is on.
      const diff = await planDiffRenderer(
        report.jobs.flatMap((j) => j.files),
        { color, ...widthOf(io.stdout), env: io.env },
      );
      for (const job of report.jobs) {
        if (job.files.length > 0) styled(io.stdout).write(diff(job.files));
      }
    }
    styled(io.stdout).write(summary({ color, ...widthOf(io.stdout) }));
  }
  if (interrupted) return EXIT_INTERRUPTED;
  return prFailed || report.jobs.some((j) => j.status === 'failed') ? 1 : 0;
}

/** On a terminal the summary fits its width; elsewhere (a file, a CI log) it keeps plain columns. */
function widthOf(stream: CliStream): { width?: number } {
  return stream.isTTY === true ? { width: stream.columns || 80 } : {};
}

/** GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are appended to (the runner reads them after the step). */
async function appendOutput(path: string, data: string): Promise<void> {
  try {
    await appendFile(path, data, 'utf8');
  } catch (e) {
    throw environmentError(e, path, 'write') ?? e;
  }
}
