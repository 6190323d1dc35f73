// `scion run` and `scion plan`: load, run, write the outputs asked for, summarise, exit 0/1.
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { closeRepo, openRepo, type Repo } from '../../git/index.js';
import { githubOutputs } from '../../github/outputs.js';
import { renderJson } from '../../report/json.js';
import { renderPrBody, renderSummary } from '../../report/markdown.js';
import { renderPatch, renderStat } from '../../report/patch.js';
import { planDiffRenderer, renderSummaryText } from '../../report/terminal.js';
import type { RunReport } from '../../model/types.js';
import { runRecipes } from '../../runner/run-recipes.js';
import type { RunOptions } from '../../runner/types.js';
import { environmentError, writeOutputFile } from '../files.js';
import { data, redactorOf, styled, useColor, type CliIo, type CliStream } from '../io.js';
import { redactDeep } from '../../redact.js';
import { runAnnotations } from '../../verify/annotations.js';
import { loadAll } from '../load.js';
import { CAMPAIGN_SOURCES, resolveShard, type RunFlags } from '../options.js';
import { RunTracker, settle } from '../interrupt.js';
import { EXIT_INTERRUPTED } from '../exit.js';
import { makeProgress, progressMode } from '../progress.js';
// Publishing (host clients, octokit) and the HTML renderer are imported only by runs that use them.
import type { PushTarget } from '../../publish/push.js';
import type { PrTarget } from './pr.js';

export async function runCmd(io: CliIo, recipes: readonly string[], flags: RunFlags, mode: 'run' | 'plan'): Promise<number> {
  // The flags were checked by yargs (options.ts) before this handler was reached.
  const shard = flags.shard === undefined ? undefined : resolveShard(flags.shard, io.env);
  const dryRun = mode === 'plan' || flags.dryRun === true;
  if (CAMPAIGN_SOURCES.some((n) => flags[camel(n)] !== undefined)) {
    return (await import('./campaign.js')).campaignCmd(io, recipes, flags, mode, dryRun, shard);
  }
  // Push and PR settings are checked before anything runs: a bad remote or a missing token is exit 2.
  const remote = await prepareRemote(io, flags, dryRun);
  try {
    return await runAndPublish(io, recipes, flags, mode, dryRun, shard, remote);
  } finally {
    if (remote) closeRepo(remote.repo);
  }
}

interface PreparedRemote {
  readonly repo: Repo;
  readonly push: PushTarget;
  readonly pr: PrTarget | null;
}

async function prepareRemote(io: CliIo, flags: RunFlags, dryRun: boolean): Promise<PreparedRemote | null> {
  if (flags.push === undefined) {
    if (flags.pushFailed) throw new UsageError('--push-failed only says which branches --push pushes; add --push [REMOTE].');
    if (flags.pr) throw new UsageError('--pr opens pull requests for the branches --push pushed; add --push [REMOTE].');
    return null;
  }
  if (dryRun) throw new UsageError('--push cannot go with plan or --dry-run: a dry run writes no branch to push; drop one of them.');
  const repo = await openRepo(resolve(io.cwd, flags.repo ?? '.'));
  try {
    const push = (await import('../../publish/push.js')).resolvePushTarget(repo, flags.push, io.env);
    const pr = flags.pr ? (await import('./pr.js')).resolvePrTarget(repo, io, flags.push, flags.prBase, flags) : null;
    return { repo, push, pr };
  } catch (e) {
    closeRepo(repo);
    throw e;
  }
}

