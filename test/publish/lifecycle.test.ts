// The life of a nightly codemod's pull request, end to end through the CLI: branches pushed
// to git http-backend on 127.0.0.1, pull requests on a fake GitHub (REST + GraphQL) that records
// every request; the remote judged with native git.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import type { FakeGitHub } from '../support/fake-github.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { useGitServer } from '../support/servers.js';

const PR_BLOCK =
  'pr:\n  title: "chore: {{description}} ({{job}})"\n  draft: true\n  labels: [codemod]\n  reviewers: [octocat, "team:platform"]\n  assignees: ' +
  '[hubot]\n  autoMerge: squash\n';
const RECIPE = recipeFile(
  'name: two\ndescription: Move to v2\njobs:\n  - { name: a, files: { include: ["a.txt"] } }\n  - { name: b, files: { include: ["b.txt"] } }\n' +
    'steps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n' +
    PR_BLOCK,
);
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();

async function setup(): Promise<GitHubRemote> {
  const s = await githubRemote(server, FILES, cleanups);
  const { remote, github } = s;
  github.headOf = (branch) => {
    try {
      return remote.git('rev-parse', '--verify', '-q', `refs/heads/${branch}`);
    } catch {
      return null;
    }
  };
  return s;
}

async function run(s: GitHubRemote, ...extra: string[]): Promise<RunReport> {
  const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--json', ...extra], { cwd: s.work.dir, env: s.env });
  expect(res.stderr).not.toContain('internal error');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as RunReport;
}

const actions = (r: RunReport) => r.jobs.map((j) => [j.name, j.status, j.pullRequest?.action ?? null]);
const posts = (g: FakeGitHub, path: RegExp) => g.requests.filter((r) => r.method === 'POST' && path.test(r.path));
const remoteBranches = (s: GitHubRemote) => s.remote.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/scion/').split('\n').filter(Boolean);

/** Someone merges the change into main by hand, and the clone picks it up: the jobs end empty. */
async function mergeByHand(s: GitHubRemote): Promise<void> {
  const other = await s.remote.clone({ name: 'Maintainer', email: 'm@example.com' });
  other.git('checkout', '-q', 'main');
  for (const f of Object.keys(FILES)) other.git('show', `origin/scion/two/${f[0]}:${f}`);
  other.git('checkout', '-q', 'origin/scion/two/a', '--', 'a.txt');
  other.git('checkout', '-q', 'origin/scion/two/b', '--', 'b.txt');
  other.git('commit', '-qm', 'v2 by hand');
  await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'main');
  await s.work.gitAsync(...server.authArgs(), 'pull', '-q', '--ff-only');
}

describe('the pr: block', () => {
  it('creates draft pull requests with its title, labels, reviewers (teams too), assignees and auto-merge; updates them on a rerun', async () => {
    const s = await setup();
    const first = await run(s);
    expect(actions(first)).toEqual([
      ['a', 'changed', 'created'],
      ['b', 'changed', 'created'],
    ]);
    expect(s.github.pulls.map((p) => [p.head, p.title, p.draft, p.labels, p.reviewers, p.teamReviewers, p.assignees, p.autoMerge])).toEqual([
      ['scion/two/a', 'chore: Move to v2 (a)', true, ['codemod'], ['octocat'], ['platform'], ['hubot'], 'SQUASH'],
      ['scion/two/b', 'chore: Move to v2 (b)', true, ['codemod'], ['octocat'], ['platform'], ['hubot'], 'SQUASH'],
    ]);
    expect(posts(s.github, /^\/graphql$/).map((r) => (r.body as { query: string }).query)).toEqual([
      expect.stringContaining('enablePullRequestAutoMerge'),
      expect.stringContaining('enablePullRequestAutoMerge'),
    ]);

    const again = await run(s);
    expect(actions(again)).toEqual([
      ['a', 'unchanged', 'updated'],
      ['b', 'unchanged', 'updated'],
    ]);
    expect(s.github.pulls).toHaveLength(2);
    expect(posts(s.github, /\/pulls$/)).toHaveLength(2);
  });
});

