// `scion run` and `scion plan`: load, run, write the outputs asked for, summarise, exit 0/1.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { closeRepo, openRepo, type Repo } from '../../git/index.js';
import { githubOutputs } from '../../github/outputs.js';
import { renderHtml } from '../../report/html.js';
import { renderJson } from '../../report/json.js';
import { renderPrBody, renderSummary } from '../../report/markdown.js';
import { renderPatch, renderStat } from '../../report/patch.js';
import { renderPlanDiff, renderSummaryText } from '../../report/terminal.js';
import type { RunReport } from '../../model/types.js';
import { runRecipes } from '../../runner/run-recipes.js';
import { useColor, type CliIo } from '../io.js';
import { loadAll } from '../load.js';
import { parseShard, type RunFlags } from '../options.js';
import { makeProgress } from '../progress.js';
import { pushReport, resolvePushTarget, type PushTarget } from '../push.js';
import { resolvePrTarget, runPullRequests, type PrTarget } from './pr.js';

export async function runCmd(io: CliIo, recipes: readonly string[], flags: RunFlags, mode: 'run' | 'plan'): Promise<number> {
  // The flags were checked by yargs (options.ts) before this handler was reached.
  const shard = flags.shard === undefined ? undefined : (parseShard(flags.shard) ?? undefined);
  const dryRun = mode === 'plan' || flags.dryRun === true;
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
  const repo = await openRepo(resolve(io.cwd, flags.repo));
  try {
    const push = resolvePushTarget(repo, flags.push, io.env);
    const pr = flags.pr ? resolvePrTarget(repo, io.env, flags.push, flags.prBase) : null;
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
        keepWorktrees: flags.keepWorktrees === true,
        ...(flags.job !== undefined && flags.job.length > 0 ? { jobs: flags.job.map(String) } : {}),
        force: flags.force,
        noCache: !flags.cache,
      },
      { env: io.env, onEvent: (e) => progress.onEvent(e) },
    );
  } finally {
    await progress.done();
  }

  let prFailed = false;
  if (remote) {
    // With --json, stdout carries the report alone.
    const say = (line: string) => (flags.json ? io.stderr : io.stdout).write(`${line}\n`);
    const steps = new Map(loaded.map(({ recipe }) => [recipe.name, recipe.steps.length + recipe.verify.length]));
    report = await pushReport(remote.repo, report, {
      target: remote.push,
      pushFailed: flags.pushFailed ?? false,
      force: flags.force,
      stepOf: (job) => steps.get(job.recipe) ?? 0,
      say,
    });
    if (remote.pr) {
      const done = await runPullRequests(io, remote.repo, remote.push, remote.pr, report, flags, loaded.map((l) => l.recipe), say);
      report = done.report;
      if (done.error !== null) {
        io.stderr.write(`scion: ${done.error}\n`);
        prFailed = true;
      }
    }
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
  else if (flags.patch) {
    // stdout is the patch alone (`scion plan r.yaml --patch | git apply`); the rest goes to stderr.
    io.stdout.write(
      renderPatch(report, (job, file) => io.stderr.write(`scion: ${file.path} (${job.name}) has no text diff and is left out of the patch.\n`)),
    );
    io.stderr.write(renderSummaryText(report, { color: useColor(io, 'stderr') }));
  } else {
    const color = useColor(io);
    if (flags.stat) {
      const stat = renderStat(report, { width: io.stdout.isTTY ? (io.stdout.columns ?? 80) : 80 });
      if (stat !== '') io.stdout.write(`${stat}\n`);
    } else if (dryRun) {
      for (const job of report.jobs) {
        if (job.files.length > 0) io.stdout.write(renderPlanDiff(job.files, { color }));
      }
    }
    io.stdout.write(renderSummaryText(report, { color }));
  }
  return prFailed || report.jobs.some((j) => j.status === 'failed') ? 1 : 0;
}

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
