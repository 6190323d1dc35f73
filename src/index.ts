// scion's library API: what a program (or a module recipe) may import. Explicit names only; the
// modules behind them are internal.
import { UsageError } from './errors.js';
import { formatProblem, type Recipe, type RecipeInput } from './recipe/index.js';
import { duplicateRecipeName, parseRecipe } from './recipe/parse-recipe.js';
import { runRecipes as runLoaded, type LoadedRecipe } from './runner/run-recipes.js';
import type { RunContext, RunOptions } from './runner/types.js';
import type { RunReport } from './model/types.js';
import { plural } from './util/plural.js';

export { defineRecipe, loadRecipe, recipeJsonSchema, formatProblem, type Recipe, type RecipeInput, type Step, type TransformFn, type Problem } from './recipe/index.js';
export { parseRecipe, type ParseResult } from './recipe/parse-recipe.js';
export type { LoadedRecipe } from './runner/run-recipes.js';
/** A recipe step as written (the input form `defineRecipe` takes), before defaults are applied. */
export type StepInput = RecipeInput['steps'][number];
export { mergeReports } from './model/merge.js';
export { parseRunReport } from './model/parse.js';
export type { PushReport, PullRequestReport, PullRequestAction } from './model/types.js';
export {
  publishRun,
  pushReport,
  resolvePushTarget,
  publishPullRequests,
  pullRequestStatus,
  renderStatusTable,
  pruneBranches,
  describeJob,
  type PublishRunOptions,
  type PublishRunResult,
  type PushOptions,
  type PushTarget,
  type PullRequestOptions,
  type PullRequestsResult,
  type PrSettings,
  type StatusRow,
  type StatusJob,
  type PruneEntry,
  type PruneOptions,
  publishCampaign,
  type PublishCampaignOptions,
  type PublishCampaignResult,
} from './publish/index.js';
export {
  openHost,
  hostForUrl,
  GitHubHost,
  GitLabHost,
  HostError,
  type Host,
  type HostPull,
  type HostOptions,
  type GitHubOptions,
  type GitLabOptions,
  type ChecksState,
  type ReviewState,
  type MergeMethod,
} from './host/index.js';
// Campaigns (SPEC §9): one recipe across many repositories.
export { runCampaign, type CampaignOptions, type CampaignReport, type CampaignRepo } from './campaign/run.js';
export { parseRepoList, parseTarget, type RepoTarget, type ParsedTargets } from './campaign/targets.js';
export { discoverTargets, type DiscoverQuery, type DiscoverOptions } from './campaign/discover.js';
export { defaultCacheDir, ensureClone, type CachedClone, type CloneOptions } from './campaign/clone-cache.js';

/** A recipe to run: parsed (from loadRecipe) or as written (`defineRecipe({...})`); `file` names it in messages. */
export interface RecipeSource {
  readonly recipe: Recipe | RecipeInput;
  readonly file?: string;
}

function loaded(sources: readonly RecipeSource[]): LoadedRecipe[] {
  const out: LoadedRecipe[] = [];
  for (const [i, s] of sources.entries()) {
    const file = s.file ?? `<recipe ${i + 1}>`;
    const parsed = parseRecipe(s.recipe, file);
    if (!parsed.ok) throw new UsageError(`${file} is not a valid recipe (${plural(parsed.problems.length, 'problem')}).`, parsed.problems.map(formatProblem));
    out.push({ file, recipe: parsed.recipe });
  }
  const clash = duplicateRecipeName(out);
  if (clash !== null) throw new UsageError(clash);
  return out;
}

/** Run recipes against a repository: one report (SPEC §5) for all their jobs. */
export async function runRecipes(recipes: readonly RecipeSource[], options: RunOptions, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runLoaded(loaded(recipes), options, ctx);
}
export type { RunContext, RunEvent, RunOptions, PlannedJob } from './runner/types.js';
export type { RunReport, JobReport, JobStatus, CommitReport, FileReport, ErrorReport, SkipReport, Usage } from './model/types.js';
export {
  applyEdits,
  writeContent,
  editNotebook,
  editsEquivalent,
  decodeText,
  encodeText,
  makePatch,
  type Edit,
  type NotebookEdit,
  type FileChange,
  type FileInput,
  type EngineOptions,
  type EngineResult,
} from './core/index.js';
export { ERROR_KINDS, SEED_CODES, ScionError, UsageError, type ErrorKind, type Failure, type Result } from './errors.js';
export { renderJson } from './report/json.js';
export { renderPrBody, renderSummary } from './report/markdown.js';
export { renderHtml } from './report/html.js';

/** Run one loaded recipe against a repository; the JSON report (SPEC §5) as a value. */
export function runRecipe(recipe: RecipeSource, options: RunOptions, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runRecipes([recipe], options, ctx);
}

/** The same as runRecipe with dryRun: computes everything, writes nothing. */
export function planRecipe(recipe: RecipeSource, options: Omit<RunOptions, 'dryRun'>, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runRecipes([recipe], { ...options, dryRun: true }, ctx);
}
