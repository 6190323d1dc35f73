import { describe, expect, it } from 'vitest';
import { expandJobs, jobMatcher, loadRecipe, planReason, recipeSchema, type RecipeInput } from '../../src/recipe/index.js';
import { recipeFile } from '../support/recipe-file.js';

const recipe = (extra: Partial<RecipeInput> = {}) => recipeSchema.parse({ name: 'rn', steps: [{ run: 'make' }], ...extra });
const DIRS = ['packages', 'packages/web', 'packages/api', 'packages/web/src', 'packages/.cache', 'apps', 'apps/site', 'docs'];

/** The `plan` error `fn` throws, with its reason as `code`. */
function planError(fn: () => unknown): { code: string; message: string; problems: readonly string[] } {
  try {
    fn();
  } catch (err) {
    const reason = planReason(err);
    if (reason !== undefined) return { code: reason, message: (err as Error).message, problems: (err as { problems: readonly string[] }).problems };
    throw err;
  }
  throw new Error('expected a plan error');
}

describe('expandJobs', () => {
  it('makes one job named after the recipe when there are no jobs', () => {
    const r = recipe({ files: { include: ['src/**'], exclude: ['src/gen/**'] } });
    expect(expandJobs(r, DIRS)).toEqual([{ recipe: r, name: 'rn', index: 0, branch: 'scion/rn', files: { include: ['src/**'], exclude: ['src/gen/**'] } }]);
  });

  it("keeps named jobs in order, with their own files or the recipe's", () => {
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

  it('names the branch of a directory git refuses in a ref by a slug and a hash of the name', () => {
    const dirs = ['d', 'd/a b', 'd/x.lock', 'd/-x', 'd/@{1}', 'd/caf\u00e9 [1]', 'd/.x', 'd/~', 'd/ok'];
    const jobs = expandJobs(recipe({ branch: '{{job}}', jobs: [{ each: 'd/*' }, { each: 'd/.*' }] }), dirs);
    expect(jobs.map((j) => j.name)).toEqual(['-x', '@{1}', 'a b', 'caf\u00e9 [1]', 'ok', 'x.lock', '~', '.x']);
    expect(jobs.map((j) => j.branch.replace(/-[0-9a-f]{6}$/, '-#'))).toEqual(['x-#', '1-#', 'a-b-#', 'caf\u00e9-1-#', 'ok', 'x.lock-#', 'dir-#', 'x-#']);
    // The hash keeps apart names whose slugs meet (-x and .x).
    expect(new Set(jobs.map((j) => j.branch)).size).toBe(jobs.length);
  });

  it("reads each directory's name literally in the globs of its job, whatever glob syntax it holds", () => {
    const names = ['a\\b', 'x*', 'q?', '!neg', '+(p)', '@(m)', 'sp ace', '[id]', '[[...slug]]', '{x,y}', '(g)', 'a.b', '$1', '^x$', 'a|b', '#h', '~t'];
    const jobs = expandJobs(recipe({ jobs: [{ each: 'd/*', files: { include: ['*.ts'] } }] }), ['d', ...names.map((n) => `d/${n}`)]);
    expect(jobs.map((j) => j.name).sort()).toEqual([...names].sort());
    for (const j of jobs) {
      const inJob = jobMatcher(j);
      for (const n of names) expect(inJob(`d/${n}/f.ts`), `${j.name} selects d/${n}/f.ts`).toBe(n === j.name);
      expect(inJob(`d/${j.name}/f.md`)).toBe(false);
    }
  });

  it("intersects a job's files with the recipe's selection", () => {
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

  it('throws a plan error naming duplicate job names', () => {
    const err = planError(() => expandJobs(recipe({ jobs: [{ name: 'web' }, { each: 'packages/*' }] }), DIRS));
    expect(err.message).toMatch(/"web"/);
    expect(err.problems).toContain('several jobs are named "web"');
  });

  it('throws a plan error for jobs that would share a branch', () => {
    const err = planError(() => expandJobs(recipe({ branch: 'fixed/{{job}}', jobs: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] }), DIRS));
    expect(err.problems).toEqual(['several jobs are named "a"', 'several jobs share the branch "fixed/a"']);
  });

  it('throws for a branch git would refuse, and for an each glob that matches nothing', () => {
    const bad = planError(() => expandJobs(recipe({ branch: 'bots/{{recipe}}.lock' }), DIRS));
    expect(bad.problems[0]).toMatch(/\.lock/);
    expect(bad.code).toBe('bad-branch');
    expect(bad.message).not.toContain('conflicting');
    const none = planError(() => expandJobs(recipe({ jobs: [{ each: 'services/*' }] }), DIRS));
    expect(none.message).toMatch(/services\/\*.*matches no directory/);
  });

  it('refuses branch names git check-ref-format or git branch refuse', () => {
    for (const branch of [
      'HEAD',
      '-x',
      'scion/a..b',
      'a@{1}',
      'a b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[b',
      'a\\b',
      '.hidden/x',
      'x/.y',
      'x.lock',
      'x/',
      'x.',
      '@',
    ]) {
      const err = planError(() => expandJobs(recipe({ branch }), DIRS));
      expect(err.code, branch).toBe('bad-branch');
    }
    expect(expandJobs(recipe({ branch: 'release/2024-01_x' }), DIRS)[0]!.branch).toBe('release/2024-01_x');
  });

  it('validate names a bad branch with its place in the file, for the default, named and each jobs', async () => {
    for (const [text, at] of [
      ['name: r\nbranch: HEAD\nsteps: [{ run: make }]\n', '2:9'],
      ['name: r\nbranch: "-x"\nsteps: [{ run: make }]\n', '2:9'],
      ['name: r\nbranch: "scion/a..b/{{job}}"\njobs: [{ each: "packages/*" }]\nsteps: [{ run: make }]\n', '2:9'],
      ['name: r\njobs: [{ name: a }, { name: b.lock }]\nsteps: [{ run: make }]\n', '2:'],
    ] as const) {
      const r = await loadRecipe(recipeFile(text));
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.problems.map((p) => `${p.line}:${p.col}`).join(), text).toContain(at);
      expect(r.problems[0]!.message, text).toMatch(/branch .* (is "HEAD"|starts with "-"|contains "\.\."|ending with "\.lock")/);
    }
  });

  it('leaves dot-directories out of each matches', () => {
    const jobs = expandJobs(recipe({ jobs: [{ each: 'packages/*' }] }), DIRS);
    expect(jobs.map((j) => j.name)).toEqual(['api', 'web']);
  });
});
