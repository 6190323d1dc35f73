// Pull-request failures as job errors (kind `pr-failed`): a host that fails with a server error
// (after plugin-retry's retries) or cannot be reached fails the jobs concerned; a push failure is
// `push-failed`. The report keeps a pull request that was made before a later request about it failed.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { GitHubHost } from '../../src/host/github.js';
import { publishPullRequests } from '../../src/publish/pulls.js';
import { useFakeGitHub } from '../support/servers.js';

const gh = useFakeGitHub('acme', 'app');

const SHA = 'a'.repeat(40);
function job(name: string, over: Partial<JobReport> = {}): JobReport {
  return {
    recipe: 'r',
    name,
    base: 'b'.repeat(40),
    branch: `scion/r/${name}`,
    status: 'changed',
    head: SHA,
    worktree: null,
    commits: [{ sha: SHA, group: 'default', message: 'm', files: ['a.txt'] }],
    files: [{ path: 'a.txt', group: 'default', added: 1, removed: 1 }],
    errors: [],
    skipped: [],
    steps: [{ step: 0, kind: 'replace', changed: 1, alreadyApplied: 0 }],
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    durationMs: 1,
    pushed: { remote: 'origin', ref: `refs/heads/scion/r/${name}`, sha: SHA, previous: null, sent: true },
    ...over,
  };
}
const report = (jobs: JobReport[]): RunReport => ({ version: 1, repo: '/r', dryRun: false, jobs });
const host = () => new GitHubHost({ apiUrl: gh.url, token: 'ghs_secretToken123', owner: 'acme', repo: 'app', backoffMs: 1, maxRetries: 2 });

describe('pull-request failures in the report', () => {
  it('a 500 (after retries) fails the job with kind pr-failed and stops publishing; the token never appears', async () => {
    gh.intercept = (r) => (r.method === 'POST' ? { status: 500, body: { message: 'Server Error ghs_secretToken123' } } : undefined);
    const done = await publishPullRequests(report([job('a'), job('b'), job('c', { status: 'empty', head: null, pushed: undefined })]), {
      host: host(),
      base: 'main',
      intervalMs: 0,
      redact: (t) => t.split('ghs_secretToken123').join('***'),
    });
    expect(done.error).toMatch(/500 .*creating the pull request for scion\/r\/a into main/);
    expect(done.report.jobs.map((j) => [j.name, j.status, j.errors.map((e) => [e.step, e.kind])])).toEqual([
      ['a', 'failed', [[1, 'pr-failed']]],
      ['b', 'failed', [[1, 'pr-failed']]],
      ['c', 'empty', []],
    ]);
    expect(JSON.stringify(done)).not.toContain('ghs_secretToken123');
    // The first pull request was tried (and retried); the second never.
    expect(gh.requests.filter((r) => r.method === 'POST').every((r) => (r.body as { head: string }).head === 'scion/r/a')).toBe(true);
  });

  it('a host that cannot be reached fails the jobs with kind pr-failed', async () => {
    const url = gh.url;
    await gh.close();
    const done = await publishPullRequests(report([job('a')]), {
      host: new GitHubHost({ apiUrl: url, token: 't', owner: 'acme', repo: 'app', backoffMs: 1, maxRetries: 0 }),
      base: 'main',
      intervalMs: 0,
    });
    expect(done.error).toContain('Could not reach GitHub');
    expect(done.report.jobs[0]!.errors.map((e) => e.kind)).toEqual(['pr-failed']);
  });

  it('a host that stops answering is given up after its timeout: kind pr-failed, no hang', async () => {
    // The server never answers: without the request's own deadline this call would never return.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const done = await publishPullRequests(report([job('a')]), {
        host: new GitHubHost({ apiUrl, token: 't', owner: 'acme', repo: 'app', backoffMs: 1, maxRetries: 0, timeoutMs: 300 }),
        base: 'main',
        intervalMs: 0,
      });
      expect(done.report.jobs[0]!.errors.map((e) => e.kind)).toEqual(['pr-failed']);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a pull request made before its labels failed stays in the report beside the pr-failed error', async () => {
    gh.intercept = (r) => (r.path.endsWith('/labels') ? { status: 422, body: { message: 'Validation Failed' } } : undefined);
    const done = await publishPullRequests(report([job('a'), job('b')]), {
      host: host(),
      base: 'main',
      intervalMs: 0,
      settings: () => ({ ...DEFAULTS, labels: ['codemod'] }),
    });
    expect(done.report.jobs.map((j) => [j.status, j.pullRequest?.number ?? null, j.errors.map((e) => e.kind)])).toEqual([
      ['failed', 100, ['pr-failed']],
      ['failed', 101, ['pr-failed']],
    ]);
  });

  it('with every request answered, no job changes and error is null', async () => {
    const done = await publishPullRequests(report([job('a')]), { host: host(), base: 'main', intervalMs: 0 });
    expect(done.error).toBeNull();
    expect(done.report.jobs[0]).toMatchObject({ status: 'changed', errors: [], pullRequest: { number: 100, action: 'created' } });
  });
});

import { DEFAULT_PR_SETTINGS as DEFAULTS } from '../../src/publish/describe.js';
