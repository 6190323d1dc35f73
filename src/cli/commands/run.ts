// `scion run` and `scion plan`: flags → the API's run options (one repository, or a campaign's), the
// run's progress → the live view or plain lines, and its result → the outputs asked for, the summary
// and the exit status. The flags were checked by yargs (flags/rules.ts) before this module was loaded.
import { resolve } from 'node:path';
import { run, type RunOptions, type RunResult } from '../../api/run.js';
import type { RepoEvent, RepositoriesOptions } from '../../api/campaign.js';
import type { RunEvent } from '../../api/output.js';
import type { Args } from '../args.js';
import { labelsOf, resolveShard } from '../flags/rules.js';
import { CAMPAIGN_SOURCES, type RunFlags } from '../flags/run-options.js';
import { inFlagWords } from '../flags/words.js';
import { hostOptionsFor } from '../../api/host-options.js';
import type { CliIo } from '../io.js';
import { writeOutcome } from '../outcome.js';
import { makeProgress, progressMode, type Progress } from '../progress.js';

export const runCommand = (io: CliIo, a: Args) => runOrPlan(io, a, 'run');
export const planCommand = (io: CliIo, a: Args) => runOrPlan(io, a, 'plan');

async function runOrPlan(io: CliIo, a: Args, mode: 'run' | 'plan'): Promise<number> {
  const flags = a as unknown as RunFlags;
  const dryRun = mode === 'plan' || flags.dryRun === true;
  const display = progressMode(io);
  // The display starts with the run's first event: a usage mistake found before it draws nothing.
  let progress: Progress | null = null;
  // With --json, stdout carries the report alone.
  const say = (line: string) => (flags.json ? io.stderr : io.stdout).write(`${line}\n`);
  let result: RunResult;
  try {
    const onEvent = (e: RunEvent) => (progress ??= makeProgress(io, display)).onEvent(e);
    result = await run(runOptionsOf(io, a, flags, { dryRun, mode, plain: display === 'plain' }, say, onEvent));
  } finally {
    await (progress as Progress | null)?.done();
  }
  if (result.publishError !== null) {
    for (const line of result.publishError.split('\n')) io.stderr.write(`scion: ${inFlagWords(line, mode)}\n`);
  }
  return writeOutcome(io, result.report, flags, dryRun, { interrupted: result.interrupted, prFailed: result.publishError !== null, command: mode });
}

function runOptionsOf(
  io: CliIo,
  a: Args,
  flags: RunFlags,
  { dryRun, mode, plain }: { readonly dryRun: boolean; readonly mode: 'run' | 'plan'; readonly plain: boolean },
  say: (line: string) => void,
  onEvent: NonNullable<RunOptions['onEvent']>,
): RunOptions {
  const shard = flags.shard === undefined ? null : resolveShard(flags.shard, io.env);
  const repositories = repositoriesOf(io, flags, plain);
  return {
    recipes: Array.isArray(a['recipe']) ? a['recipe'].map(String) : [String(a['recipe'])],
    cwd: io.cwd,
    ...(repositories === null ? { repo: resolve(io.cwd, flags.repo ?? '.') } : { repositories }),
    ...(flags.base !== undefined ? { base: flags.base } : {}),
    ...(flags.job !== undefined && flags.job.length > 0 ? { jobs: flags.job.map(String) } : {}),
    ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    ...(shard !== null ? { shard } : {}),
    dryRun,
    keepWorktrees: flags.keepWorktrees === true,
    force: flags.force,
    noCache: !flags.cache,
    ...(flags.push !== undefined
      ? {
          publish: {
            remote: flags.push,
            pushFailed: flags.pushFailed === true,
            pullRequests: flags.pr === true,
            draft: flags.draft === true,
            labels: labelsOf(flags.label),
            ...(flags.prBase !== undefined ? { base: flags.prBase } : {}),
            reopen: flags.reopen === true,
            intervalMs: flags.prInterval ?? 1000,
            hostOptions: hostOptionsFor(io, flags),
          },
        }
      : {}),
    ...(flags.sample !== undefined ? { sample: flags.sample } : {}),
    ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
    // `plan` prints what the model would be asked and what it may cost: it sends no request.
    ...(mode === 'plan' ? { estimateAgent: true } : {}),
    env: io.env,
    ...(io.signal ? { signal: io.signal } : {}),
    onEvent,
    say,
    note: (line) => io.stderr.write(`scion: ${line}\n`),
  };
}

/** A campaign's repositories from --repos, --github-org, --github-search or --gitlab-group; null for one repository. */
function repositoriesOf(io: CliIo, flags: RunFlags, plain: boolean): RepositoriesOptions | null {
  if (!CAMPAIGN_SOURCES.some((n) => flags[camel(n)] !== undefined)) return null;
  const more = {
    ...(flags.cacheDir !== undefined ? { cacheDir: resolve(io.cwd, flags.cacheDir) } : {}),
    // The live view draws jobs; plain output (CI logs) also says which repository is fetched.
    ...(plain ? { onRepo: (e: RepoEvent) => io.stderr.write(`scion: ${repoLine(e)}\n`) } : {}),
  };
  if (flags.repos !== undefined) return { list: flags.repos, ...(io.readStdin ? { readStdin: io.readStdin } : {}), ...more };
  return {
    discover: {
      ...(flags.githubOrg !== undefined ? { githubOrg: flags.githubOrg } : {}),
      ...(flags.topic !== undefined ? { topic: flags.topic } : {}),
      ...(flags.includeForks ? { includeForks: true } : {}),
      ...(flags.includeArchived ? { includeArchived: true } : {}),
      ...(flags.githubSearch !== undefined ? { githubSearch: flags.githubSearch } : {}),
      ...(flags.gitlabGroup !== undefined ? { gitlabGroup: flags.gitlabGroup } : {}),
    },
    ...more,
  };
}

function repoLine(e: RepoEvent): string {
  switch (e.type) {
    case 'clone-start':
      return `${e.cached ? 'fetching' : 'cloning'} ${e.repo}`;
    case 'clone-end': {
      const done = e.repaired ? `the cached clone was damaged (${e.repaired}): cloned anew` : e.action === 'current' ? 'clone is current' : e.action;
      return `${e.repo}: ${done} at ${e.sha.slice(0, 12)}`;
    }
    case 'clone-failed':
      return `${e.repo}: ${e.message}`;
  }
}

/** `github-org` → `githubOrg`: the key yargs gives the flag in RunFlags. */
function camel(flag: string): keyof RunFlags {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof RunFlags;
}
