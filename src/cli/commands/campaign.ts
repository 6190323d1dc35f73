// `scion run|plan recipe.yaml --repos FILE | --github-org ORG | --github-search Q | --gitlab-group G`
// flags → targets and campaign options, clone progress → lines, then the same outputs and
// exit status as a run in one repository. The work is src/campaign (clones, jobs) and
// src/publish/campaign.ts (pushes and pull requests per repository).
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { defaultCacheDir } from '../../campaign/clone-cache.js';
import { runCampaign, type CampaignRepo, type RepoEvent } from '../../campaign/run.js';
import type { DiscoverQuery } from '../../campaign/discover.js';
import { parseRepoList, type RepoTarget } from '../../campaign/targets.js';
import { cloneLimit } from '../../campaign/clone-limit.js';
import { localTargetProblems } from '../../campaign/locate.js';
import { UsageError } from '../../errors.js';
import { closeRepo, openRepo } from '../../git/index.js';
import type { RunReport } from '../../model/types.js';
import { publishCampaign } from '../../publish/campaign.js';
import { HostError } from '../../host/types.js';
import { hostForUrl, openHost } from '../../host/open.js';
import { resolvePushTarget } from '../../publish/push.js';
import type { CliIo } from '../io.js';
import { RunTracker, settle } from '../interrupt.js';
import { loadAll } from '../load.js';
import type { RunFlags } from '../options.js';
import { makeProgress, progressMode } from '../progress.js';
import { labelsOf } from './pr.js';
import { runOptionsOf, writeOutcome } from './run.js';
import { hostOptionsFor } from '../host-options.js';

export async function campaignCmd(
  io: CliIo,
  recipeFiles: readonly string[],
  flags: RunFlags,
  mode: 'run' | 'plan',
  dryRun: boolean,
  shard: { index: number; count: number } | undefined,
): Promise<number> {
  if (flags.push === undefined) {
    if (flags.pushFailed) throw new UsageError('--push-failed only says which branches --push pushes; add --push [REMOTE].');
    if (flags.pr) throw new UsageError('--pr opens pull requests for the branches --push pushed; add --push [REMOTE].');
  } else if (dryRun) {
    throw new UsageError('--push cannot go with plan or --dry-run: a dry run writes no branch to push; drop one of them.');
  }
  if (flags.prInterval !== undefined && !(Number.isInteger(flags.prInterval) && flags.prInterval >= 0)) {
    throw new UsageError(`--pr-interval ${flags.prInterval} must be a whole number of milliseconds, 0 or more.`);
  }
  // Everything that can be wrong with the flags, the list and the recipes is found before a clone.
  cloneLimit(io.env);
  const loaded = await loadAll(recipeFiles, io.cwd);
  let targets: RepoTarget[];
  try {
    targets = await targetsOf(io, flags);
  } catch (e) {
    if (!(e instanceof DiscoveryFailed)) throw e;
    io.stderr.write(`scion: ${e.message}\n`);
    return 1;
  }
  if (targets.length === 0) io.stderr.write('scion: no repository found: nothing to run.\n');
  if (flags.push !== undefined) await checkPublishing(io, targets, flags);
  const cacheDir = flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : defaultCacheDir(io.env);

  const display = progressMode(io);
  const progress = makeProgress(io, display);
  const tracker = new RunTracker();
  let repos: readonly CampaignRepo[] = [];
  let report: RunReport;
  try {
    const run = runCampaign(
      loaded,
      {
        targets,
        cacheDir,
        ...runOptionsOf(io, flags, dryRun, shard, mode),
        // The live view draws jobs; plain output (CI logs) also says which repository is fetched.
        ...(display === 'plain' ? { onRepo: (e: RepoEvent) => io.stderr.write(`scion: ${repoLine(e)}\n`) } : {}),
      },
      {
        env: io.env,
        onEvent: (e) => {
          tracker.onEvent(e);
          progress.onEvent(e);
        },
      },
    ).then((c) => {
      repos = c.repos;
      return c.report;
    });
    report = await settle(run, io.signal, () => tracker.report(null, dryRun));
  } finally {
    await progress.done();
  }
  let prFailed = false;
  // As for one repository: nothing is published after an interrupt, and one during publishing stops it.
  if (flags.push !== undefined && io.signal?.aborted !== true) {
    const say = (line: string) => (flags.json ? io.stderr : io.stdout).write(`${line}\n`);
    const done = await publishCampaign(report, {
      repos: repos.map((r) => ({ id: r.target.id, dir: r.dir, url: r.target.url, branch: r.branch })),
      env: io.env,
      remote: flags.push,
      push: { force: flags.force, pushFailed: flags.pushFailed ?? false },
      pullRequests: flags.pr === true,
      recipes: loaded.map((l) => l.recipe),
      extra: { draft: flags.draft === true, labels: labelsOf(flags.label) },
      ...(flags.prBase !== undefined ? { base: flags.prBase } : {}),
      reopen: flags.reopen === true,
      intervalMs: flags.prInterval ?? 1000,
      hostOptions: hostOptionsFor(io, flags),
      say,
      ...(io.signal ? { signal: io.signal } : {}),
    });
    report = done.report;
    if (done.error !== null) {
      for (const line of done.error.split('\n')) io.stderr.write(`scion: ${line}\n`);
      prFailed = true;
    }
  }
  return writeOutcome(io, report, flags, dryRun, { interrupted: io.signal?.aborted === true, prFailed });
}

