// publishPullRequests as a library call: pull requests paced by intervalMs (--pr-interval), and
// none of the pause when it is 0.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitHubHost } from '../../src/host/github.js';
import { publishPullRequests } from '../../src/publish/pulls.js';
import { startFakeGitHub, type FakeGitHub } from '../github/fake-github.js';
import { job, sampleReport } from '../report/sample.js';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await startFakeGitHub('acme', 'app');
});
afterEach(async () => {
  await gh.close();
});

const report = () => ({ ...sampleReport(), jobs: ['a', 'b', 'c'].map((name) => job({ name })) });
const host = () => new GitHubHost({ apiUrl: gh.url, token: 'ghs_test123', owner: 'acme', repo: 'app' });

describe('publishPullRequests', () => {
  it('waits intervalMs between two pull requests', async () => {
    const done = await publishPullRequests(report(), { host: host(), base: 'main', intervalMs: 150 });
    expect(done.error).toBeNull();
    expect(done.report.jobs.map((j) => j.pullRequest?.action)).toEqual(['created', 'created', 'created']);
    const lookups = gh.requests.filter((r) => r.method === 'GET');
    const creates = gh.requests.filter((r) => r.method === 'POST');
    expect(lookups[1]!.at - creates[0]!.at).toBeGreaterThanOrEqual(140);
    expect(lookups[2]!.at - creates[1]!.at).toBeGreaterThanOrEqual(140);
  });

  it('stops at the first failure, keeping what was done and saying what failed', async () => {
    gh.intercept = (r) => ((r.body as { head?: string } | undefined)?.head === 'scion/rename-logger/b' ? { status: 403, body: { message: 'Resource not accessible by integration' } } : undefined);
    const done = await publishPullRequests(report(), { host: host(), base: 'main', intervalMs: 0 });
    expect(done.report.jobs.map((j) => j.pullRequest?.action ?? null)).toEqual(['created', null, null]);
    expect(done.error).toMatch(/^GitHub refused the request while creating the pull request for scion\/rename-logger\/b into main/);
  });
});
