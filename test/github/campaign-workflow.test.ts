// The example campaign workflow in recipes/ci is what users copy, so it is proven by running it (as
// workflow.test.ts proves scheduled-codemod.yml): the user's repository (the workflow, the recipe, the
// repository list) and three target repositories are bare repositories behind git http-backend on
// 127.0.0.1, the list's fourth line a URL where nothing answers; each target has its own fake GitHub,
// all behind one API URL as api.github.com is. Every `run:` step is executed by bash, `scion`
// installed the way the workflow installs it; actions/cache keeps the shards' clones between the two
// runs. Native git judges what reached the remotes.
//
// Not modelled (no effect on what is proven here): the workflow-level `concurrency` group, the
// `permissions` block (the shards and `scion pr` use CAMPAIGN_TOKEN, which the test git server and
// the fakes accept; GITHUB_TOKEN is never sent), `timeout-minutes`, `fail-fast: false` (the harness
// never cancels a matrix), setup-node's npm cache, and `name:` expressions (only labels). The shards
// run one after another, not on four machines at once; each starts from an empty workspace, as a
// fresh runner does, so only actions/cache carries the clones from one run to the next.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { gitAsync } from '../support/git-remote.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import {
  cacheStore,
  listFiles,
  loadWorkflow,
  runnerTools as tools,
  runWorkflow,
  type ActionsCache,
  type Workflow,
  type WorkflowRun,
} from './workflow-runner.js';
import { useFakeGitHubs, useGitServer } from '../support/servers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const WORKFLOW = join(ROOT, 'recipes/ci/campaign.yml');
const NAMES = ['alpha', 'beta', 'gamma'];
const GONE = 'http://127.0.0.1:9/acme/gone.git';
const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';
const BRANCH = 'scion/new-log';

