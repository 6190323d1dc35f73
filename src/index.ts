// scion's library API: what a program (or a module recipe) may import. Explicit names only; the
// modules behind them are internal.
import { recipeError, type ScionError } from './errors.js';
import { formatProblem, type Recipe, type RecipeInput } from './recipe/index.js';
import { dirname, resolve } from 'node:path';
import { formatPath } from './recipe/problems.js';
import { duplicateRecipeName, parseRecipe } from './recipe/parse-recipe.js';
import { loadStructural } from './recipe/structural.js';
import { runRecipes as runLoaded, type LoadedRecipe } from './runner/run-recipes.js';
import type { RunContext, RunOptions } from './runner/types.js';
import type { RunReport } from './model/types.js';
import { plural } from './util/plural.js';

export {
  defineRecipe,
  loadRecipe,
  recipeJsonSchema,
  formatProblem,
  type Recipe,
  type RecipeInput,
  type Step,
  type TransformFn,
  type Problem,
} from './recipe/index.js';
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
  type Host,
  type HostPull,
  type HostOptions,
  type GitHubOptions,
  type GitLabOptions,
  type ChecksState,
  type ReviewState,
  type MergeMethod,
} from './host/index.js';
// Campaigns: one recipe across many repositories.
export { runCampaign, type CampaignOptions, type CampaignReport, type CampaignRepo } from './campaign/run-campaign.js';
export { parseRepoList, parseTarget, type RepoTarget, type ParsedTargets } from './campaign/targets.js';
export { discoverTargets, type DiscoverQuery, type DiscoverOptions } from './campaign/discover.js';
export { defaultCacheDir, ensureClone, type CachedClone, type CloneOptions } from './campaign/clone-cache.js';

// The API tier: one function per thing the command line does, each checking its options completely
// before it acts and returning values (nothing is printed). The CLI is these, mapped from flags.
export { run, plan, type RunOptions as RunCommandOptions, type RunResult, type PublishOptions } from './api/run.js';
export type { RepositoriesOptions, RepoEvent } from './api/campaign.js';
export { pullRequests, type PullRequestsOptions, type PullRequestsResult as PullRequestsCommandResult } from './api/publish.js';
export { status, type StatusOptions as StatusCommandOptions, type StatusResult } from './api/status.js';
export { branches, type BranchesOptions, type BranchesResult, type RepositoryBranches } from './api/branches.js';
export { worktrees, type WorktreesOptions, type WorktreeEntry } from './api/worktrees.js';
export { readReport, mergeReportFiles } from './api/reports.js';
export { validate, listRecipes, loadRecipeFiles, recipeSchema, type Validation } from './api/recipes.js';

/** A recipe to run: parsed (from loadRecipe) or as written (`defineRecipe({...})`); `file` names it in messages. */
export interface RecipeSource {
  readonly recipe: Recipe | RecipeInput;
  readonly file?: string;
}

/**
 * Recipes as values, checked as recipe files are; their structural steps' rules and transforms are
 * loaded relative to the recipe's `file` (else the current folder).
 */
async function loaded(sources: readonly RecipeSource[]): Promise<LoadedRecipe[]> {
  const out: LoadedRecipe[] = [];
  for (const [i, s] of sources.entries()) {
    const file = s.file ?? `<recipe ${i + 1}>`;
    const parsed = parseRecipe(s.recipe, file);
    if (!parsed.ok) throw invalid(file, parsed.problems.map(formatProblem));
    const structural = await loadStructural(parsed.recipe, s.file ? dirname(resolve(s.file)) : resolve('.'));
    if (!structural.ok) {
      const own = structural.error.problems.map((p) => formatProblem({ file, line: 1, col: 1, path: formatPath(p.path), message: p.message }));
      throw invalid(file, [...own, ...structural.error.foreign.map((p) => formatProblem(p))]);
    }
    out.push({ file, recipe: structural.value });
  }
  const clash = duplicateRecipeName(out);
  if (clash !== null) throw recipeError(clash);
  return out;
}

function invalid(file: string, problems: readonly string[]): ScionError {
  return recipeError(`${file} is not a valid recipe (${plural(problems.length, 'problem')}).`, [...problems]);
}

/** Run recipes against a repository: one report for all their jobs. */
export async function runRecipes(recipes: readonly RecipeSource[], options: RunOptions, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runLoaded(await loaded(recipes), options, ctx);
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
export {
  ERROR_KINDS,
  CALL_KINDS,
  GIT_KINDS,
  SEED_CODES,
  ScionError,
  UsageError,
  HostError,
  isScionError,
  type ErrorKind,
  type ScionErrorKind,
  type Failure,
  type Result,
} from './errors.js';
// Code owners: CODEOWNERS read as GitHub or GitLab reads it, and a change divided by owner.
export {
  codeownersAt as codeownersFor,
  ownersAt,
  parseCodeowners,
  splitByOwners,
  slugOf,
  ownerKinds,
  type Codeowners,
  type Dialect,
  type PathOwners,
  type RuleRef,
  type SkippedLine,
  type OwnersReport,
  type OwnersAnswer,
  type OwnersQuery,
  type Piece,
  type SplitOptions,
} from './owners/index.js';
export type { SplitReport, OwnerRuleReport } from './model/types.js';
export { renderJson } from './report/json.js';
export { renderPrBody, renderSummary } from './report/markdown.js';
export { renderHtml } from './report/html.js';

/** Run one loaded recipe against a repository; the JSON report as a value. */
export function runRecipe(recipe: RecipeSource, options: RunOptions, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runRecipes([recipe], options, ctx);
}

/** The same as runRecipe with dryRun: computes everything, writes nothing. */
export function planRecipe(recipe: RecipeSource, options: Omit<RunOptions, 'dryRun'>, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runRecipes([recipe], { ...options, dryRun: true }, ctx);
}
