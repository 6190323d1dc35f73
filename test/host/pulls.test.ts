// GitHubHost against a fake GitHub on 127.0.0.1: the requests it sends, the rate limits it waits out
// (through @octokit/plugin-throttling and plugin-retry; each wait made by the `sleep` it is given,
// recorded here instead of waited), the one-sentence errors it gives.
import { describe, expect, it } from 'vitest';
import { GitHubHost, type GitHubOptions } from '../../src/host/github.js';
import { HostError } from '../../src/host/types.js';
import { useFakeGitHub } from '../support/servers.js';
import { WriteBudgets } from '../../src/host/budget.js';
import { fakeClock } from '../support/cli.js';

const gh = useFakeGitHub('acme', 'app');

const host = (over: Partial<GitHubOptions> = {}) => new GitHubHost({ apiUrl: gh.url, token: 'ghs_test123', owner: 'acme', repo: 'app', backoffMs: 1, ...over });

/** A sleep that records each wait and how many requests the server had seen when it was made. */
function recordedSleep(): { sleep: (ms: number) => Promise<void>; waits: { ms: number; requests: number }[] } {
  const waits: { ms: number; requests: number }[] = [];
  return { waits, sleep: async (ms) => void waits.push({ ms, requests: gh.requests.length }) };
}
const spec = { branch: 'scion/rename-logger', base: 'main', title: 'Move to the new logger', body: 'body 1', draft: false };

async function failure(p: Promise<unknown>): Promise<HostError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HostError);
  return e as HostError;
}