async function runAndPublish(
  io: CliIo,
  recipes: readonly string[],
  flags: RunFlags,
  mode: 'run' | 'plan',
  dryRun: boolean,
  shard: { index: number; count: number } | undefined,
  remote: PreparedRemote | null,
): Promise<number> {
  const loaded = await loadAll(recipes, io.cwd);
  const progress = makeProgress(io, progressMode(io));
  const tracker = new RunTracker();
  const repoDir = resolve(io.cwd, flags.repo ?? '.');
  let report: RunReport;
  try {
    const run = runRecipes(
      loaded,
      {
        repo: repoDir,
        ...runOptionsOf(io, flags, dryRun, shard, mode),
      },
      {
        env: io.env,
        onEvent: (e) => {
          tracker.onEvent(e);
          progress.onEvent(e);
        },
      },
    );
    report = await settle(run, io.signal, () => tracker.report(repoDir, dryRun));
  } finally {
    await progress.done();
  }
  let prFailed = false;
  // An interrupted run pushes nothing: the user asked it to stop. An interrupt during publishing
  // stops it before the next push or request (the signal goes with them).
  if (remote && io.signal?.aborted !== true) {
    // With --json, stdout carries the report alone.
    const say = (line: string) => (flags.json ? io.stderr : io.stdout).write(`${line}\n`);
    const steps = new Map(loaded.map(({ recipe }) => [recipe.name, recipe.steps.length + recipe.verify.length]));
    report = await (await import('../../publish/push.js')).pushReport(remote.repo, report, {
      target: remote.push,
      pushFailed: flags.pushFailed ?? false,
      force: flags.force,
      stepOf: (job) => steps.get(job.recipe) ?? 0,
      say,
      ...(io.signal ? { signal: io.signal } : {}),
    });
    if (remote.pr) {
      const done = await (await import('./pr.js')).runPullRequests(io, remote.repo, remote.push, remote.pr, report, flags, loaded.map((l) => l.recipe), say);
      report = done.report;
      if (done.error !== null) {
        io.stderr.write(`scion: ${done.error}\n`);
        prFailed = true;
      }
    }
  }

  return writeOutcome(io, report, flags, dryRun, { interrupted: io.signal?.aborted === true, prFailed });
}

/**
 * The run's outputs (report, PR body, HTML, GitHub outputs, annotations, the summary or the patch)
 * and its exit status: the same for a run in one repository and for a campaign.
 */
/** The run options the flags of `run`/`plan` give, whatever the repositories (one, or a campaign's). */
export function runOptionsOf(
  io: CliIo,
  flags: RunFlags,
  dryRun: boolean,
  shard: { index: number; count: number } | undefined,
  mode: 'run' | 'plan' = 'run',
): Omit<RunOptions, 'repo'> {
  return {
    ...(flags.base !== undefined ? { base: flags.base } : {}),
    dryRun,
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(shard ? { shard } : {}),
    keepWorktrees: flags.keepWorktrees === true,
    force: flags.force,
    noCache: !flags.cache,
    ...(flags.job !== undefined && flags.job.length > 0 ? { jobs: flags.job.map(String) } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    ...(flags.sample !== undefined ? { sample: flags.sample } : {}),
    ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
    // `plan` prints what the model would be asked and what it may cost: it sends no request.
    ...(mode === 'plan' ? { estimateAgent: true } : {}),
  };
}

export async function writeOutcome(
  io: CliIo,
  given: RunReport,
  flags: RunFlags,
  dryRun: boolean,
  o: { readonly interrupted: boolean; readonly prFailed: boolean },
): Promise<number> {
  const { interrupted, prFailed } = o;
  // One redaction pass over the report (its strings, before any renderer escapes them), and the
  // files and streams redact again at the edge.
  const redact = redactorOf(io);
  const report = redactDeep(given, redact);
  const out = (f: string) => resolve(io.cwd, f);
  if (flags.report) await writeOutputFile(out(flags.report), renderJson(report), redact);
  if (flags.prBody) await writeOutputFile(out(flags.prBody), renderPrBody(report), redact);
  if (flags.html) await writeOutputFile(out(flags.html), (await import('../../report/html.js')).renderHtml(report), redact);
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
    styled(io.stderr).write(renderSummaryText(report, { color: useColor(io, 'stderr', flags.color), ...widthOf(io.stderr) }));
  } else {
    const color = useColor(io, 'stdout', flags.color);
    if (flags.stat) {
      const stat = renderStat(report, { width: io.stdout.isTTY ? (io.stdout.columns ?? 80) : 80 });
      if (stat !== '') io.stdout.write(`${stat}\n`);
    } else if (dryRun) {
      // The highlighter and its grammars are loaded here, only when colour is on.
      const diff = await planDiffRenderer(report.jobs.flatMap((j) => j.files), { color, ...widthOf(io.stdout), env: io.env });
      for (const job of report.jobs) {
        if (job.files.length > 0) styled(io.stdout).write(diff(job.files));
      }
    }
    styled(io.stdout).write(renderSummaryText(report, { color, ...widthOf(io.stdout) }));
  }
  if (interrupted) return EXIT_INTERRUPTED;
  return prFailed || report.jobs.some((j) => j.status === 'failed') ? 1 : 0;
}

/** `github-org` → `githubOrg`: the key yargs gives the flag in RunFlags. */
function camel(flag: string): keyof RunFlags {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof RunFlags;
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
