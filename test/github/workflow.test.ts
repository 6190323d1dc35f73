// The example workflow in recipes/ci is what users copy, so it is proven by running it: every `run:`
// step executed by bash in a fresh checkout of a real repository (the bundled sample project) served
// by git http-backend on 127.0.0.1, `scion` installed the way the workflow installs it, pull requests
// opened against a fake GitHub API on 127.0.0.1. One job of the recipe fails: its shard ends red,
// and the pull requests of the jobs that worked are opened all the same.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { gitAsync } from '../support/git-remote.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { listFiles, loadWorkflow, runnerTools as tools, runWorkflow, type Workflow, type WorkflowRun } from './workflow-runner.js';
import { useFakeGitHub, useGitServer } from '../support/servers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const WORKFLOW = join(ROOT, 'recipes/ci/scheduled-codemod.yml');

// The sample's web package calls legacyLog twice in one file: without replace_all that file fails
// with not-unique, so the web job fails while api and shared change.
const RECIPE = `name: rename-logger
description: Move to the new logger
files:
  include: ["packages/*/src/**/*.ts"]
  exclude: ["packages/*/src/legacy.ts"]
jobs:
  - each: "packages/*"
steps:
  - replace: { old_string: "legacyLog(", new_string: "log(" }
`;

describe('recipes/ci/scheduled-codemod.yml', () => {
  let wf: Workflow;
  const server = useGitServer();
  const github = useFakeGitHub('acme', 'widgets', 'all');
  let dir: string;
  let bare: string;
  let run: WorkflowRun;
  let runAgain: () => Promise<WorkflowRun>;

  beforeAll(async () => {
    wf = await loadWorkflow(WORKFLOW);
    dir = await realpath(await mkdtemp(join(tmpdir(), 'scion-workflow-')));
    // A checkout made by actions/checkout does not know the remote's default branch: scion pr asks.
    github.intercept = (r) => (r.method === 'GET' && r.path === '/repos/acme/widgets' ? { status: 200, body: { default_branch: 'main' } } : undefined);
    const remote = server.bare('acme/widgets.git');
    bare = remote.dir;

    // The user's repository: the sample project, the workflow where GitHub reads it, the recipe it names.
    const seed = await gitRepo({});
    cpSync(join(ROOT, 'fixtures/sample'), seed.dir, { recursive: true });
    await mkdir(join(seed.dir, '.github/workflows'), { recursive: true });
    cpSync(WORKFLOW, join(seed.dir, '.github/workflows/scheduled-codemod.yml'));
    const recipePath = wf.env!['RECIPE']!;
    await mkdir(join(seed.dir, recipePath, '..'), { recursive: true });
    await writeFile(join(seed.dir, recipePath), RECIPE);
    seed.git('add', '-A');
    seed.git('commit', '-q', '-m', 'sample project with the scheduled codemod');
    await gitAsync(seed.dir, ...server.authArgs(), 'push', '-q', remote.url, 'main');
    await seed.cleanup();

    const basic = Buffer.from(`x-access-token:${server.token}`).toString('base64');
    const toolsDir = await tools(dir);
    let n = 0;
    runAgain = () =>
      runWorkflow(wf, {
        cloneUrl: remote.url,
        ref: 'main',
        extraHeader: { url: `${server.url}/`, value: `AUTHORIZATION: basic ${basic}` },
        secrets: { GITHUB_TOKEN: server.token },
        env: { GITHUB_API_URL: github.url, GITHUB_SERVER_URL: server.url, GITHUB_REPOSITORY: 'acme/widgets' },
        toolsDir,
        root: join(dir, `run-${++n}`),
      });
    run = await runAgain();
  }, 240_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const stepsOf = (job: string) => run.steps.filter((s) => s.job === job);
  const failureLog = () =>
    run.steps
      .filter((s) => s.outcome === 'failure')
      .map((s) => `${s.job} / ${s.step} (exit ${s.exitCode}):\n${s.stdout}\n${s.stderr}`)
      .join('\n---\n');

  it('runs every shard; only the shard holding the failed job ends red', () => {
    const shards = run.jobs.filter((j) => j.job === 'run');
    expect(
      shards.map((j) => [j.matrix['shard'], j.result]),
      failureLog(),
    ).toEqual([
      ['1', 'success'],
      ['2', 'success'],
      ['3', 'failure'],
      ['4', 'success'],
    ]);
    // Each shard still uploaded its reports (`if: !cancelled()`), the failed one included.
    expect([...run.artifacts.keys()].filter((k) => k.startsWith('scion-report-')).sort()).toEqual([
      'scion-report-1',
      'scion-report-2',
      'scion-report-3',
      'scion-report-4',
    ]);
    // scion came from the project's node_modules, put on PATH through GITHUB_PATH.
    const scionSteps = stepsOf('run').filter((s) => s.step === 'scion run');
    expect(scionSteps.map((s) => s.outcome)).toEqual(['success', 'success', 'failure', 'success']);
    expect(scionSteps[2]!.outputs).toMatchObject({ failed: 'true', changed: 'false' });
    expect(scionSteps[0]!.outputs).toMatchObject({ failed: 'false', changed: 'true', branches: 'scion/rename-logger/api' });
  });

  it("writes each shard's step summary: changed files, or the failure and its fix", () => {
    const [api, , web] = stepsOf('run').filter((s) => s.step === 'scion run');
    expect(api!.summary).toContain('#### Changed files');
    expect(api!.summary).toContain('- `packages/api/src/server.ts` +1 −1');
    expect(web!.summary).toContain('**not-unique**');
    expect(web!.summary).toContain('packages/web/src/index.ts');
  });

  it('merges the reports (exit 1: a job failed) and still opens the pull requests of the jobs that worked', async () => {
    const job = run.jobs.find((j) => j.job === 'pull-requests')!;
    expect(job.result).toBe('failure');
    const steps = Object.fromEntries(stepsOf('pull-requests').map((s) => [s.step, s]));
    expect(steps["merge the shards' reports"]!.exitCode, failureLog()).toBe(1);
    expect(steps['scion pr']!.outcome, failureLog()).toBe('success');
    expect(steps['run summary']!.outcome).toBe('success');
    expect(steps['keep the merged report']!.outcome).toBe('success');

    const posted = github.pulls.map((p) => [p.head, p.base, p.state, p.labels]);
    expect(posted).toEqual([
      ['scion/rename-logger/api', 'main', 'open', ['codemod', 'scion']],
      ['scion/rename-logger/shared', 'main', 'open', ['codemod', 'scion']],
    ]);
    // The checkout did not know the default branch, so scion pr asked GitHub for it.
    expect(github.requests.some((r) => r.method === 'GET' && r.path === '/repos/acme/widgets')).toBe(true);
    // Each pull request describes its own job: its files and diffs, nothing of the others.
    const [api, shared] = github.pulls;
    expect(api!.body).toContain('packages/api/src/server.ts');
    expect(api!.body).toContain('```diff');
    expect(api!.body).not.toContain('packages/shared/');
    expect(shared!.body).toContain('packages/shared/src/index.ts');
    expect(shared!.body).not.toContain('packages/api/');

    // The remote holds the branches of the jobs that worked, and git finds nothing wrong.
    expect(runGit(bare, 'for-each-ref', '--format=%(refname)', 'refs/heads').split('\n').sort()).toEqual([
      'refs/heads/main',
      'refs/heads/scion/rename-logger/api',
      'refs/heads/scion/rename-logger/shared',
    ]);
    runGit(bare, 'fsck', '--strict', '--no-dangling');
    expect(runGit(bare, 'show', '--format=', '--name-only', 'scion/rename-logger/api').split('\n').sort()).toEqual([
      'packages/api/src/index.ts',
      'packages/api/src/routes.ts',
      'packages/api/src/server.ts',
    ]);
  });

  it('keeps the merged JSON report, the PR body and the HTML report as an artifact', async () => {
    const folder = run.artifacts.get('scion-report')!;
    expect(await listFiles(folder)).toEqual(['out.json', 'pr.md', 'report.html']);
    const merged = JSON.parse(await readFile(join(folder, 'out.json'), 'utf8')) as RunReport;
    expect(merged.jobs.map((j) => [j.name, j.status])).toEqual([
      ['api', 'changed'],
      ['shared', 'changed'],
      ['web', 'failed'],
    ]);
    const html = await readFile(join(folder, 'report.html'), 'utf8');
    expect(html).toContain('id="job-2"');
    expect(html).toContain('not-unique');
    const summary = stepsOf('pull-requests').find((s) => s.step === 'run summary')!.summary;
    expect(summary).toBe(await readFile(join(folder, 'pr.md'), 'utf8'));
    expect(summary).toContain('### Failures (1)');
  });

  it('next week, over the same base: pushes nothing and updates the same pull requests', async () => {
    const heads = runGit(bare, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads');
    const requestsBefore = github.requests.length;
    const pushesBefore = server.requests.filter((r) => r.method === 'POST' && r.service === 'git-receive-pack').length;
    const again = await runAgain();
    expect(again.jobs.map((j) => j.result)).toEqual(['success', 'success', 'failure', 'success', 'failure']);
    expect(server.requests.filter((r) => r.method === 'POST' && r.service === 'git-receive-pack').length).toBe(pushesBefore);
    expect(runGit(bare, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads')).toBe(heads);
    const calls = github.requests
      .slice(requestsBefore)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    expect(calls.filter((c) => c.startsWith('POST /repos/acme/widgets/pulls'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH /repos/acme/widgets/pulls/100', 'PATCH /repos/acme/widgets/pulls/101']);
    expect(github.pulls).toHaveLength(2);
  }, 240_000);
});

describe('recipes/ci/scheduled-codemod.yml, as written', () => {
  it('asks for no more than it needs and uses current action versions and a Node LTS', async () => {
    const wf = await loadWorkflow(WORKFLOW);
    expect(wf['permissions']).toEqual({ contents: 'write', 'pull-requests': 'write' });
    expect(wf['concurrency']).toMatchObject({ 'cancel-in-progress': false });
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps ?? []);
    for (const s of steps.filter((x) => x.uses !== undefined)) {
      expect(s.uses, s.uses).toMatch(/^actions\/(checkout|setup-node|upload-artifact|download-artifact)@v4$/);
    }
    for (const s of steps.filter((x) => x.uses?.startsWith('actions/setup-node'))) {
      const major = Number(s.with!['node-version']);
      // Even majors are the LTS lines; 20 reached its end of life in April 2026.
      expect(major % 2 === 0 && major >= 22, `node-version ${major}`).toBe(true);
    }
    for (const s of steps.filter((x) => x.uses?.startsWith('actions/checkout'))) expect(s.with!['fetch-depth']).toBe(1);
    // scion is run from the project's node_modules, never fetched by npx.
    expect(steps.filter((s) => s.run?.includes('npx'))).toEqual([]);
  });
});
