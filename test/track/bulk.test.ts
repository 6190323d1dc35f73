// Bulk operations on `scion pr` through the CLI, against a git server and a fake GitHub (and GitLab)
// on 127.0.0.1: comment (never the same text twice), close (branch deleted only when every commit on it
// is scion's), ready, merge (only when checks pass and review allows), filtered by --job, --repo and
// --state; one line per pull request, exit 1 when the host refused any.
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { githubRemote, makeRemote, remotePath, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { fakeGitLabsAfterEach, useGitServer } from '../support/servers.js';

const RECIPE = recipeFile(
  'name: three\njobs:\n  - { name: a, files: { include: ["a.txt"] } }\n  - { name: b, files: { include: ["b.txt"] } }\n' +
    '  - { name: c, files: { include: ["c.txt"] } }\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n', 'c.txt': 'v1 again\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();
const gitlabs = fakeGitLabsAfterEach();

async function published(...extra: string[]): Promise<GitHubRemote> {
  const s = await githubRemote(server, FILES, cleanups);
  const run = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json', ...extra], {
    cwd: s.work.dir,
    env: s.env,
  });
  expect(run.code).toBe(0);
  return s;
}

const pr = (s: GitHubRemote, ...args: string[]) => scion(['pr', '--report', 'r.json', ...args], { cwd: s.work.dir, env: s.env });

