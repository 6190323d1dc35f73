// GitLab: the host chosen from the remote's URL (GITLAB_API_URL's host), pushes with oauth2:GITLAB_TOKEN,
// merge requests created, updated and closed on a fake GitLab API on 127.0.0.1; a 429 waited out.
import { WriteBudgets } from '../../src/host/budget.js';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { GitLabHost } from '../../src/host/gitlab.js';
import { makeRemote, remotePath } from '../support/git-remote.js';
import { fakeClock, scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeGitLabsAfterEach, useGitServer } from '../support/servers.js';

const RECIPE = recipeFile(
  'name: bump\ndescription: Move to v2\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\npr:\n  labels: [codemod]\n  reviewers: ' +
    '[octocat]\n  autoMerge: squash\n',
);

const server = useGitServer('glpat-test-token');
const cleanups = cleanupAfterEach();
const startFakeGitLab = fakeGitLabsAfterEach();

describe('GitLab', () => {
  it('pushes with GITLAB_TOKEN, creates the merge request, updates it on a rerun, closes it when the job ends empty', async () => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    const project = remotePath(remote);
    const gitlab = await startFakeGitLab(project);
    // Only GITLAB_TOKEN: GITHUB_TOKEN is set to something else and must go nowhere. CI_SERVER_URL says
    // the git server is GitLab's (as GitLab CI sets it), GITLAB_API_URL where its API is.
    const env = { GITLAB_TOKEN: server.token, GITLAB_API_URL: gitlab.apiUrl, CI_SERVER_URL: server.url, GITHUB_TOKEN: 'ghp_not_for_gitlab' };
    const fromGit = server.requests.length;
    const runIt = async () => {
      const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr', '--pr-interval', '0', '--json'], { cwd: work.dir, env });
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout) as RunReport;
    };

    const first = await runIt();
    expect(first.jobs[0]!.pullRequest).toEqual({ number: 1, url: `https://gitlab.example/${project}/-/merge_requests/1`, action: 'created' });
    expect(remote.git('rev-parse', 'scion/bump')).toBe(first.jobs[0]!.head);
    expect(gitlab.mrs[0]).toMatchObject({
      source: 'scion/bump',
      target: 'main',
      title: 'Move to v2',
      labels: ['codemod'],
      reviewerIds: [7],
      autoMerge: true,
      squash: true,
    });
    for (const r of gitlab.requests) {
      expect(r.headers['private-token']).toBe(server.token);
      expect(JSON.stringify(r.headers)).not.toContain('ghp_not_for_gitlab');
    }
    // The git server got GitLab's token (as oauth2), and only after asking for it.
    const gitAuth = server.requests.slice(fromGit).map((r) => r.authorization);
    expect(gitAuth[0]).toBeNull();
    expect(new Set(gitAuth.filter((a) => a !== null))).toEqual(new Set([`Basic ${Buffer.from(`oauth2:${server.token}`).toString('base64')}`]));

    const second = await runIt();
    expect(second.jobs[0]!.pullRequest!.action).toBe('updated');
    expect(gitlab.mrs).toHaveLength(1);

    const other = await remote.clone();
    other.git('checkout', '-q', 'origin/scion/bump', '--', 'a.txt');
    other.git('commit', '-qm', 'by hand');
    await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'main');
    await work.gitAsync(...server.authArgs(), 'pull', '-q', '--ff-only');
    const third = await runIt();
    expect(third.jobs[0]!.status).toBe('empty');
    expect(third.jobs[0]!.pullRequest!.action).toBe('closed');
    expect(gitlab.mrs[0]!.state).toBe('closed');
    expect(gitlab.mrs[0]!.notes[0]).toContain('no longer needed');
    expect(remote.git('for-each-ref', 'refs/heads/scion/')).toBe('');
  });

  it('waits out a 429 with Retry-After (through the sleep it is given, recorded here), then creates the merge request', async () => {
    const gitlab = await startFakeGitLab('acme/app');
    let limited = 0;
    gitlab.intercept = (r) =>
      r.method === 'POST' && limited++ === 0 ? { status: 429, headers: { 'retry-after': '9' }, body: { message: 'Retry later' } } : undefined;
    const waits: { ms: number; requests: number }[] = [];
    const sleep = async (ms: number) => void waits.push({ ms, requests: gitlab.requests.length });
    const host = new GitLabHost({ apiUrl: gitlab.apiUrl, token: 'glpat-test-token', project: 'acme/app', sleep });
    const pull = await host.createPull({ branch: 'scion/bump', base: 'main', title: 'Move to v2', body: 'body', draft: false });
    expect(pull.number).toBe(1);
    expect(gitlab.requests.map((r) => `${r.method} ${r.path.replace(/^.*\/merge_requests/, 'mr')}`)).toEqual(['POST mr', 'POST mr']);
    // 9 s, after the refused request and before its retry.
    expect(waits).toEqual([{ ms: 9_000, requests: 1 }]);
    expect(gitlab.mrs).toHaveLength(1);
  });

  it('waits out a 429 answered again and again (more than the retries a server error gets)', async () => {
    const gitlab = await startFakeGitLab('acme/app');
    let limited = 0;
    gitlab.intercept = (r) =>
      r.method === 'POST' && limited++ < 5 ? { status: 429, headers: { 'retry-after': '30' }, body: { message: 'Retry later' } } : undefined;
    const waits: number[] = [];
    // The host's wait holds the token's write budget too: on a clock that moves on at once.
    const clock = fakeClock(0);
    const sleep = async (ms: number) => {
      waits.push(ms);
      clock.at += ms;
    };
    const writes = new WriteBudgets({ clock });
    const host = new GitLabHost({ apiUrl: gitlab.apiUrl, token: 'glpat-test-token', project: 'acme/app', maxRetries: 3, sleep, writes });
    await host.createPull({ branch: 'scion/bump', base: 'main', title: 'Move to v2', body: 'body', draft: false });
    expect(waits).toEqual(Array(5).fill(30_000));
    expect(gitlab.mrs).toHaveLength(1);
  });
});
