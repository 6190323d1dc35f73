// `scion pr` and `run --pr`: branches pushed to a git server on 127.0.0.1, pull requests opened
// against a fake GitHub API on 127.0.0.1 that records every request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { DEFAULT_PR_SETTINGS, describeJob } from '../../src/publish/describe.js';
import type { FakeGitHub } from '../support/fake-github.js';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';

const RECIPE = recipeFile(
  'name: two\ndescription: Move to v2\njobs:\n  - { name: a, files: { include: ["a.txt"] } }\n  - { name: b, files: { include: ["b.txt"] } }\n' +
    '  - { name: c, files: { include: ["c.txt"] } }\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n', 'c.txt': 'nothing to change\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();

const setup = (): Promise<GitHubRemote> => githubRemote(server, FILES, cleanups);

async function pushRun(s: GitHubRemote): Promise<RunReport> {
  const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
  expect(res.code).toBe(0);
  return JSON.parse(readFileSync(join(s.work.dir, 'r.json'), 'utf8')) as RunReport;
}

const creates = (g: FakeGitHub) => g.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'));

describe('scion pr', () => {
  it('creates one pull request per pushed branch, then updates them on the next call', async () => {
    const s = await setup();
    const report = await pushRun(s);
    expect(report.jobs.map((j) => [j.name, j.status, j.pushed?.sent ?? null])).toEqual([
      ['a', 'changed', true],
      ['b', 'changed', true],
      ['c', 'empty', null],
    ]);

    const first = await scion(['pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const posted = creates(s.github);
    expect(posted.map((r) => r.body)).toEqual(
      report.jobs
        .filter((j) => j.status === 'changed')
        .map((j) => {
          const text = describeJob(report, j, DEFAULT_PR_SETTINGS);
          return { title: text.title, head: j.branch, base: 'main', body: text.body };
        }),
    );
    expect(posted.map((r) => (r.body as { head: string }).head)).toEqual(['scion/two/a', 'scion/two/b']);
    expect((posted[0]!.body as { body: string }).body).toContain('a.txt');
    expect(posted[0]!.headers.authorization).toBe(`Bearer ${server.token}`);
    const url = (n: number) => `https://github.example/${s.owner}/${s.repo}/pull/${n}`;
    expect(first.stdout).toBe(`created pull request #100 for scion/two/a: ${url(100)}\ncreated pull request #101 for scion/two/b: ${url(101)}\n`);

    const second = await scion(['pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(second.code).toBe(0);
    expect(creates(s.github)).toHaveLength(2);
    expect(s.github.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
      `/repos/${s.owner}/${s.repo}/pulls/100`,
      `/repos/${s.owner}/${s.repo}/pulls/101`,
    ]);
    expect(second.stdout).toBe(`updated pull request #100 for scion/two/a: ${url(100)}\nupdated pull request #101 for scion/two/b: ${url(101)}\n`);
    expect(s.github.pulls.map((p) => p.state)).toEqual(['open', 'open']);
  });

  it('passes --draft and every --label', async () => {
    const s = await setup();
    await pushRun(s);
    const res = await scion(['pr', '--pr-interval', '0', '--report', 'r.json', '--draft', '--label', 'codemod', '--label', 'scion'], {
      cwd: s.work.dir,
      env: s.env,
    });
    expect(res.code).toBe(0);
    expect(creates(s.github).map((r) => (r.body as { draft?: boolean }).draft)).toEqual([true, true]);
    expect(s.github.pulls.map((p) => [p.draft, p.labels])).toEqual([
      [true, ['codemod', 'scion']],
      [true, ['codemod', 'scion']],
    ]);
  });

  it('a missing token is bad usage (exit 2) naming GITHUB_TOKEN, and nothing is sent', async () => {
    const s = await setup();
    await pushRun(s);
    const res = await scion(['pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: { ...s.env, GITHUB_TOKEN: undefined } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('set GITHUB_TOKEN');
    expect(s.github.requests).toEqual([]);
  });

  it("merges into --base, else the remote's default branch (asking GitHub when the clone does not know it)", async () => {
    const s = await setup();
    await pushRun(s);
    s.work.git('symbolic-ref', '--delete', 'refs/remotes/origin/HEAD');
    s.github.intercept = (r) =>
      r.method === 'GET' && r.path === `/repos/${s.owner}/${s.repo}` ? { status: 200, body: { default_branch: 'trunk' } } : undefined;
    expect((await scion(['pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: s.env })).code).toBe(0);
    expect(creates(s.github).map((r) => (r.body as { base: string }).base)).toEqual(['trunk', 'trunk']);

    s.github.pulls.forEach((p) => (p.state = 'closed'));
    const before = s.github.requests.length;
    expect((await scion(['pr', '--pr-interval', '0', '--report', 'r.json', '--base', 'release', '--reopen'], { cwd: s.work.dir, env: s.env })).code).toBe(0);
    const later = s.github.requests.slice(before);
    expect(later.some((r) => r.path === `/repos/${s.owner}/${s.repo}`)).toBe(false);
    expect(later.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls')).map((r) => (r.body as { base: string }).base)).toEqual(['release', 'release']);
  });

  it("prints GitHub's error as is and exits 1, keeping the pull requests already made", async () => {
    const s = await setup();
    await pushRun(s);
    let posts = 0;
    s.github.intercept = (r) =>
      r.method === 'POST' && r.path.endsWith('/pulls') && ++posts === 2
        ? { status: 403, body: { message: 'Resource not accessible by integration' } }
        : undefined;
    const res = await scion(['pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('created pull request #100 for scion/two/a');
    expect(res.stderr).toBe(
      'scion: GitHub refused the request while creating the pull request for scion/two/b into main (403 Resource not accessible by integration); ' +
        'give the token pull-request write permission (in Actions: `permissions: pull-requests: write`, and allow GitHub Actions to create pull ' +
        'requests in the repository settings).\n',
    );
  });

  it('takes the changed branches of a report written without --push as pushed, and says so', async () => {
    const s = await setup();
    const run = await scion(['run', RECIPE, '--repo', s.work.dir, '--report', 'plain.json'], { cwd: s.work.dir, env: s.env });
    expect(run.code).toBe(0);
    const res = await scion(['pr', '--pr-interval', '0', '--report', 'plain.json'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('plain.json records no push');
    expect(creates(s.github)).toHaveLength(2);
  });

  it('opens nothing for a report without changed branches', async () => {
    const s = await setup();
    const none = recipeFile('name: none\nsteps:\n  - replace: { old_string: "v9", new_string: "v10", replace_all: true }\n');
    const run = await scion(['run', none, '--repo', s.work.dir, '--push', '--report', 'none.json'], { cwd: s.work.dir, env: s.env });
    expect(run.code).toBe(0);
    const res = await scion(['pr', '--pr-interval', '0', '--report', 'none.json'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('none.json lists no pushed branch: no pull request to open.\n');
    // The empty job's branch is only looked up (an open pull request of it would be closed).
    expect(s.github.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('talks to the remote the report says the branches went to', async () => {
    const s = await setup();
    s.work.git('remote', 'rename', 'origin', 'upstream');
    s.work.git('remote', 'add', 'origin', 'https://example.invalid/not/github.git');
    const run = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', 'upstream', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('pushed scion/two/a to upstream');
    const res = await scion(['pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(0);
    expect(creates(s.github).map((r) => (r.body as { base: string }).base)).toEqual(['main', 'main']);
  });
});

describe('run --push --pr', () => {
  it('pushes, opens the pull requests and records them in the report', async () => {
    const s = await setup();
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--label', 'codemod', '--report', 'r.json'], {
      cwd: s.work.dir,
      env: s.env,
    });
    expect(res.stderr).not.toMatch(/error|records no push/);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(
        /pushed scion\/two\/a to origin at [0-9a-f]{12} \(new branch\)\npushed scion\/two\/b to origin at [0-9a-f]{12} \(new branch\)\n/.source +
          /created pull request #100 for scion\/two\/a: .*\ncreated pull request #101 for scion\/two\/b: /.source,
      ),
    );
    const report = JSON.parse(readFileSync(join(s.work.dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs.map((j) => j.pullRequest?.number ?? null)).toEqual([100, 101, null]);
    expect(report.jobs[0]!.pullRequest).toEqual({ number: 100, url: `https://github.example/${s.owner}/${s.repo}/pull/100`, action: 'created' });
    expect(s.github.pulls.map((p) => [p.head, p.labels])).toEqual([
      ['scion/two/a', ['codemod']],
      ['scion/two/b', ['codemod']],
    ]);
  });

  it('creates on a later run the pull request a failed call left out, though nothing new is pushed', async () => {
    const s = await setup();
    s.github.intercept = (r) =>
      r.method === 'POST' && r.path.endsWith('/pulls')
        ? { status: 403, body: { message: 'GitHub Actions is not permitted to create or approve pull requests.' } }
        : undefined;
    const first = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr'], { cwd: s.work.dir, env: s.env });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('GitHub Actions is not permitted to create or approve pull requests.');

    s.github.intercept = undefined;
    const again = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: s.work.dir, env: s.env });
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as RunReport;
    expect(report.jobs.map((j) => [j.status, j.pushed?.sent ?? null, j.pullRequest?.action ?? null])).toEqual([
      ['unchanged', false, 'created'],
      ['unchanged', false, 'created'],
      ['empty', null, null],
    ]);
    expect(s.github.pulls.map((p) => p.head)).toEqual(['scion/two/a', 'scion/two/b']);
  });

  it('a pull request the host refuses (422) fails its job with kind pr-failed in the JSON report, exit 1; the others are still opened', async () => {
    const s = await setup();
    s.github.intercept = (r) =>
      r.method === 'POST' && r.path.endsWith('/pulls') && (r.body as { head: string }).head === 'scion/two/a'
        ? { status: 422, body: { message: 'Validation Failed', errors: [{ message: 'No commits between main and scion/two/a' }] } }
        : undefined;
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], {
      cwd: s.work.dir,
      env: s.env,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No commits between main and scion/two/a');
    const report = JSON.parse(readFileSync(join(s.work.dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs.map((j) => [j.name, j.status, j.pushed?.sent ?? null, j.pullRequest?.action ?? null, j.errors.map((e) => e.kind)])).toEqual([
      ['a', 'failed', true, null, ['pr-failed']],
      ['b', 'changed', true, 'created', []],
      ['c', 'empty', null, null, []],
    ]);
    const error = report.jobs[0]!.errors[0]!;
    expect(error.message).toContain('creating the pull request for scion/two/a');
    // After the recipe's one step, where a push error would be.
    expect(error.step).toBe(1);
    expect(s.github.pulls.map((p) => p.head)).toEqual(['scion/two/b']);
  });

  it('a host that refuses every request (403) stops publishing: the job it failed on and those not reached are pr-failed', async () => {
    const s = await setup();
    s.github.intercept = (r) =>
      r.method === 'POST' && r.path.endsWith('/pulls') ? { status: 403, body: { message: 'Resource not accessible by integration' } } : undefined;
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as RunReport;
    expect(report.jobs.map((j) => [j.name, j.status, j.errors.map((e) => e.kind)])).toEqual([
      ['a', 'failed', ['pr-failed']],
      ['b', 'failed', ['pr-failed']],
      ['c', 'empty', []],
    ]);
    expect(report.jobs[1]!.errors[0]!.message).toContain('publishing stopped at scion/two/a');
    // Only the first was tried.
    expect(creates(s.github)).toHaveLength(1);
  });
});
