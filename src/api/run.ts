// `run` and `plan`: recipes over one repository, or over a campaign's repositories, then (when asked)
// their branches published through the one publishing path. Every option, the recipes, the list of
// repositories and every publishing target are checked before anything runs or is pushed; an
// interrupt (the signal) still ends with a report. Publishing (hosts, pull requests, owners) loads
// only when the run publishes.
import { resolve } from 'node:path';
import { closeRepo, openRepo, type Repo } from '../git/index.js';
import type { TargetSettings } from '../publish/repository.js';
import { runRecipes } from '../runner/run-recipes.js';
import { loadRecipeFiles, type LoadedRecipe } from './recipes.js';
import { checkRunOptions, publishSettingsFor, runnerOptionsOf, tracked, type RunOptions, type RunResult } from './run-options.js';

export { checkRunOptions, type PublishOptions, type RepositoriesOptions, type RunOptions, type RunResult } from './run-options.js';

/** Runs recipes (see RunOptions); the report and what publishing said. Throws `usage`, `recipe` or `plan` errors before anything runs. */
export async function run(o: RunOptions): Promise<RunResult> {
  checkRunOptions(o);
  if (o.repositories !== undefined) return (await import('./campaign.js')).runCampaignOf(o, o.repositories);
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const settings = o.publish === undefined ? null : publishSettingsFor(o, o.publish);
  const repoDir = resolve(cwd, o.repo ?? '.');
  // Where the branches go and who gets the pull requests, resolved before anything runs.
  const repo = settings === null ? null : await openRepo(repoDir);
  try {
    const publishing = repo === null || settings === null ? null : await publishingOf(repo, o.publish!.remote, settings);
    const loaded = await loadRecipeFiles(o.recipes, cwd);
    let report = await tracked(o, (onEvent) => runRecipes(loaded, { repo: repoDir, ...runnerOptionsOf(o) }, { env, onEvent }), repoDir);
    let publishError: string | null = null;
    // An interrupted run publishes nothing: the user asked it to stop.
    if (publishing !== null && settings !== null && o.signal?.aborted !== true) {
      const done = await publishing.publish(report, publishing.target, { ...settings, recipes: loaded.map((l) => l.recipe) });
      report = done.report;
      publishError = done.error;
    }
    return { report, publishError, interrupted: o.signal?.aborted === true };
  } finally {
    if (repo !== null) closeRepo(repo);
  }
}

/** Where a publishing run's branches go, checked before anything runs: the publishing path loads only then. */
async function publishingOf(repo: Repo, remote: string, settings: TargetSettings) {
  const { publishRepository, requireTarget } = await import('../publish/repository.js');
  return { target: requireTarget({ repo, remote, url: null }, settings), publish: publishRepository };
}

/** `run` with dryRun: computes everything and writes nothing; agent steps only say what they would ask and what it may cost. */
export function plan(o: Omit<RunOptions, 'dryRun' | 'publish'>): Promise<RunResult> {
  return run({ estimateAgent: true, ...o, dryRun: true });
}

export type { LoadedRecipe };
