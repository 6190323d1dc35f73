// publishPullRequests as a library call: pull requests paced by intervalMs (--pr-interval): one pause
// between two jobs' pull requests, made through the `pause` it is given (recorded here, not waited).
import { describe, expect, it } from 'vitest';
import { GitHubHost } from '../../src/host/github.js';
import { publishPullRequests } from '../../src/publish/pulls.js';
import { job, sampleReport } from '../report/sample.js';
import { useFakeGitHub } from '../support/servers.js';

const gh = useFakeGitHub('acme', 'app');

const report = () => ({ ...sampleReport(), jobs: ['a', 'b', 'c'].map((name) => job({ name })) });
const host = () => new GitHubHost({ apiUrl: gh.url, token: 'ghs_test123', owner: 'acme', repo: 'app' });

describe('publishPullRequests', () => {
  it('pauses intervalMs between two pull requests: after one is created, before the next is looked up', async () => {
    const pauses: { ms: number; after: string }[] = [];
    const pause = async (ms: number) => void pauses.push({ ms, after: seen() });
    const seen = () => gh.requests.map((r) => `${r.method} ${(r.body as { head?: string } | undefined)?.head ?? r.query.get('head')}`).join(', ');
    const done = await publishPullRequests(report(), { host: host(), base: 'main', intervalMs: 150, pause });
    expect(done.error).toBeNull();
    expect(done.report.jobs.map((j) => j.pullRequest?.action)).toEqual(['created', 'created', 'created']);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => `scion/rename-logger/${n}`);
    expect(pauses).toEqual([
      { ms: 150, after: `GET acme:${a}, POST ${a}` },
      { ms: 150, after: `GET acme:${a}, POST ${a}, GET acme:${b}, POST ${b}` },
    ]);
    expect(seen()).toBe(`GET acme:${a}, POST ${a}, GET acme:${b}, POST ${b}, GET acme:${c}, POST ${c}`);
  });

  it('stops at the first failure, keeping what was done and saying what failed', async () => {
    gh.intercept = (r) =>
      (r.body as { head?: string } | undefined)?.head === 'scion/rename-logger/b'
        ? { status: 403, body: { message: 'Resource not accessible by integration' } }
        : undefined;
    const done = await publishPullRequests(report(), { host: host(), base: 'main', intervalMs: 0 });
    expect(done.report.jobs.map((j) => j.pullRequest?.action ?? null)).toEqual(['created', null, null]);
    expect(done.error).toMatch(/^GitHub refused the request while creating the pull request for scion\/rename-logger\/b into main/);
  });
});