describe('GitHubHost', () => {
  it('creates a pull request (a draft when asked), labels it, requests reviewers and teams, assigns it', async () => {
    const h = host();
    expect(await h.findPull(spec.branch)).toBeNull();
    const pull = await h.createPull({ ...spec, draft: true });
    await h.addExtras(pull, { labels: ['codemod', 'scion'], reviewers: ['octocat', 'team:platform'], assignees: ['hubot'] });
    expect(pull).toMatchObject({ number: 100, url: 'https://github.example/acme/app/pull/100', state: 'open', draft: true });
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/app/pulls',
      'POST /repos/acme/app/pulls',
      'POST /repos/acme/app/issues/100/labels',
      'POST /repos/acme/app/pulls/100/requested_reviewers',
      'POST /repos/acme/app/issues/100/assignees',
    ]);
    expect(gh.requests[0]!.query.get('head')).toBe('acme:scion/rename-logger');
    expect(gh.requests[0]!.query.get('state')).toBe('all');
    expect(gh.pulls[0]).toMatchObject({ draft: true, labels: ['codemod', 'scion'], reviewers: ['octocat'], teamReviewers: ['platform'], assignees: ['hubot'] });
  });

  it('finds the open pull request first, else the newest closed one, and says whether it was merged', async () => {
    const h = host();
    await h.createPull(spec);
    gh.pulls[0]!.state = 'closed';
    gh.pulls[0]!.merged = true;
    expect((await h.findPull(spec.branch))!.state).toBe('merged');
    await h.createPull(spec);
    expect((await h.findPull(spec.branch))!.number).toBe(101);
    gh.pulls[1]!.state = 'closed';
    expect(await h.findPull(spec.branch)).toMatchObject({ number: 101, state: 'closed' });
  });

  it("sends the token and GitHub's JSON headers on every request", async () => {
    await host().createPull(spec);
    for (const r of gh.requests) {
      expect(r.headers.authorization).toBe('Bearer ghs_test123');
      expect(r.headers.accept).toBe('application/vnd.github+json');
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
    }
  });

  it('enables auto-merge through GraphQL with the merge method', async () => {
    const h = host();
    const pull = await h.createPull(spec);
    await h.enableAutoMerge(pull, 'squash');
    const q = gh.requests.find((r) => r.path === '/graphql')!;
    expect((q.body as { query: string }).query).toContain('enablePullRequestAutoMerge');
    expect((q.body as { variables: unknown }).variables).toEqual({ pullRequestId: 'PR_100', mergeMethod: 'SQUASH' });
    expect(gh.pulls[0]!.autoMerge).toBe('SQUASH');
  });

  it('waits out a 429 with Retry-After, then retries', async () => {
    let limited = 0;
    gh.intercept = (r) =>
      r.method === 'POST' && limited++ === 0 ? { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Too many requests' } } : undefined;
    const { sleep, waits } = recordedSleep();
    await host({ sleep }).createPull(spec);
    expect(gh.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    // 7 s, after the refused POST and before its retry.
    expect(waits).toEqual([{ ms: 7_000, requests: 1 }]);
    expect(gh.pulls).toHaveLength(1);
  });

  it('waits out a 403 secondary rate limit (plugin-throttling), then retries', async () => {
    let limited = 0;
    gh.intercept = (r) =>
      r.method === 'POST' && limited++ === 0
        ? {
            status: 403,
            headers: { 'retry-after': '5' },
            body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
          }
        : undefined;
    const { sleep, waits } = recordedSleep();
    await host({ sleep }).createPull(spec);
    expect(gh.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(waits).toEqual([{ ms: 5_000, requests: 1 }]);
    expect(gh.pulls).toHaveLength(1);
  });

  it('waits out secondary limits answered again and again (more than the retries a server error gets): never a failure', async () => {
    let limited = 0;
    gh.intercept = (r) =>
      r.method === 'POST' && limited++ < 6
        ? {
            status: 403,
            headers: { 'retry-after': '60' },
            body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
          }
        : undefined;
    // The host's wait holds the token's write budget too: on a clock that moves on at once.
    const waits: number[] = [];
    const clock = fakeClock(0);
    const sleep = async (ms: number) => {
      waits.push(ms);
      clock.at += ms;
    };
    await host({ sleep, maxRetries: 3, writes: new WriteBudgets({ clock }) }).createPull(spec);
    expect(waits).toEqual(Array(6).fill(60_000));
    expect(gh.pulls).toHaveLength(1);
  });

  it('waits until x-ratelimit-reset when the quota is spent', async () => {
    let limited = 0;
    // The quota comes back a minute from now (whole seconds, as GitHub says it).
    const reset = Math.floor(Date.now() / 1000) + 60;
    gh.intercept = () =>
      limited++ === 0
        ? { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }, body: { message: 'API rate limit exceeded' } }
        : undefined;
    const { sleep, waits } = recordedSleep();
    expect(await host({ sleep }).findPull(spec.branch)).toBeNull();
    expect(gh.requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]!.requests).toBe(1);
    // Until the reset, and a second past it (the plugin's rule), counted from when the 403 came.
    expect(waits[0]!.ms).toBeGreaterThanOrEqual(60_000);
    expect(waits[0]!.ms).toBeLessThanOrEqual(61_000);
  });

  it('gives up when the host asks for a longer wait than allowed, saying it was rate-limited', async () => {
    gh.intercept = () => ({ status: 429, headers: { 'retry-after': '3600' }, body: { message: 'rate limited' } });
    const err = await failure(host({ maxRetryWaitMs: 10 }).findPull(spec.branch));
    expect(err.status).toBe(429);
    expect(err.message).toMatch(/^GitHub kept rate-limiting the requests while looking for the pull request of scion\/rename-logger/);
    expect(gh.requests).toHaveLength(1);
  });

  it('explains a bad token in one sentence and does not retry it', async () => {
    gh.intercept = () => ({ status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } });
    const err = await failure(host().findPull(spec.branch));
    expect(err.status).toBe(401);
    expect(err.message).toBe(
      'GitHub rejected the token while looking for the pull request of scion/rename-logger in acme/app (401 Bad credentials); set GITHUB_TOKEN to a ' +
        'token with pull-request write permission.',
    );
    expect(gh.requests).toHaveLength(1);
  });

  it('names the permission on a 403', async () => {
    gh.intercept = (r) => (r.method === 'POST' ? { status: 403, body: { message: 'Resource not accessible by integration' } } : undefined);
    const err = await failure(host().createPull(spec));
    const said = 'GitHub refused the request while creating the pull request for scion/rename-logger into main ';
    expect(err.message.startsWith(`${said}(403 Resource not accessible by integration); give the token pull-request write permission`), err.message).toBe(true);
  });

  it("passes on GitHub's validation message when creation is refused", async () => {
    gh.intercept = (r) =>
      r.method === 'POST'
        ? {
            status: 422,
            body: {
              message: 'Validation Failed',
              errors: [{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and scion/rename-logger' }],
            },
          }
        : undefined;
    const err = await failure(host().createPull(spec));
    expect(err.message).toContain('Validation Failed: No commits between main and scion/rename-logger');
    expect(err.message).toContain('check that the branch was pushed');
  });

  it('says so when GitHub cannot be reached', async () => {
    const closed = gh.url;
    await gh.close();
    const err = await failure(host({ apiUrl: closed }).findPull(spec.branch));
    expect(err.status).toBeNull();
    expect(err.message).toMatch(/^Could not reach GitHub at http:\/\/127\.0\.0\.1:\d+ while looking for/);
  });
});
