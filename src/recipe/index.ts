// Recipes: schema, types, loading with line:col problems, job expansion, globs and templates.
export { recipeSchema, defineRecipe, type Recipe, type RecipeInput, type Step, type JobEntry, type Group } from './schema.js';
export { STEP_KINDS, type StepKind, type TransformFn } from './schema-steps.js';
export { stepKind, type StepOf } from './step-kind.js';
export type { Selection } from './schema-parts.js';
export { formatProblem, type Problem } from './problems.js';
export { loadRecipe, type LoadResult } from './load.js';
export { recipeJsonSchema, RECIPE_SCHEMA_ID } from './json-schema.js';
export { recipeFieldDocs, type FieldDoc } from './reference.js';
export { expandJobs, jobMatcher, type JobSpec } from './jobs.js';
export { globTest, matcher, staticPrefixes, unmatchedGlobs } from './globs.js';
export { planError, planReason, type PlanErrorCode } from './plan-error.js';
export { renderTemplate, MESSAGE_PLACEHOLDERS, BRANCH_PLACEHOLDERS } from './templates.js';
export { findRecipes } from './find.js';
export { loaderUrls, transformOrigin, type TransformOrigin } from './load-module.js';