describe('closing', () => {
  it('closes the pull request of a job that ended empty with a comment, and deletes its branch', async () => {
    const s = await setup();
    await run(s);
    await mergeByHand(s);
    const report = await run(s);
    expect(actions(report)).toEqual([
      ['a', 'empty', 'closed'],
      ['b', 'empty', 'closed'],
    ]);
    expect(s.github.pulls.map((p) => [p.state, p.comments.length])).toEqual([
      ['closed', 1],
      ['closed', 1],
    ]);
    expect(s.github.pulls[0]!.comments[0]).toContain('no longer needed');
    expect(remoteBranches(s)).toEqual([]);
    s.remote.git('fsck', '--strict');

    // Nothing open any more: a later run closes nothing and opens nothing.
    const before = s.github.requests.length;
    expect(actions(await run(s))).toEqual([
      ['a', 'empty', null],
      ['b', 'empty', null],
    ]);
    expect(s.github.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("keeps the branch that holds a reviewer's commit, closing its pull request all the same", async () => {
    const s = await setup();
    await run(s);
    const reviewer = await s.remote.clone({ name: 'Reviewer', email: 'r@example.com' });
    reviewer.git('checkout', '-q', 'scion/two/a');
    reviewer.git('commit', '-q', '--allow-empty', '-m', 'review: looks fine');
    await reviewer.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'scion/two/a');
    await mergeByHand(s);
    const report = await run(s);
    expect(actions(report)).toEqual([
      ['a', 'empty', 'closed'],
      ['b', 'empty', 'closed'],
    ]);
    expect(remoteBranches(s)).toEqual(['scion/two/a']);
    expect(s.remote.git('log', '-1', '--format=%an', 'scion/two/a')).toBe('Reviewer');
  });
});

describe("a person's decision", () => {
  it('leaves a pull request closed unmerged closed across reruns while the change is the same; --reopen opens a new one', async () => {
    const s = await setup();
    await run(s);
    s.github.pulls[0]!.state = 'closed';
    for (let i = 0; i < 2; i++) {
      const report = await run(s);
      expect(actions(report)).toEqual([
        ['a', 'unchanged', 'declined'],
        ['b', 'unchanged', 'updated'],
      ]);
      expect(report.jobs[0]!.pullRequest!.number).toBe(100);
    }
    expect(posts(s.github, /\/pulls$/)).toHaveLength(2);
    expect(s.github.pulls[0]!.state).toBe('closed');

    const reopened = await run(s, '--reopen');
    expect(actions(reopened)[0]).toEqual(['a', 'unchanged', 'created']);
    expect(s.github.pulls.map((p) => [p.head, p.state])).toEqual([
      ['scion/two/a', 'closed'],
      ['scion/two/b', 'open'],
      ['scion/two/a', 'open'],
    ]);
  });
});

describe('scion status', () => {
  it('prints a row per job from the host: state, checks, review, commits behind the base', async () => {
    const s = await setup();
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], {
      cwd: s.work.dir,
      env: s.env,
    });
    expect(res.code).toBe(0);
    const [a, b] = s.github.pulls as [(typeof s.github.pulls)[number], (typeof s.github.pulls)[number]];
    a.draft = false;
    a.checkRuns.push({ status: 'completed', conclusion: 'success' });
    a.reviews.push({ user: 'octocat', state: 'APPROVED' });
    b.checkRuns.push({ status: 'completed', conclusion: 'failure' }, { status: 'in_progress', conclusion: null });
    // main moves on by two commits.
    const other = await s.remote.clone();
    other.git('commit', '-q', '--allow-empty', '-m', 'one');
    other.git('commit', '-q', '--allow-empty', '-m', 'two');
    await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'main');

    const json = await scion(['status', '--report', 'r.json', '--repo', s.work.dir, '--json'], { cwd: s.work.dir, env: s.env });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const url = (n: number) =>
      `https://github.example/${s.remote.url
        .split('/')
        .slice(-2)
        .join('/')
        .replace(/\.git$/, '')}/pull/${n}`;
    expect(JSON.parse(json.stdout)).toEqual([
      { repo: s.work.dir, branch: 'scion/two/a', pullRequest: { number: 100, url: url(100) }, state: 'open', checks: 'success', review: 'approved', behind: 2 },
      {
        repo: s.work.dir,
        branch: 'scion/two/b',
        pullRequest: { number: 101, url: url(101) },
        state: 'draft',
        checks: 'failure',
        review: 'required',
        behind: 2,
      },
    ]);
    // The same rows from the recipe itself: each branch's base is read from its commits.
    const fromRecipe = await scion(['status', RECIPE, '--repo', s.work.dir, '--json'], { cwd: s.work.dir, env: s.env });
    expect(fromRecipe.code).toBe(0);
    expect(JSON.parse(fromRecipe.stdout)).toEqual(JSON.parse(json.stdout));
    b.merged = true;
    b.state = 'closed';
    const table = await scion(['status', '--report', 'r.json', '--repo', s.work.dir], { cwd: s.work.dir, env: s.env });
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^BRANCH\s+PR\s+STATE\s+CHECKS\s+REVIEW\s+BEHIND$/);
    expect(lines[1]).toMatch(/^scion\/two\/a\s+#100 \S+\s+open\s+success\s+approved\s+2$/);
    expect(lines[2]).toMatch(/^scion\/two\/b\s+#101 \S+\s+merged\s+none\s+none\s+2$/);
  });
});

describe('scion branches --prune', () => {
  it('deletes branches whose pull request ended, locally and on the remote, and keeps one holding a human commit', async () => {
    const s = await setup();
    await run(s);
    for (const p of s.github.pulls) p.state = 'closed';
    s.github.pulls[0]!.merged = true;
    const human = await s.remote.clone({ name: 'Human', email: 'h@example.com' });
    human.git('checkout', '-q', 'scion/two/b');
    human.git('commit', '-q', '--allow-empty', '-m', 'human work');
    await human.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'scion/two/b');

    const res = await scion(['branches', '--prune', '--remote', 'origin', '--repo', s.work.dir], { cwd: s.work.dir, env: s.env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('deleted scion/two/a (pull request #100 merged)');
    expect(res.stdout).toContain('deleted scion/two/a on origin');
    expect(res.stdout).toContain('kept scion/two/b on origin (holds commits scion did not write)');
    expect(remoteBranches(s)).toEqual(['scion/two/b']);
    expect(s.work.git('branch', '--list', 'scion/*').trim()).toBe('');
    s.work.git('fsck', '--strict');
  });
});

describe('run --pr and scion pr agree', () => {
  it('scion pr applies the pr block of the recipes named on its command line', async () => {
    const s = await setup();
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(0);
    const pr = await scion(['pr', RECIPE, '--report', 'r.json', '--pr-interval', '0', '--label', 'extra'], { cwd: s.work.dir, env: s.env });
    expect(pr.code, pr.stderr).toBe(0);
    expect(s.github.pulls.map((p) => [p.title, p.labels, p.draft])).toEqual([
      ['chore: Move to v2 (a)', ['codemod', 'extra'], true],
      ['chore: Move to v2 (b)', ['codemod', 'extra'], true],
    ]);
    const report = JSON.parse(readFileSync(join(s.work.dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs.every((j) => j.pushed?.sent === true)).toBe(true);
  });
});