function repoLine(e: RepoEvent): string {
  switch (e.type) {
    case 'clone-start':
      return `${e.cached ? 'fetching' : 'cloning'} ${e.repo}`;
    case 'clone-end':
      return `${e.repo}: ${e.repaired ? `the cached clone was damaged (${e.repaired}): cloned anew` : e.action === 'current' ? 'clone is current' : e.action} at ${e.sha.slice(0, 12)}`;
    case 'clone-failed':
      return `${e.repo}: ${e.message}`;
  }
}

/** The campaign's repositories: a list file (or stdin), or what discovery finds. */
async function targetsOf(io: CliIo, flags: RunFlags): Promise<RepoTarget[]> {
  if (flags.repos !== undefined) {
    const fromStdin = flags.repos === '-';
    const file = fromStdin ? null : resolve(io.cwd, flags.repos);
    let text: string;
    if (file === null) {
      if (!io.readStdin) throw new UsageError('--repos - reads the list from standard input, and there is none here; pass a file instead.');
      text = await io.readStdin();
    } else {
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        throw new UsageError(`Cannot read the repository list ${flags.repos} (${(e as NodeJS.ErrnoException).code ?? String(e)}); pass a file with one repository a line.`);
      }
    }
    const shown = fromStdin ? '<stdin>' : flags.repos;
    const parsed = parseRepoList(text, { cwd: file === null ? io.cwd : dirname(file), ...(io.env['GITHUB_SERVER_URL'] ? { githubServer: io.env['GITHUB_SERVER_URL'] } : {}) });
    const { targets } = parsed;
    const problems = [...parsed.problems, ...(await localTargetProblems(parsed))].sort((a, b) => lineOf(a) - lineOf(b));
    if (problems.length > 0) {
      throw new UsageError(
        `The repository list ${shown} has ${problems.length === 1 ? 'a line' : `${problems.length} lines`} scion cannot read; fix ${problems.length === 1 ? 'it' : 'them'} (nothing was run):`,
        problems.map((p) => p.replace(/^line (\d+): /, `${shown}:$1: `)),
      );
    }
    if (targets.length === 0) throw new UsageError(`The repository list ${shown} names no repository; write one a line (https URL, owner/name or a path).`);
    return [...targets];
  }
  // Discovery (and the host clients it needs) is loaded only for these flags.
  const { discoverTargets } = await import('../../campaign/discover.js');
  const q: DiscoverQuery = {
    ...(flags.githubOrg !== undefined ? { githubOrg: flags.githubOrg } : {}),
    ...(flags.topic !== undefined ? { topic: flags.topic } : {}),
    ...(flags.includeForks ? { includeForks: true } : {}),
    ...(flags.includeArchived ? { includeArchived: true } : {}),
    ...(flags.githubSearch !== undefined ? { githubSearch: flags.githubSearch } : {}),
    ...(flags.gitlabGroup !== undefined ? { gitlabGroup: flags.gitlabGroup } : {}),
  };
  try {
    return await discoverTargets(q, { env: io.env, say: (line) => io.stderr.write(`scion: ${line}\n`) });
  } catch (e) {
    // The host refused or could not be reached: one sentence, exit 1 (not a bug, not bad usage).
    if (e instanceof HostError) throw new DiscoveryFailed(e.message);
    throw e;
  }
}

const lineOf = (problem: string) => Number(/^line (\d+):/.exec(problem)?.[1] ?? 0);

/** Discovery's host failure: its one sentence is printed as it is, exit 1. */
class DiscoveryFailed extends Error {}

/**
 * --push and --pr need, for every repository, somewhere to push and a host with a token: a local
 * path needs its remote, a URL its host's token. Checked before any clone (exit 2).
 */
async function checkPublishing(io: CliIo, targets: readonly RepoTarget[], flags: RunFlags): Promise<void> {
  const remote = flags.push ?? 'origin';
  for (const t of targets) {
    if (t.url !== null) {
      if (flags.pr) hostForUrl(t.url, 'origin', io.env, hostOptionsFor(io, flags));
      continue;
    }
    const repo = await openRepo(t.path!, { env: io.env });
    try {
      resolvePushTarget(repo, remote, io.env);
      if (flags.pr) openHost(repo, remote, io.env, hostOptionsFor(io, flags));
    } catch (e) {
      if (e instanceof UsageError) throw new UsageError(`${t.id}: ${e.message}`, e.problems);
      throw e;
    }
    finally {
      closeRepo(repo);
    }
  }
}
