import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitHubApiError, upsertPullRequests, type UpsertOptions } from '../../src/github/pulls.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

let gh: FakeGitHub;
beforeEach(async () => {
  gh = await startFakeGitHub('acme', 'app');
});
afterEach(async () => {
  await gh.close();
});

const opts = (over: Partial<UpsertOptions> = {}): UpsertOptions => ({
  apiUrl: gh.url,
  token: 'ghs_test123',
  owner: 'acme',
  repo: 'app',
  base: 'main',
  prs: [{ branch: 'scion/rename-logger', title: 'Move to the new logger', body: 'body 1' }],
  delayMs: 0,
  ...over,
});

describe('upsertPullRequests', () => {
  it('creates a pull request when none is open, as a draft when asked, and labels it', async () => {
    const out = await upsertPullRequests(opts({ draft: true, labels: ['codemod', 'scion'] }));
    expect(out).toEqual([{ branch: 'scion/rename-logger', number: 100, url: 'https://github.example/acme/app/pull/100', action: 'created' }]);
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/app/pulls',
      'POST /repos/acme/app/pulls',
      'POST /repos/acme/app/issues/100/labels',
    ]);
    expect(gh.requests[0]!.query.get('head')).toBe('acme:scion/rename-logger');
    expect(gh.requests[0]!.query.get('state')).toBe('open');
    expect(gh.pulls).toEqual([
      { number: 100, head: 'scion/rename-logger', base: 'main', title: 'Move to the new logger', body: 'body 1', draft: true, state: 'open', labels: ['codemod', 'scion'] },
    ]);
  });

  it('updates the open pull request of a branch instead of opening another', async () => {
    await upsertPullRequests(opts());
    gh.requests.length = 0;
    const out = await upsertPullRequests(opts({ prs: [{ branch: 'scion/rename-logger', title: 'New title', body: 'body 2' }], labels: ['codemod'] }));
    expect(out).toEqual([{ branch: 'scion/rename-logger', number: 100, url: 'https://github.example/acme/app/pull/100', action: 'updated' }]);
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/app/pulls',
      'PATCH /repos/acme/app/pulls/100',
      'POST /repos/acme/app/issues/100/labels',
    ]);
    expect(gh.pulls).toHaveLength(1);
    expect(gh.pulls[0]).toMatchObject({ title: 'New title', body: 'body 2', draft: false, labels: ['codemod'] });
  });

  it('opens a new one when the earlier pull request was closed, and closes nothing', async () => {
    await upsertPullRequests(opts());
    gh.pulls[0]!.state = 'closed';
    const [r] = await upsertPullRequests(opts());
    expect(r!.action).toBe('created');
    expect(gh.pulls.map((p) => p.state)).toEqual(['closed', 'open']);
    expect(gh.requests.some((q) => q.method === 'PATCH' || q.method === 'DELETE')).toBe(false);
  });

  it('sends the token and GitHub\'s JSON headers on every request', async () => {
    await upsertPullRequests(opts({ labels: ['x'] }));
    expect(gh.requests).toHaveLength(3);
    for (const r of gh.requests) {
      expect(r.headers.authorization).toBe('Bearer ghs_test123');
      expect(r.headers.accept).toBe('application/vnd.github+json');
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
    }
  });

  it('waits between pull requests', async () => {
    const prs = ['a', 'b', 'c'].map((b) => ({ branch: `scion/${b}`, title: b, body: b }));
    const out = await upsertPullRequests(opts({ prs, delayMs: 150 }));
    expect(out.map((r) => [r.branch, r.action])).toEqual([
      ['scion/a', 'created'],
      ['scion/b', 'created'],
      ['scion/c', 'created'],
    ]);
    const posts = gh.requests.filter((r) => r.method === 'POST');
    const gets = gh.requests.filter((r) => r.method === 'GET');
    expect(gets[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(140);
    expect(gets[2]!.at - posts[1]!.at).toBeGreaterThanOrEqual(140);
  });

  it('honours Retry-After on a 429, within the wait cap', async () => {
    let limited = 0;
    gh.intercept = (r) => {
      if (r.method === 'POST' && r.path.endsWith('/pulls') && limited === 0) {
        limited += 1;
        return { status: 429, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit.' } };
      }
      return undefined;
    };
    const out = await upsertPullRequests(opts({ maxRetryWaitMs: 250 }));
    expect(out[0]!.action).toBe('created');
    const posts = gh.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    const gap = posts[1]!.at - posts[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(240);
    expect(gap).toBeLessThan(1000);
    expect(gh.pulls).toHaveLength(1);
  });

  it('waits the full Retry-After when it is under the cap', async () => {
    let limited = false;
    gh.intercept = (r) => {
      if (!limited) {
        limited = true;
        return { status: 403, headers: { 'retry-after': '1', 'x-ratelimit-remaining': '0' }, body: { message: 'API rate limit exceeded' } };
      }
      return undefined;
    };
    await upsertPullRequests(opts());
    expect(gh.requests[1]!.at - gh.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('gives up after a bounded number of retries with a message about the rate limit', async () => {
    gh.intercept = () => ({ status: 429, headers: { 'retry-after': '1' }, body: { message: 'rate limited' } });
    const err = await upsertPullRequests(opts({ maxRetries: 2, maxRetryWaitMs: 10 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubApiError);
    expect(gh.requests).toHaveLength(3);
    expect((err as GitHubApiError).status).toBe(429);
    expect((err as GitHubApiError).message).toMatch(/rate-limiting .* after 2 retries/);
  });

  it('explains a bad token in one sentence and does not retry it', async () => {
    gh.intercept = () => ({ status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } });
    const err = await upsertPullRequests(opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubApiError);
    expect((err as GitHubApiError).status).toBe(401);
    expect((err as GitHubApiError).message).toBe(
      'GitHub rejected the token while looking for an open pull request of scion/rename-logger in acme/app (401 Bad credentials); set GITHUB_TOKEN to a token with pull-request write permission.',
    );
    expect(gh.requests).toHaveLength(1);
  });

  it('names the permission on a 403 and reports what was already done', async () => {
    gh.intercept = (r) => (r.method === 'POST' && (r.body as { head?: string }).head === 'scion/b' ? { status: 403, body: { message: 'Resource not accessible by integration' } } : undefined);
    const prs = ['a', 'b'].map((b) => ({ branch: `scion/${b}`, title: b, body: b }));
    const err = (await upsertPullRequests(opts({ prs })).catch((e: unknown) => e)) as GitHubApiError;
    expect(err.message).toMatch(/^GitHub refused the request while creating the pull request for scion\/b into main \(403 Resource not accessible by integration\); give the token pull-request write permission/);
    expect(err.completed.map((c) => c.branch)).toEqual(['scion/a']);
  });

  it('passes on GitHub\'s validation message when creation is refused', async () => {
    gh.intercept = (r) =>
      r.method === 'POST' ? { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and scion/rename-logger' }] } } : undefined;
    const err = (await upsertPullRequests(opts()).catch((e: unknown) => e)) as GitHubApiError;
    expect(err.message).toContain('Validation Failed: No commits between main and scion/rename-logger');
    expect(err.message).toContain('check that the branch was pushed');
  });

  it('says so when GitHub cannot be reached or no token is given', async () => {
    const closed = gh.url;
    await gh.close();
    gh = await startFakeGitHub('acme', 'app');
    const err = (await upsertPullRequests(opts({ apiUrl: closed })).catch((e: unknown) => e)) as GitHubApiError;
    expect(err.status).toBeNull();
    expect(err.message).toMatch(/^Could not reach GitHub at http:\/\/127\.0\.0\.1:\d+ while looking for/);
    await expect(upsertPullRequests(opts({ token: '' }))).rejects.toThrow(/set GITHUB_TOKEN/);
  });
});
