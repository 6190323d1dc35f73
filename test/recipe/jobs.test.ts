import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { expandJobs, jobMatcher, recipeSchema, type RecipeInput } from '../../src/recipe/index.js';

const recipe = (extra: Partial<RecipeInput> = {}) => recipeSchema.parse({ name: 'rn', steps: [{ run: 'make' }], ...extra });
const DIRS = ['packages', 'packages/web', 'packages/api', 'packages/web/src', 'packages/.cache', 'apps', 'apps/site', 'docs'];

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error('expected a UsageError');
}

describe('expandJobs', () => {
  it('makes one job named after the recipe when there are no jobs', () => {
    const r = recipe({ files: { include: ['src/**'], exclude: ['src/gen/**'] } });
    expect(expandJobs(r, DIRS)).toEqual([
      { recipe: r, name: 'rn', index: 0, branch: 'scion/rn', files: { include: ['src/**'], exclude: ['src/gen/**'] } },
    ]);
  });

  it('keeps named jobs in order, with their own files or the recipe\'s', () => {
    const r = recipe({ jobs: [{ name: 'web', files: { include: ['packages/web/**'] } }, { name: 'all' }] });
    const jobs = expandJobs(r, DIRS);
    expect(jobs.map((j) => [j.index, j.name, j.branch, j.files])).toEqual([
      [0, 'web', 'scion/rn/web', { include: ['packages/web/**'], exclude: [] }],
      [1, 'all', 'scion/rn/all', { include: ['**'], exclude: [] }],
    ]);
  });

  it('gives one job per directory an each glob matches, sorted, files taken relative to it', () => {
    const r = recipe({ jobs: [{ each: 'packages/*', files: { include: ['src/**'], exclude: ['src/gen/**'] } }, { each: 'apps/*' }] });
    const jobs = expandJobs(r, DIRS);
    expect(jobs.map((j) => [j.index, j.name, j.branch, j.files])).toEqual([
      [0, 'api', 'scion/rn/api', { include: ['packages/api/src/**'], exclude: ['packages/api/src/gen/**'] }],
      [1, 'web', 'scion/rn/web', { include: ['packages/web/src/**'], exclude: ['packages/web/src/gen/**'] }],
      [2, 'site', 'scion/rn/site', { include: ['apps/site/**'], exclude: [] }],
    ]);
  });

  it('intersects a job\'s files with the recipe\'s selection', () => {
    const r = recipe({ files: { include: ['**/*.ts'], exclude: ['**/*.test.ts'] }, jobs: [{ each: 'packages/*' }] });
    const [api, web] = expandJobs(r, DIRS);
    const inWeb = jobMatcher(web!);
    expect(inWeb('packages/web/src/a.ts')).toBe(true);
    expect(inWeb('packages/web/src/a.test.ts')).toBe(false); // the recipe excludes it
    expect(inWeb('packages/web/README.md')).toBe(false); // the recipe does not include it
    expect(inWeb('packages/api/src/a.ts')).toBe(false); // another job's directory
    expect(jobMatcher(api!)('packages/api/src/a.ts')).toBe(true);
  });

  it('uses the recipe branch, appending /{{job}} when several jobs share a template without it', () => {
    expect(expandJobs(recipe({ branch: 'bots/{{recipe}}' }), DIRS).map((j) => j.branch)).toEqual(['bots/rn']);
    expect(expandJobs(recipe({ branch: 'bots/{{recipe}}', jobs: [{ name: 'a' }, { name: 'b' }] }), DIRS).map((j) => j.branch)).toEqual([
      'bots/rn/a',
      'bots/rn/b',
    ]);
    expect(expandJobs(recipe({ branch: 'bots/{{job}}-{{recipe}}', jobs: [{ name: 'a' }, { name: 'b' }] }), DIRS).map((j) => j.branch)).toEqual([
      'bots/a-rn',
      'bots/b-rn',
    ]);
    // One named job is not "several": the default branch stays scion/{recipe}.
    expect(expandJobs(recipe({ jobs: [{ name: 'only' }] }), DIRS).map((j) => [j.name, j.branch])).toEqual([['only', 'scion/rn']]);
  });

  it('throws a UsageError naming duplicate job names', () => {
    const err = usageError(() => expandJobs(recipe({ jobs: [{ name: 'web' }, { each: 'packages/*' }] }), DIRS));
    expect(err.message).toMatch(/"web"/);
    expect(err.problems).toContain('several jobs are named "web"');
  });

  it('throws a UsageError for jobs that would share a branch', () => {
    const err = usageError(() => expandJobs(recipe({ branch: 'fixed/{{job}}', jobs: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] }), DIRS));
    expect(err.problems).toEqual(['several jobs are named "a"', 'several jobs share the branch "fixed/a"']);
  });

  it('throws for a branch git would refuse, and for an each glob that matches nothing', () => {
    const bad = usageError(() => expandJobs(recipe({ branch: 'bots/{{recipe}}.lock' }), DIRS));
    expect(bad.problems[0]).toMatch(/\.lock/);
    const none = usageError(() => expandJobs(recipe({ jobs: [{ each: 'services/*' }] }), DIRS));
    expect(none.message).toMatch(/services\/\*.*matches no directory/);
  });

  it('leaves dot-directories out of each matches', () => {
    const jobs = expandJobs(recipe({ jobs: [{ each: 'packages/*' }] }), DIRS);
    expect(jobs.map((j) => j.name)).toEqual(['api', 'web']);
  });
});