describe('recipes/ci/campaign.yml', () => {
  let wf: Workflow;
  const server = useGitServer();
  const github = useFakeGitHubs('acme', NAMES, 'all');
  let dir: string;
  let cache: ActionsCache;
  let first: WorkflowRun;
  let runAgain: () => Promise<WorkflowRun>;
  const bare: Record<string, { dir: string; url: string }> = {};
  const id = (name: string) => `${new URL(server.url).host}/acme/${name}`;

  beforeAll(async () => {
    wf = await loadWorkflow(WORKFLOW);
    dir = await realpath(await mkdtemp(join(tmpdir(), 'scion-campaign-workflow-')));
    for (const name of NAMES) {
      bare[name] = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/log.ts': `export const ${name} = legacyLog('${name}');\n`, 'README.md': `# ${name}\n` });
      src.git('push', '-q', bare[name]!.dir, 'main');
      await src.cleanup();
    }

    // The user's repository: the workflow where GitHub reads it, the recipe and the list it names.
    const home = server.bare('acme/campaigns.git');
    const seed = await gitRepo({});
    await mkdir(join(seed.dir, '.github/workflows'), { recursive: true });
    await writeFile(join(seed.dir, '.github/workflows/campaign.yml'), await readFile(WORKFLOW));
    const recipePath = wf.env!['RECIPE']!;
    await mkdir(join(seed.dir, recipePath, '..'), { recursive: true });
    await writeFile(join(seed.dir, recipePath), RECIPE);
    // Repository k (from 0) is job k: shard k mod 4 + 1, so the unreachable one is shard 3's.
    await writeFile(
      join(seed.dir, wf.env!['REPOS']!),
      `# the campaign\n${bare['alpha']!.url}\n${bare['beta']!.url}\n${GONE}   # nothing answers\n${bare['gamma']!.url}\n`,
    );
    seed.git('add', '-A');
    seed.git('commit', '-q', '-m', 'the campaign');
    await gitAsync(seed.dir, ...server.authArgs(), 'push', '-q', home.url, 'main');
    await seed.cleanup();

    cache = cacheStore(join(dir, 'actions-cache'));
    const basic = Buffer.from(`x-access-token:${server.token}`).toString('base64');
    const toolsDir = await tools(dir);
    let n = 0;
    runAgain = () =>
      runWorkflow(wf, {
        cloneUrl: home.url,
        ref: 'main',
        extraHeader: { url: `${server.url}/`, value: `AUTHORIZATION: basic ${basic}` },
        // GITLAB_TOKEN is not set: an unset secret is the empty string on GitHub.
        secrets: { GITHUB_TOKEN: 'only-this-repository', CAMPAIGN_TOKEN: server.token, GITLAB_TOKEN: '' },
        env: { GITHUB_API_URL: github.url, GITHUB_SERVER_URL: server.url, GITHUB_REPOSITORY: 'acme/campaigns' },
        toolsDir,
        root: join(dir, `run-${++n}`),
        cache,
      });
    first = await runAgain();
  }, 240_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const step = (run: WorkflowRun, job: string, name: string) => run.steps.filter((s) => s.job === job && s.step === name);
  const failureLog = (run: WorkflowRun) =>
    run.steps
      .filter((s) => s.outcome === 'failure')
      .map((s) => `${s.job} / ${s.step} (exit ${s.exitCode}):\n${s.stdout}\n${s.stderr}`)
      .join('\n---\n');

  it('runs every shard; only the shard holding the unreachable repository ends red (clone-failed)', async () => {
    expect(
      first.jobs.map((j) => [j.job, j.matrix['shard'] ?? null, j.result]),
      failureLog(first),
    ).toEqual([
      ['run', '1', 'success'],
      ['run', '2', 'success'],
      ['run', '3', 'failure'],
      ['run', '4', 'success'],
      ['pull-requests', null, 'failure'],
    ]);
    const scion = step(first, 'run', 'scion run');
    expect(scion.map((s) => s.exitCode)).toEqual([0, 0, 1, 0]);
    // Every shard cloned its repository (no cache yet) and uploaded its report, the red one too.
    expect(step(first, 'run', 'restore the clone cache').map((s) => [s.outcome, s.stdout.trim()])).toEqual(
      [1, 2, 3, 4].map((n) => ['success', `Cache not found for input keys: scion-clones-${n}-${first.runId}, scion-clones-${n}-`]),
    );
    for (const [s, name] of [
      [0, 'alpha'],
      [1, 'beta'],
      [3, 'gamma'],
    ] as const)
      expect(scion[s]!.stderr).toContain(`cloning ${id(name)}`);
    expect([...first.artifacts.keys()].filter((k) => k.startsWith('scion-report-')).sort()).toEqual([
      'scion-report-1',
      'scion-report-2',
      'scion-report-3',
      'scion-report-4',
    ]);
    const red = JSON.parse(await readFile(join(first.artifacts.get('scion-report-3')!, 'report-3.json'), 'utf8')) as RunReport;
    expect(red.jobs.map((j) => [j.repo, j.status])).toEqual([['127.0.0.1:9/acme/gone', 'failed']]);
    expect(red.jobs[0]!.errors).toEqual([expect.objectContaining({ kind: 'clone-failed' })]);
  });

  it("saves each shard's clone cache under this run's key, the red shard's too (actions/cache@v4 would not: it saves only after a green job)", () => {
    expect(
      step(first, 'run', 'save the clone cache').map((s) => [s.outcome, s.stdout.trim()]),
      failureLog(first),
    ).toEqual([1, 2, 3, 4].map((n) => ['success', `Cache saved with key: scion-clones-${n}-${first.runId}`]));
    expect(cache.entries.map((e) => [e.key, e.path])).toEqual([1, 2, 3, 4].map((n) => [`scion-clones-${n}-${first.runId}`, '.scion-cache']));
  });

  it("pushes each reachable repository's branch to that repository", async () => {
    const merged = JSON.parse(await readFile(join(first.artifacts.get('scion-report')!, 'out.json'), 'utf8')) as RunReport;
    for (const name of NAMES) {
      const job = merged.jobs.find((j) => j.repo === id(name))!;
      expect(job.status).toBe('changed');
      expect(runGit(bare[name]!.dir, 'rev-parse', BRANCH)).toBe(job.head);
      expect(runGit(bare[name]!.dir, 'show', `${BRANCH}:src/log.ts`)).toBe(`export const ${name} = log('${name}');`);
      expect(runGit(bare[name]!.dir, 'rev-parse', `${BRANCH}~1`)).toBe(runGit(bare[name]!.dir, 'rev-parse', 'main'));
      runGit(bare[name]!.dir, 'fsck', '--strict', '--no-dangling');
    }
  });

  it("merges the four reports (exit 1), and still opens one pull request per changed job on each repository's own host", async () => {
    const steps = Object.fromEntries(first.steps.filter((s) => s.job === 'pull-requests').map((s) => [s.step, s]));
    expect(steps["merge the shards' reports"]!.exitCode, failureLog(first)).toBe(1);
    expect(steps['scion pr']!.outcome, failureLog(first)).toBe('success');
    // The unreachable repository has no branch: scion pr does not try to clone it (it used to, and exited 1).
    expect(steps['scion pr']!.stderr).not.toContain('gone');
    const folder = first.artifacts.get('scion-report')!;
    const merged = JSON.parse(await readFile(join(folder, 'out.json'), 'utf8')) as RunReport;
    expect(merged.jobs.map((j) => [j.repo, j.status]).sort()).toEqual([...NAMES.map((n) => [id(n), 'changed']), ['127.0.0.1:9/acme/gone', 'failed']].sort());
    for (const name of NAMES) {
      const created = github.fakes[name]!.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/pulls'));
      expect(created.map((q) => [q.path, (q.body as { head: string }).head, (q.body as { base: string }).base])).toEqual([
        [`/repos/acme/${name}/pulls`, BRANCH, 'main'],
      ]);
      expect(created[0]!.headers.authorization).toBe(`Bearer ${server.token}`);
      expect(github.fakes[name]!.pulls.map((p) => [p.head, p.base, p.labels])).toEqual([[BRANCH, 'main', ['codemod']]]);
      expect(steps['scion pr']!.stdout).toContain(`${id(name)}: created pull request #100 for ${BRANCH}`);
    }
    // The run summary is the merged PR body.
    expect(steps['run summary']!.summary).toBe(await readFile(join(folder, 'pr.md'), 'utf8'));
    expect(steps['run summary']!.summary).toContain('### Failures (1)');
  });

  it(
    'next week, nothing changed upstream: the shards fetch into the restored clones, every job is unchanged, ' + 'the pull requests are updated in place',
    async () => {
      const heads = NAMES.map((n) => runGit(bare[n]!.dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'));
      const before = NAMES.map((n) => github.fakes[n]!.requests.length);
      const served = server.requests.length;
      const again = await runAgain();
      expect(again.runId).not.toBe(first.runId);
      expect(
        again.jobs.map((j) => j.result),
        failureLog(again),
      ).toEqual(['success', 'success', 'failure', 'success', 'failure']);

      // Each shard got the newest entry of its own prefix: the first run's.
      expect(step(again, 'run', 'restore the clone cache').map((s) => [s.stdout.trim(), s.outputs['cache-hit']])).toEqual(
        [1, 2, 3, 4].map((n) => [`Cache restored from key: scion-clones-${n}-${first.runId}`, 'false']),
      );
      const scion = step(again, 'run', 'scion run');
      for (const [s, name] of [
        [0, 'alpha'],
        [1, 'beta'],
        [3, 'gamma'],
      ] as const) {
        expect(scion[s]!.stderr).toContain(`fetching ${id(name)}`);
        expect(scion[s]!.stderr).not.toContain('cloning');
      }
      // Only `scion pr`'s shallow clone of each repository (its runner has no cache) asked for a pack.
      const packs = server.requests
        .slice(served)
        .filter((q) => q.method === 'POST' && q.service === 'git-upload-pack' && !q.path.startsWith('/acme/campaigns.git/'))
        .map((q) => q.path);
      expect(packs.sort()).toEqual(NAMES.map((n) => `/acme/${n}.git/git-upload-pack`));

      const merged = JSON.parse(await readFile(join(again.artifacts.get('scion-report')!, 'out.json'), 'utf8')) as RunReport;
      expect(merged.jobs.map((j) => [j.repo, j.status]).sort()).toEqual(
        [...NAMES.map((n) => [id(n), 'unchanged']), ['127.0.0.1:9/acme/gone', 'failed']].sort(),
      );
      expect(NAMES.map((n) => runGit(bare[n]!.dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'))).toEqual(heads);
      for (const [k, name] of NAMES.entries()) {
        const later = github.fakes[name]!.requests.slice(before[k])
          .filter((q) => q.method !== 'GET')
          .map((q) => `${q.method} ${q.path}`);
        expect(later.filter((c) => c.startsWith('POST') && c.endsWith('/pulls'))).toEqual([]);
        expect(later.filter((c) => c.startsWith('PATCH'))).toEqual([`PATCH /repos/acme/${name}/pulls/100`]);
        expect(github.fakes[name]!.pulls).toHaveLength(1);
      }
      // This run's shards saved their clones under its own key; fetching added no pack to alpha's clone.
      expect(cache.entries.map((e) => e.key)).toEqual([first.runId, again.runId].flatMap((r) => [1, 2, 3, 4].map((n) => `scion-clones-${n}-${r}`)));
      const packs0 = await listFiles(cache.entries[0]!.dir);
      expect(packs0.some((f) => f.endsWith('.pack'))).toBe(true);
      expect(await listFiles(cache.entries[4]!.dir)).toEqual(packs0);
    },
    240_000,
  );
});
