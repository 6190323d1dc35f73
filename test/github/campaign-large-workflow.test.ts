// The large-campaign workflow in recipes/ci (a matrix of reusable-workflow calls, to go past GitHub's
// 256 jobs per matrix) is proven by running it in the workflow harness: the caller's matrix of groups
// calls campaign-shard.yml, whose own matrix runs each group's shards, every shard takes its number
// through SCION_SHARD and `--shard auto/TOTAL`, and the last job merges the reports and opens the pull
// requests. The matrices are shrunk to 2 groups × 2 shards (the files hold 8 × 64 = 512); four target
// repositories behind git http-backend and their fake GitHubs on 127.0.0.1.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { gitAsync } from '../support/git-remote.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { loadWorkflow, runnerTools as tools, runWorkflow, type Workflow } from './workflow-runner.js';
import { useFakeGitHubs, useGitServer } from '../support/servers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const CALLER = join(ROOT, 'recipes/ci/campaign-large.yml');
const CALLED = join(ROOT, 'recipes/ci/campaign-shard.yml');
const NAMES = ['alpha', 'beta', 'gamma', 'delta'];
const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';
const BRANCH = 'scion/new-log';

describe('recipes/ci/campaign-large.yml', () => {
  const server = useGitServer();
  const github = useFakeGitHubs('acme', NAMES, 'all');
  let dir: string | undefined;

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('as written: 8 calls of 64 shards each, 512 shards in all, no matrix past 256', async () => {
    const caller = await loadWorkflow(CALLER);
    const called = await loadWorkflow(CALLED);
    const groups = caller.jobs['shards']!.strategy!.matrix['group']!;
    const perGroup = called.jobs['shard']!.strategy!.matrix['index']!;
    expect(caller.jobs['shards']!.uses).toBe('./.github/workflows/campaign-shard.yml');
    expect(caller.jobs['shards']!.with).toEqual({ group: '${{ matrix.group }}', 'per-group': perGroup.length, total: groups.length * perGroup.length });
    expect(groups.length * perGroup.length).toBe(512);
    expect(Math.max(groups.length, perGroup.length)).toBeLessThanOrEqual(256);
    expect(groups).toEqual(groups.map((_, i) => i));
    expect(perGroup).toEqual(perGroup.map((_, i) => i + 1));
  });

  it('runs every shard once through SCION_SHARD, merges their reports and opens one pull request per repository', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'scion-large-workflow-')));
    const bare: Record<string, { dir: string; url: string }> = {};
    for (const name of NAMES) {
      bare[name] = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/log.ts': `export const ${name} = legacyLog('${name}');\n` });
      src.git('push', '-q', bare[name]!.dir, 'main');
      await src.cleanup();
    }
    const caller = await loadWorkflow(CALLER);
    // Shrunk: 2 groups of 2 shards.
    const shards = caller.jobs['shards']!;
    const small: Workflow = {
      ...caller,
      jobs: { ...caller.jobs, shards: { ...shards, strategy: { matrix: { group: [0, 1] } }, with: { ...shards.with, 'per-group': 2, total: 4 } } },
    };
    const calledWorkflow = async (uses: string): Promise<Workflow> => {
      expect(uses).toBe('./.github/workflows/campaign-shard.yml');
      const wf = await loadWorkflow(CALLED);
      const job = wf.jobs['shard']!;
      return { ...wf, jobs: { shard: { ...job, strategy: { matrix: { index: [1, 2] } } } } };
    };

    const home = server.bare('acme/campaigns.git');
    const seed = await gitRepo({});
    const called = await loadWorkflow(CALLED);
    await mkdir(join(seed.dir, 'recipes'), { recursive: true });
    await writeFile(join(seed.dir, called.env!['RECIPE']!), RECIPE);
    await writeFile(join(seed.dir, called.env!['REPOS']!), NAMES.map((n) => bare[n]!.url).join('\n') + '\n');
    seed.git('add', '-A');
    seed.git('commit', '-q', '-m', 'the campaign');
    await gitAsync(seed.dir, ...server.authArgs(), 'push', '-q', home.url, 'main');
    await seed.cleanup();

    const basic = Buffer.from(`x-access-token:${server.token}`).toString('base64');
    const run = await runWorkflow(small, {
      cloneUrl: home.url,
      ref: 'main',
      extraHeader: { url: `${server.url}/`, value: `AUTHORIZATION: basic ${basic}` },
      secrets: { GITHUB_TOKEN: 'only-this-repository', CAMPAIGN_TOKEN: server.token, GITLAB_TOKEN: '' },
      env: { GITHUB_API_URL: github.url, GITHUB_SERVER_URL: server.url, GITHUB_REPOSITORY: 'acme/campaigns' },
      toolsDir: await tools(dir),
      root: join(dir, 'run'),
      calledWorkflow,
    });
    const failures = run.steps
      .filter((s) => s.outcome === 'failure')
      .map((s) => `${s.job} / ${s.step}:\n${s.stdout}\n${s.stderr}`)
      .join('\n---\n');
    expect(
      run.jobs.map((j) => [j.job, j.matrix['index'] ?? null, j.result]),
      failures,
    ).toEqual([
      ['shards/shard', '1', 'success'],
      ['shards/shard', '2', 'success'],
      ['shards/shard', '1', 'success'],
      ['shards/shard', '2', 'success'],
      ['pull-requests', null, 'success'],
    ]);
    // Shard n (SCION_SHARD = group × 2 + index) ran job n - 1 of the list: repository n - 1.
    const reports = await Promise.all(
      [
        ['0', '1'],
        ['0', '2'],
        ['1', '1'],
        ['1', '2'],
      ].map(async ([g, i]) => {
        const folder = run.artifacts.get(`scion-report-${g}-${i}`)!;
        return JSON.parse(await readFile(join(folder, `report-${g}-${i}.json`), 'utf8')) as RunReport;
      }),
    );
    const host = new URL(server.url).host;
    expect(reports.map((r) => r.jobs.map((j) => j.repo))).toEqual(NAMES.map((n) => [`${host}/acme/${n}`]));
    for (const name of NAMES) {
      expect(runGit(bare[name]!.dir, 'show', `${BRANCH}:src/log.ts`)).toBe(`export const ${name} = log('${name}');`);
      expect(github.fakes[name]!.pulls.map((p) => [p.head, p.labels])).toEqual([[BRANCH, ['codemod']]]);
    }
  }, 300_000);
});
