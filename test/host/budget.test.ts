// The write budget with an injected clock: writes of the last minute and hour counted per host and
// token, a wait exactly as long as the oldest write needs to leave its window, a host's hold shared by
// every writer of that token, every kind of write spending from it on both hosts (pull requests,
// reviewer requests, comments, issue creation and edits) while reads spend nothing, and conditional
// reads served from the cache on 304.
import { describe, expect, it } from 'vitest';
import { parseWriteBudget, WriteBudgets } from '../../src/host/budget.js';
import { ReadCache } from '../../src/host/etags.js';
import { GitHubHost } from '../../src/host/github.js';
import { GitLabHost } from '../../src/host/gitlab.js';
import type { Host } from '../../src/host/types.js';
import type { Recorded } from '../support/fake-github.js';
import { fakeClock } from '../support/cli.js';
import { useFakeGitHub, useFakeGitLab } from '../support/servers.js';

const gh = useFakeGitHub('acme', 'app');
const gl = useFakeGitLab('acme/app');

const isWrite = (r: Recorded) => r.method !== 'GET' && r.method !== 'HEAD';

/**
 * Every kind of write a host makes, one after another, on a budget of one write a minute: a pull
 * request, a reviewer request, a comment, a tracking issue and its edit, with the reads that go
 * between them (comments, the issue looked up). Checks that each write after the first waited its minute
 * before it went out; returns how many writes the budget counted.
 */
async function everyWrite(host: (writes: WriteBudgets) => Host, requests: () => readonly Recorded[]): Promise<{ spent: number }> {
  const waitedAfter: number[] = [];
  const clock = fakeClock(0);
  const sleep = clock.sleep;
  clock.sleep = async (ms) => {
    waitedAfter.push(requests().filter(isWrite).length);
    await sleep(ms);
  };
  const writes = new WriteBudgets({ clock, limits: { perMinute: 1, perHour: 100 }, guardMs: 0 });
  const h = host(writes);
  const pull = await h.createPull({ branch: 'scion/a', base: 'main', title: 't', body: 'b', draft: false });
  await h.addExtras(pull, { labels: [], reviewers: ['octocat'], assignees: [] });
  expect(await h.comments(pull)).toEqual([]);
  await h.comment(pull, 'Please review.');
  expect(await h.findIssue('<!-- scion-track: r -->')).toBeNull();
  const issue = await h.createIssue('scion: tracking r', '<!-- scion-track: r -->\nfirst');
  expect((await h.findIssue('<!-- scion-track: r -->'))?.number).toBe(issue.number);
  await h.editIssue(issue, '<!-- scion-track: r -->\nsecond');
  // Five writes at one a minute: four waits of a minute each, each before the next write went out.
  expect(clock.sleeps).toEqual([60_000, 60_000, 60_000, 60_000]);
  expect(waitedAfter).toEqual([1, 2, 3, 4]);
  return { spent: writes.of(apiOf(h), 'tok').spent };
}

const apiOf = (h: Host) => (h.kind === 'github' ? gh.url : gl.apiUrl);

