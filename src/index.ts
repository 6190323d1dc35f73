// scion's library API: what a program (or a module recipe) may import. Explicit names only; the
// modules behind them are internal.
import { runRecipes, type LoadedRecipe } from './runner/run-recipes.js';
import type { RunContext, RunOptions } from './runner/types.js';
import type { RunReport } from './model/types.js';

export { defineRecipe, loadRecipe, recipeJsonSchema, type Recipe, type RecipeInput, type Step } from './recipe/index.js';
export { runRecipes, type LoadedRecipe } from './runner/run-recipes.js';
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
export function runRecipe(recipe: LoadedRecipe, options: RunOptions, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runRecipes([recipe], options, ctx);
}

/** The same as runRecipe with dryRun: computes everything, writes nothing. */
export function planRecipe(recipe: LoadedRecipe, options: Omit<RunOptions, 'dryRun'>, ctx: RunContext = { env: process.env }): Promise<RunReport> {
  return runRecipes([recipe], { ...options, dryRun: true }, ctx);
}
