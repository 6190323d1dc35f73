// A campaign: one run's recipes in many repositories (a list, or what discovery finds), each cloned
// into the cache, its jobs run, and (when asked) its branches published through the one publishing
// path back to its own URL. The list, the recipes and every repository's publishing target are checked
// before the first clone.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { closeRepo, openRepo } from '../git/index.js';
import { cloneLimit } from '../campaign/clone-limit.js';
import type { DiscoverQuery } from '../campaign/discover.js';
import { localRepoProblem } from '../campaign/locate.js';
import { runCampaign, type CampaignRepo } from '../campaign/run-campaign.js';
import { parseRepoList, type RepoTarget } from '../campaign/targets.js';
import type { Env } from '../host/remote.js';
import { publishCampaign } from '../publish/campaign.js';
import { requireTarget, type TargetSettings } from '../publish/repository.js';
import { loadRecipeFiles } from './recipes.js';
import { cacheDirOf } from './repositories.js';
import { publishSettingsFor, runnerOptionsOf, tracked, type RepositoriesOptions, type RunOptions, type RunResult } from './run-options.js';

export type { RepoEvent } from '../campaign/run-campaign.js';
export type { DiscoverQuery } from '../campaign/discover.js';
export type { RepositoriesOptions } from './run-options.js';

export async function runCampaignOf(o: RunOptions, r: RepositoriesOptions): Promise<RunResult> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  // Everything that can be wrong with the options, the list and the recipes is found before a clone.
  cloneLimit(env);
  const loaded = await loadRecipeFiles(o.recipes, cwd);
  const targets = 'list' in r ? await listedTargets(r.list, cwd, env, r.readStdin) : await discovered(r.discover, env, o.note);
  if (targets.length === 0) o.note?.('no repository found: nothing to run.');
  const settings = o.publish === undefined ? null : { ...publishSettingsFor(o, o.publish), recipes: loaded.map((l) => l.recipe) };
  if (settings !== null) await checkPublishing(targets, o.publish!.remote, settings);

  let repos: readonly CampaignRepo[] = [];
  let report = await tracked(
    o,
    (onEvent) =>
      runCampaign(
        loaded,
        { targets, cacheDir: cacheDirOf(r.cacheDir, cwd, env), ...runnerOptionsOf(o), ...(r.onRepo ? { onRepo: r.onRepo } : {}) },
        { env, onEvent },
      ).then((c) => {
        repos = c.repos;
        return c.report;
      }),
    null,
  );
  let publishError: string | null = null;
  // As for one repository: nothing is published after an interrupt, and one during publishing stops it.
  if (settings !== null && o.signal?.aborted !== true) {
    const p = o.publish!;
    const done = await publishCampaign(report, {
      repos: repos.map((x) => ({ id: x.target.id, dir: x.dir, url: x.target.url, branch: x.branch })),
      env,
      remote: p.remote,
      push: { force: o.force === true, pushFailed: p.pushFailed === true },
      pullRequests: p.pullRequests === true,
      recipes: settings.recipes,
      ...(settings.extra ? { extra: settings.extra } : {}),
      ...(p.base !== undefined ? { base: p.base } : {}),
      reopen: p.reopen === true,
      intervalMs: settings.intervalMs,
      ...(p.hostOptions ? { hostOptions: p.hostOptions } : {}),
      ...(o.say ? { say: o.say } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    report = done.report;
    publishError = done.error;
  }
  return { report, publishError, interrupted: o.signal?.aborted === true };
}

/** The repositories a list names (`-`: standard input); every line scion cannot read is a usage problem. */
async function listedTargets(list: string, cwd: string, env: Env, readStdin?: () => Promise<string>): Promise<RepoTarget[]> {
  const fromStdin = list === '-';
  const file = fromStdin ? null : resolve(cwd, list);
  let text: string;
  if (file === null) {
    if (!readStdin)
      throw usageError(
        'A list of `-` (the `repositories.list` option) reads the repositories from standard input, and there is none here; name a file instead.',
        [],
        'repos',
      );
    text = await readStdin();
  } else {
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw usageError(`Cannot read the repository list ${list} (${(e as NodeJS.ErrnoException).code ?? String(e)}); pass a file with one repository a line.`);
    }
  }
  const shown = fromStdin ? '<stdin>' : list;
  const githubServer = env['GITHUB_SERVER_URL'] ? { githubServer: env['GITHUB_SERVER_URL'] } : {};
  const parsed = parseRepoList(text, { cwd: file === null ? cwd : dirname(file), ...githubServer });
  // Only what is written wrong stops the run here; a local path that is not there fails its own jobs.
  const problems = parsed.problems;
  if (problems.length > 0) {
    const lines = problems.length === 1 ? 'a line' : `${problems.length} lines`;
    throw usageError(
      `The repository list ${shown} has ${lines} scion cannot read; fix ${problems.length === 1 ? 'it' : 'them'} (nothing was run):`,
      problems.map((p) => p.replace(/^line (\d+): /, `${shown}:$1: `)),
    );
  }
  if (parsed.targets.length === 0) throw usageError(`The repository list ${shown} names no repository; write one a line (https URL, owner/name or a path).`);
  return [...parsed.targets];
}

/** What discovery finds; a host that refuses or cannot be reached is a `host` error (exit 1, not a bug). */
async function discovered(q: DiscoverQuery, env: Env, note?: (line: string) => void): Promise<RepoTarget[]> {
  // Discovery (and the host clients it needs) is loaded only for these options.
  const { discoverTargets } = await import('../campaign/discover.js');
  return discoverTargets(q, { env, ...(note ? { say: note } : {}) });
}

/**
 * Publishing needs, for every repository, somewhere to push and a host with a token: a local path
 * needs its remote, a URL its host's token. Checked before any clone (a `usage` error naming the repository).
 */
async function checkPublishing(targets: readonly RepoTarget[], remote: string, settings: TargetSettings): Promise<void> {
  for (const t of targets) {
    if (t.url !== null) {
      if (!settings.pullRequests) continue;
      // A clone is made later; its host and token can be checked from the URL alone.
      const { hostAtUrl } = await import('../host/open.js');
      const host = hostAtUrl(t.url, 'origin', settings.env, settings.hostOptions);
      if (!host.ok) throw usageError(host.error.message);
      continue;
    }
    // A path that is no repository has nothing to publish: its jobs fail when the run reaches it.
    if ((await localRepoProblem(t.path!)) !== null) continue;
    const repo = await openRepo(t.path!, { env: settings.env });
    try {
      requireTarget({ repo, remote, url: null }, settings, t.id);
    } finally {
      closeRepo(repo);
    }
  }
}
