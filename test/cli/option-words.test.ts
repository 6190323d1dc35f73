// The library's errors name its options (`repo`, `base`, `remote`, `jobs`); the command line says the
// flag that gives each, in the same sentence: a person at a terminal never reads "the `repo` option",
// and a program calling the library never reads "pass --repo".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRecipe, status, type ScionError } from '../../src/index.js';
import { scion } from '../support/cli.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const RECIPE = 'name: bump\njobs:\n  - name: web\n  - name: api\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n';

describe('options in the library, flags on the command line', () => {
  let repo: TestRepo;
  let empty: string;
  beforeAll(async () => {
    repo = await gitRepo({ 'a.txt': 'v1\n' });
    empty = await mkdtemp(join(tmpdir(), 'scion-no-repo-'));
  });
  afterAll(async () => {
    await repo.cleanup();
    await rm(empty, { recursive: true, force: true });
  });

  const thrown = (p: Promise<unknown>) =>
    p.then(
      () => expect.unreachable('it throws'),
      (e: unknown) => e as ScionError,
    );

  it.each([
    [['run', '{recipe}', '--repo', '{empty}'], 'give --repo a folder inside one', 2],
    [['run', '{recipe}', '--repo', '{repo}', '--base', 'nope'], "fix the recipe's base, or give --base a commit it has", 2],
    [['run', '{recipe}', '--repo', '{repo}', '--job', 'wbe'], 'In --job, "wbe" matches no job; the jobs are: bump/web, bump/api.', 2],
    [['run', '{recipe}', '--repo', '{repo}', '--push', 'upstream'], 'or name another remote with --push.', 2],
    [['status', '--repo', '{repo}'], 'Name either a report (--report) or recipe files (the recipe arguments), one of the two.', 2],
    [['owners', '--repo', '{repo}', '--base', 'nope'], 'give --base a branch, tag or commit it has', 2],
  ])('%j says the flag', async (args, sentence, code) => {
    const given = args.map((a) => a.replace('{recipe}', recipeFile(RECIPE)).replace('{empty}', empty).replace('{repo}', repo.dir));
    const r = await scion(given, { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(sentence);
    expect(r.stderr).not.toMatch(/the `\w+` option/);
  });

  it('the library says the option, never a flag', async () => {
    const recipe = { recipe: { name: 'bump', steps: [{ replace: { old_string: 'v1', new_string: 'v2' } }] } };
    const noRepo = await thrown(runRecipe(recipe, { repo: empty }));
    expect(noRepo.kind).toBe('not-a-repository');
    expect(noRepo.message).toContain('give the `repo` option a folder inside one');
    const badBase = await thrown(runRecipe(recipe, { repo: repo.dir, base: 'nope' }));
    expect([badBase.kind, badBase.data['reason']]).toEqual(['plan', 'bad-base']);
    expect(badBase.message).toContain('give the `base` option a commit it has');
    const neither = await thrown(status({ cwd: repo.dir }));
    expect(neither.kind).toBe('usage');
    for (const e of [noRepo, badBase, neither]) expect(e.message).not.toMatch(/--[a-z]/);
  });
});
