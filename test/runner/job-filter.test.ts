// RunOptions.jobs (`--job NAME`, globs, repeatable): only matching jobs run; --shard still splits the
// full expanded list; a pattern that matches no job is a PlanError (the CLI's exit 2) naming the jobs.
import { describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/recipe/index.js';
import { ScionError } from '../../src/errors.js';
import { runRecipes, type LoadedRecipe } from '../../src/runner/run-recipes.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

async function setup() {
  const r = await gitRepo({ 'packages/web/a.txt': 'v1\n', 'packages/api/a.txt': 'v1\n', 'packages/cli/a.txt': 'v1\n', 'packages/docs/a.txt': 'v1\n' });
  cleanups.push(r.cleanup);
  const loaded = await loadRecipe(recipeFile('name: bump\njobs:\n  - each: "packages/*"\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n'));
  if (!loaded.ok) throw new Error('recipe');
  const recipes: LoadedRecipe[] = [{ file: loaded.file, recipe: loaded.recipe }];
  return { r, recipes };
}

describe('--job', () => {
  it('runs only the jobs whose name matches one of the globs', async () => {
    const { r, recipes } = await setup();
    const report = await runRecipes(recipes, { repo: r.dir, jobs: ['web', 'c*'] }, { env: {} });
    expect(report.jobs.map((j) => j.name)).toEqual(['cli', 'web']);
    expect(r.git('branch', '--list', 'scion/*', '--format=%(refname:short)')).toBe('scion/bump/cli\nscion/bump/web');
    const byId = await runRecipes(recipes, { repo: r.dir, jobs: ['bump/api'] }, { env: {} });
    expect(byId.jobs.map((j) => j.name)).toEqual(['api']);
  });

  it('applies --shard to the full list first, then picks', async () => {
    const { r, recipes } = await setup();
    // Expanded order: api, cli, docs, web. Shard 1/2 holds api and docs.
    const report = await runRecipes(recipes, { repo: r.dir, shard: { index: 1, count: 2 }, jobs: ['docs', 'web'] }, { env: {} });
    expect(report.jobs.map((j) => j.name)).toEqual(['docs']);
  });

  it('a pattern that matches no job fails before anything runs, listing the job names', async () => {
    const { r, recipes } = await setup();
    const err = await runRecipes(recipes, { repo: r.dir, jobs: ['web', 'wbe'] }, { env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScionError);
    expect((err as ScionError).kind).toBe('plan');
    expect((err as ScionError).data['reason']).toBe('no-such-job');
    expect((err as ScionError).message).toContain('"wbe" matches no job');
    expect((err as ScionError).message).toContain('bump/api, bump/cli, bump/docs, bump/web');
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('through the CLI: --job picks, and an unmatched --job exits 2 having written nothing', async () => {
    const { r } = await setup();
    const recipe = recipeFile('name: bump\njobs:\n  - each: "packages/*"\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
    const bad = await scion(['run', recipe, '--repo', r.dir, '--job', 'wbe'], { cwd: r.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"wbe" matches no job; the jobs are: bump/api, bump/cli, bump/docs, bump/web');
    expect(bad.stderr).not.toContain('internal error');
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
    const ok = await scion(['run', recipe, '--repo', r.dir, '--job', 'api', '--job', 'web', '--json'], { cwd: r.dir });
    expect(ok.code).toBe(0);
    expect(r.git('branch', '--list', 'scion/*', '--format=%(refname:short)')).toBe('scion/bump/api\nscion/bump/web');
  });
});
