// A campaign over repositories served by git http-backend on loopback (and one that is not there):
// each repository is cloned once into the cache, its jobs leave branches in the clone, a repository
// that cannot be cloned fails its own jobs only, and shards split the whole list without overlap.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePath } from '../../src/campaign/clone-cache.js';
import { runCampaign } from '../../src/campaign/run-campaign.js';
import type { RepoTarget } from '../../src/campaign/targets.js';
import { loadRecipe } from '../../src/recipe/index.js';
import type { LoadedRecipe } from '../../src/runner/run-recipes.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { useGitServer } from '../support/servers.js';

const NAMES = ['alpha', 'beta', 'gamma', 'delta'];

describe('runCampaign', () => {
  const server = useGitServer();
  let cache: string;
  let recipes: LoadedRecipe[];
  let targets: RepoTarget[];
  const env = () => ({ ...server.githubEnv(), HOME: '/nonexistent' });

  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'scion-campaign-'));
    targets = [];
    for (const name of NAMES) {
      const remote = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/log.ts': `export const ${name} = legacyLog('${name}');\n`, 'README.md': `# ${name}\n` });
      src.git('push', '-q', remote.dir, 'main');
      await src.cleanup();
      targets.push({ id: `127.0.0.1/acme/${name}`, url: remote.url, path: null, ref: null });
    }
    targets.splice(2, 0, { id: '127.0.0.1/acme/gone', url: `${server.url}/acme/gone.git`, path: null, ref: null });
    const file = recipeFile('name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
    const loaded = await loadRecipe(file);
    if (!loaded.ok) throw new Error('recipe');
    recipes = [{ file, recipe: loaded.recipe }];
  });
  afterAll(async () => {
    await rm(cache, { recursive: true, force: true });
  });

  it('runs the jobs of every repository in its clone; an unreachable one fails alone', async () => {
    const { report, repos } = await runCampaign(recipes, { targets, cacheDir: cache, concurrency: 2 }, { env: env() });
    expect(report.repo).toBeNull();
    expect(report.jobs.map((j) => [j.repo, j.status])).toEqual([
      ['127.0.0.1/acme/alpha', 'changed'],
      ['127.0.0.1/acme/beta', 'changed'],
      ['127.0.0.1/acme/gone', 'failed'],
      ['127.0.0.1/acme/gamma', 'changed'],
      ['127.0.0.1/acme/delta', 'changed'],
    ]);
    expect(report.jobs[2]!.errors).toEqual([expect.objectContaining({ kind: 'clone-failed' })]);
    expect(repos.map((r) => r.target.id)).toEqual(targets.filter((t) => !t.id.endsWith('gone')).map((t) => t.id));
    for (const name of NAMES) {
      const dir = clonePath(
        cache,
        targets.find((t) => t.id.endsWith(name))!,
      );
      expect(runGit(dir, 'show', 'scion/new-log:src/log.ts')).toBe(`export const ${name} = log('${name}');`);
      runGit(dir, 'fsck', '--strict', '--no-dangling');
    }

    // The nightly rerun: nothing new upstream, so nothing is cloned again and every job is unchanged.
    const before = server.requests.length;
    const again = await runCampaign(recipes, { targets, cacheDir: cache, concurrency: 2 }, { env: env() });
    expect(again.report.jobs.map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'failed', 'unchanged', 'unchanged']);
    const posts = server.requests.slice(before).filter((r) => r.method === 'POST');
    expect(posts).toEqual([]);
  });

  it('splits repositories × jobs over shards, disjoint and complete', async () => {
    const seen: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const { report } = await runCampaign(recipes, { targets, cacheDir: cache, shard: { index: i, count: 3 }, dryRun: true }, { env: env() });
      seen.push(...report.jobs.map((j) => j.repo!));
      expect(report.jobs.map((j) => j.repo)).toEqual(targets.filter((_, k) => k % 3 === i - 1).map((t) => t.id));
    }
    expect(seen.sort()).toEqual(targets.map((t) => t.id).sort());
  });
});