describe('scion pr: bulk operations', () => {
  it('--comment posts once per pull request; run again, it posts nothing', async () => {
    const s = await published();
    const first = await pr(s, '--comment', 'Please review: this closes in a week.');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('#100 scion/three/a: commented\n#101 scion/three/b: commented\n#102 scion/three/c: commented\n');
    const again = await pr(s, '--comment', 'Please review: this closes in a week.');
    expect(again.code).toBe(0);
    expect(again.stdout.split('\n').filter((l) => l !== '')).toEqual(
      ['a', 'b', 'c'].map((j) => expect.stringMatching(new RegExp(`scion/three/${j}: skipped: this comment is there already$`))),
    );
    expect(s.github.pulls.map((p) => p.comments)).toEqual([1, 2, 3].map(() => ['Please review: this closes in a week.']));
  });

  it('--job and --state select the pull requests', async () => {
    const s = await published();
    s.github.pulls[1]!.headSha = 'b1b1b1b1';
    s.github.pulls[1]!.checkRuns = [{ status: 'completed', conclusion: 'failure' }];
    const failing = await pr(s, '--comment', 'CI fails here', '--state', 'failing');
    expect(failing.stdout).toBe('#101 scion/three/b: commented\n');
    const byJob = await pr(s, '--comment', 'hello', '--job', 'c', '--job', 'three/a');
    expect(byJob.stdout).toBe('#100 scion/three/a: commented\n#102 scion/three/c: commented\n');
    const none = await pr(s, '--comment', 'hello', '--job', 'zzz');
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('r.json: no open pull request matches; nothing to do.\n');
  });

  it("--close deletes a branch that holds only scion's commits, keeps one a person added to", async () => {
    const s = await published();
    // A reviewer pushes a commit onto b's branch.
    const other = await s.remote.clone({ name: 'Reviewer', email: 'r@example.com' });
    await other.gitAsync(...server.authArgs(), 'fetch', '-q', 'origin', 'scion/three/b');
    await other.gitAsync('checkout', '-q', '-b', 'fix', 'FETCH_HEAD');
    await other.gitAsync('commit', '--allow-empty', '-q', '-m', 'reviewer fix');
    await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'HEAD:scion/three/b');
    const res = await pr(s, '--close', '--job', 'a', '--job', 'b');
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n').filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^#100 scion\/three\/a: closed; deleted scion\/three\/a on origin$/),
      expect.stringMatching(/^#101 scion\/three\/b: closed; kept scion\/three\/b on origin: it holds commits scion did not write$/),
    ]);
    expect(s.github.pulls.map((p) => p.state)).toEqual(['closed', 'closed', 'open']);
    const heads = s.remote.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/scion').split('\n');
    expect(heads).toEqual(['scion/three/b', 'scion/three/c']);
  });

  it('--ready marks drafts ready; a pull request that is no draft is left as it is', async () => {
    const s = await published('--draft');
    s.github.pulls[2]!.draft = false;
    const res = await pr(s, '--ready', '--job', 'a', '--job', 'c');
    expect(res.stdout).toBe('#100 scion/three/a: marked ready for review\n#102 scion/three/c: skipped: not a draft\n');
    expect(s.github.pulls.map((p) => p.draft)).toEqual([false, true, false]);
  });

  it('--merge merges only where checks pass and review allows; a refusal is exit 1', async () => {
    const s = await published();
    const [a, b, c] = s.github.pulls;
    Object.assign(a!, { headSha: 'a1a1a1a1', checkRuns: [{ status: 'completed', conclusion: 'success' }], reviews: [{ user: 'octocat', state: 'APPROVED' }] });
    Object.assign(b!, { headSha: 'b1b1b1b1', checkRuns: [{ status: 'completed', conclusion: 'failure' }] });
    Object.assign(c!, { reviewers: ['octocat'] });
    const res = await pr(s, '--merge', 'squash');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      '#100 scion/three/a: merged (squash)\n#101 scion/three/b: not merged: checks failed\n#102 scion/three/c: not merged: it waits for a review\n',
    );
    expect(s.github.pulls.map((p) => [p.merged, p.mergeMethod ?? null])).toEqual([
      [true, 'squash'],
      [false, null],
      [false, null],
    ]);

    c!.reviews = [{ user: 'octocat', state: 'APPROVED' }];
    s.github.intercept = (r) =>
      r.method === 'PUT' && r.path.endsWith('/merge')
        ? { status: 405, body: { message: 'Base branch was modified. Review and try the merge again.' } }
        : undefined;
    const refused = await pr(s, '--merge');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^#101 scion\/three\/b: not merged: checks failed\n#102 scion\/three\/c: failed: GitHub answered 405/);
    expect(refused.stderr).toContain('the host refused 1 of 2 pull requests');
  });

  it('two operations at once, or a filter without one, is bad usage', async () => {
    const s = await published();
    const two = await pr(s, '--close', '--ready');
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('choose one per command');
    const alone = await pr(s, '--state', 'open');
    expect(alone.code).toBe(2);
    expect(s.github.pulls.every((p) => p.state === 'open' && p.comments.length === 0)).toBe(true);
  });

  it('on GitLab: comments once and merges an approved merge request', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const gitlab = await gitlabs(remotePath(remote));
    const env = { GITLAB_TOKEN: server.token, GITLAB_API_URL: gitlab.apiUrl, CI_SERVER_URL: server.url };
    const run = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: work.dir, env });
    expect(run.code).toBe(0);
    for (const k of [1, 2]) {
      const res = await scion(['pr', '--report', 'r.json', '--comment', 'Ping'], { cwd: work.dir, env });
      expect(res.stdout.split('\n')[0]).toBe(k === 1 ? '#1 scion/three/a: commented' : '#1 scion/three/a: skipped: this comment is there already');
    }
    expect(gitlab.mrs.map((m) => m.notes)).toEqual([['Ping'], ['Ping'], ['Ping']]);
    gitlab.mrs[0]!.pipeline = 'success';
    gitlab.mrs[0]!.approvedBy = ['octocat'];
    gitlab.mrs[1]!.pipeline = 'failed';
    gitlab.mrs[2]!.approvalsLeft = 1;
    const merged = await scion(['pr', '--report', 'r.json', '--merge', 'squash'], { cwd: work.dir, env });
    expect(merged.stdout).toBe(
      '#1 scion/three/a: merged (squash)\n#2 scion/three/b: not merged: checks failed\n#3 scion/three/c: not merged: it waits for a review\n',
    );
    expect(gitlab.mrs.map((m) => m.state)).toEqual(['merged', 'opened', 'opened']);
  });
});