describe('WriteBudgets', () => {
  it('lets 80 writes through in a minute, then waits until the oldest leaves the minute', async () => {
    const clock = fakeClock(0);
    const waits: number[] = [];
    const b = new WriteBudgets({ clock, onWait: (w) => waits.push(w.ms) }).of('https://api.github.com', 't1');
    for (let i = 0; i < 80; i++) await b.take();
    expect(clock.sleeps).toEqual([]);
    await b.take();
    // The minute of the first write, and the guard kept for the network's delay (1 s by default).
    expect(clock.sleeps).toEqual([61_000]);
    expect(waits).toEqual([61_000]);
    expect(b.spent).toBe(81);
  });

  it('holds to 500 an hour however the writes are spread', async () => {
    const clock = fakeClock(0);
    const b = new WriteBudgets({ clock, guardMs: 0 }).of('https://api.github.com', 't1');
    for (let i = 0; i < 500; i++) await b.take();
    const took = clock.at;
    await b.take();
    // 500 writes at 80 a minute take six full minutes of waits; the 501st waits for the hour of the first.
    expect(took).toBe(6 * 60_000);
    expect(clock.at).toBe(3_600_000);
  });

  it('keeps one budget per host and token, shared by everyone asking for the same pair', async () => {
    const clock = fakeClock(0);
    const budgets = new WriteBudgets({ clock, limits: { perMinute: 1, perHour: 10 }, guardMs: 0 });
    expect(budgets.of('https://api.github.com/', 'a')).toBe(budgets.of('https://api.github.com', 'a'));
    await budgets.of('https://api.github.com', 'a').take();
    await budgets.of('https://api.github.com', 'b').take();
    await budgets.of('https://gitlab.com/api/v4', 'a').take();
    expect(clock.sleeps).toEqual([]);
    await budgets.of('https://api.github.com', 'a').take();
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("a host's hold stops every writer of that token until its time", async () => {
    const clock = fakeClock(0);
    const waits: string[] = [];
    const b = new WriteBudgets({ clock, onWait: (w) => waits.push(`${w.reason} ${w.ms}`) }).of('https://api.github.com', 'a');
    b.hostAsked(30_000);
    await b.take();
    expect(clock.at).toBe(30_000);
    expect(waits).toEqual(['host 30000', 'host 30000']);
  });

  it('parses PER_MINUTE/PER_HOUR', () => {
    expect(parseWriteBudget('80/500')).toEqual({ perMinute: 80, perHour: 500 });
    expect(parseWriteBudget('0/5')).toBeNull();
    expect(parseWriteBudget('80')).toBeNull();
  });
});

describe('every write spends from the budget', () => {
  const writesOf = (rs: readonly Recorded[], strip: RegExp) => rs.filter(isWrite).map((r) => `${r.method} ${r.path.replace(strip, '')}`);

  it('on GitHub: pull requests, reviewer requests, comments, issue creation and edits; reads nothing', async () => {
    const { spent } = await everyWrite(
      (writes) => new GitHubHost({ apiUrl: gh.url, token: 'tok', owner: 'acme', repo: 'app', writes }),
      () => gh.requests,
    );
    expect(writesOf(gh.requests, /^\/repos\/acme\/app/)).toEqual([
      'POST /pulls',
      'POST /pulls/100/requested_reviewers',
      'POST /issues/100/comments',
      'POST /issues',
      'PATCH /issues/1',
    ]);
    expect(spent).toBe(5);
    expect(gh.pulls[0]!.reviewers).toEqual(['octocat']);
    expect(gh.issues[0]!.body).toContain('second');
  });

  it('on GitLab: merge requests, reviewer requests, notes, issue creation and edits; reads nothing', async () => {
    const { spent } = await everyWrite(
      (writes) => new GitLabHost({ apiUrl: gl.apiUrl, token: 'tok', project: 'acme/app', writes }),
      () => gl.requests,
    );
    expect(writesOf(gl.requests, /^\/api\/v4\/projects\/acme%2Fapp/)).toEqual([
      'POST /merge_requests',
      'PUT /merge_requests/1',
      'POST /merge_requests/1/notes',
      'POST /issues',
      'PUT /issues/1',
    ]);
    expect(spent).toBe(5);
    expect(gl.mrs[0]!.reviewerIds).toEqual([7]);
    expect(gl.issues[0]!.description).toContain('second');
  });
});

describe('conditional reads', () => {
  it('sends the ETag back, and a 304 reads as the answer it stands for', async () => {
    const reads = new ReadCache();
    const host = new GitHubHost({ apiUrl: gh.url, token: 'ghs_x', owner: 'acme', repo: 'app', reads });
    const created = await host.createPull({ branch: 'scion/a', base: 'main', title: 't', body: 'b', draft: false });
    const first = await host.findPull('scion/a');
    const second = await host.findPull('scion/a');
    expect(second).toEqual(first);
    expect(second?.number).toBe(created.number);
    expect(gh.notModified).toBe(1);
    const lookups = gh.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/pulls'));
    expect(lookups.map((r) => r.headers['if-none-match'] !== undefined)).toEqual([false, true]);
    // A change on the host is a new answer, read in full.
    gh.pulls[0]!.title = 'changed';
    await host.findPull('scion/a');
    expect(gh.notModified).toBe(1);
  });

  it('keeps the cache in a file between runs', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(await mkdtemp(join(tmpdir(), 'scion-etags-')), 'cache.json');
    const one = new ReadCache();
    await new GitHubHost({ apiUrl: gh.url, token: 'ghs_x', owner: 'acme', repo: 'app', reads: one }).defaultBranch();
    await one.save(file);
    const two = await ReadCache.load(file);
    await new GitHubHost({ apiUrl: gh.url, token: 'ghs_x', owner: 'acme', repo: 'app', reads: two }).defaultBranch();
    expect(two.hits).toBe(1);
    // Another token's reads are its own.
    await new GitHubHost({ apiUrl: gh.url, token: 'ghs_other', owner: 'acme', repo: 'app', reads: two }).defaultBranch();
    expect(two.hits).toBe(1);
  });
});
