// `scion track` through the CLI against a git server and a fake GitLab on 127.0.0.1: the history line,
// the CSV rows, the HTML page and one tracking issue (created, found again by its marker, edited; or
// the issue --issue names), with merge requests read as GitLab gives them (pipeline, approvals,
// reviewers, updated_at). GitLab's API tags its reads with weak ETags and answers them in full
// whatever If-None-Match says (see test/publish/fake-gitlab.ts): scion sends the tag it kept and
// reads the full answer, so a change between two runs is seen; where an instance does answer 304,
// the unchanged reads come from scion's cache and the changed ones do not.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrackRow, TrackSnapshot } from '../../src/track/types.js';
import type { FakeGitLab } from '../publish/fake-gitlab.js';
import { fakeClock, scion } from '../support/cli.js';
import { makeRemote, remotePath, type Clone, type Remote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { fakeGitLabsAfterEach, useGitServer } from '../support/servers.js';
import { DAY, expectFirstHistory, FILES, FIRST_AT, FIRST_SUMMARY, moveBaseOn, RECIPE } from './scenario.js';

const server = useGitServer();
const cleanups = cleanupAfterEach();
const gitlabs = fakeGitLabsAfterEach();

interface Published {
  readonly remote: Remote;
  readonly work: Clone;
  readonly gitlab: FakeGitLab;
  readonly project: string;
  readonly env: Record<string, string>;
}

/** The recipe run and its merge requests opened on the fake GitLab: !1 a, !2 b, !3 c (d changes nothing). */
async function published(): Promise<Published> {
  const remote = await makeRemote(server, FILES, cleanups);
  const work = await remote.clone();
  const project = remotePath(remote);
  const gitlab = await gitlabs(project);
  const env = {
    GITLAB_TOKEN: server.token,
    GITLAB_API_URL: gitlab.apiUrl,
    CI_SERVER_URL: server.url,
    XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'scion-xdg-')),
  };
  const run = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: work.dir, env });
  expect(run.code).toBe(0);
  expect(gitlab.mrs.map((m) => m.source)).toEqual(['scion/two/a', 'scion/two/b', 'scion/two/c']);
  return { remote, work, gitlab, project, env };
}

/** a merged; b failing, nobody asked, idle 20 days; c a reviewer asked, active 2 days ago; the base one commit further. */
async function arrange(p: Published, now: number): Promise<void> {
  const [a, b, c] = p.gitlab.mrs;
  a!.state = 'merged';
  Object.assign(b!, { pipeline: 'failed', updatedAt: new Date(now - 20 * DAY).toISOString() });
  Object.assign(c!, { reviewerIds: [7], updatedAt: new Date(now - 2 * DAY).toISOString() });
  await moveBaseOn(p.remote, server.authArgs());
}

/** The requests GitLab got since `from` that read something (GET) and carried an If-None-Match. */
const conditional = (g: FakeGitLab, from: number) => g.requests.slice(from).filter((r) => r.method === 'GET' && r.headers['if-none-match'] !== undefined);

describe('scion track on GitLab', () => {
  it('appends a snapshot per run, writes CSV and HTML, and keeps one tracking issue', async () => {
    const p = await published();
    p.gitlab.etags = 'ignored';
    const clock = fakeClock(FIRST_AT);
    await arrange(p, clock.at);

    const args = ['track', '--report', 'r.json', '--history', 'h.jsonl', '--csv', 't.csv', '--html', 't.html', '--issue', p.project];
    const first = await scion(args, { cwd: p.work.dir, env: p.env, clock });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${FIRST_SUMMARY}created the tracking issue: https://gitlab.example/${p.project}/-/issues/1\n`);
    expectFirstHistory(p.work.dir);

    const csv = readFileSync(join(p.work.dir, 't.csv'), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('repo,recipe,job,branch,pull_request,url,state,checks,review,reviewers,last_activity,idle_days,behind,files,flags');
    const cells = csv.slice(1).map((l) => l.split(','));
    expect(cells.map((c) => [c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[11], c[12], c[14]])).toEqual([
      ['a', 'scion/two/a', '1', `https://gitlab.example/${p.project}/-/merge_requests/1`, 'merged', 'none', 'none', '', '59', '1', ''],
      [
        'b',
        'scion/two/b',
        '2',
        `https://gitlab.example/${p.project}/-/merge_requests/2`,
        'open',
        'failure',
        'none',
        '',
        '20',
        '1',
        'failing no-reviewer stale behind',
      ],
      ['c', 'scion/two/c', '3', `https://gitlab.example/${p.project}/-/merge_requests/3`, 'open', 'none', 'none', 'octocat', '2', '1', 'behind'],
      ['d', 'scion/two/d', '', '', 'none', 'none', 'none', '', '', '1', ''],
    ]);

    const html = readFileSync(join(p.work.dir, 't.html'), 'utf8');
    expect(html).toContain('<svg id="burndown-states"');
    expect(html.split('<tbody>')[1]!.match(/<tr( class="flagged")?><td>/g)).toHaveLength(4);
    expect(html).toContain(`https://gitlab.example/${p.project}/-/merge_requests/2`);

    expect(p.gitlab.issues).toHaveLength(1);
    const body = p.gitlab.issues[0]!.description;
    expect(body.startsWith('<!-- scion-track: two -->')).toBe(true);
    expect(body).toContain(`(https://gitlab.example/${p.project}/-/merge_requests/2)`);
    expect(body).toContain('| 2026-03-01 |');

    // A day later b's pipeline passed. GitLab answers every read in full, tag or not: the change is seen.
    p.gitlab.mrs[1]!.pipeline = 'success';
    clock.at += DAY;
    const from = p.gitlab.requests.length;
    const second = await scion([...args, '--json'], { cwd: p.work.dir, env: p.env, clock });
    expect(second.code).toBe(0);
    const out = JSON.parse(second.stdout) as { snapshot: TrackSnapshot; rows: TrackRow[] };
    expect(out.snapshot).toMatchObject({ at: '2026-03-02T00:00:00.000Z', failing: 0, open: 2, merged: 1, stale: 1 });
    expect(out.rows.find((r) => r.job === 'b')).toMatchObject({ checks: 'success', idleDays: 21, flags: ['no-reviewer', 'stale', 'behind'] });
    expect(out.rows.find((r) => r.job === 'c')).toMatchObject({ reviewers: ['octocat'], idleDays: 3, behind: 1, pullRequest: { number: 3 } });
    // scion sent back the tags it kept from the first run; GitLab ignored them, as it does.
    expect(conditional(p.gitlab, from).length).toBeGreaterThan(0);
    expect(conditional(p.gitlab, from).every((r) => /^W\/"[0-9a-f]{32}"$/.test(String(r.headers['if-none-match'])))).toBe(true);
    expect(p.gitlab.notModified).toBe(0);

    expect(readFileSync(join(p.work.dir, 'h.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(p.gitlab.issues).toHaveLength(1);
    const edits = p.gitlab.requests.slice(from).filter((r) => r.method === 'PUT' && r.path.endsWith('/issues/1'));
    expect(edits).toHaveLength(1);
    expect(p.gitlab.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/issues'))).toHaveLength(1);
    expect(p.gitlab.issues[0]!.description).toContain('| 2026-03-02 |');
  });

  it('where the instance answers 304, unchanged reads come from the cache and a changed one does not', async () => {
    const p = await published();
    p.gitlab.etags = 'honoured';
    const clock = fakeClock(FIRST_AT);
    await arrange(p, clock.at);
    const args = ['track', '--report', 'r.json', '--json'];
    const first = JSON.parse((await scion(args, { cwd: p.work.dir, env: p.env, clock })).stdout) as { snapshot: TrackSnapshot };
    expect(first.snapshot.failing).toBe(1);
    expect(p.gitlab.notModified).toBe(0);

    p.gitlab.mrs[1]!.pipeline = 'success';
    clock.at += DAY;
    const from = p.gitlab.requests.length;
    const second = await scion(args, { cwd: p.work.dir, env: p.env, clock });
    expect(second.code).toBe(0);
    const out = JSON.parse(second.stdout) as { snapshot: TrackSnapshot; rows: TrackRow[] };
    // Every row as a full read would give it: b's new pipeline seen, the rest as before.
    expect(out.snapshot).toMatchObject({ failing: 0, open: 2, merged: 1, none: 1, noReviewer: 1, stale: 1, behind: 2 });
    expect(out.rows.map((r) => [r.job, r.state, r.checks, r.reviewers])).toEqual([
      ['a', 'merged', 'none', []],
      ['b', 'open', 'success', []],
      ['c', 'open', 'none', ['octocat']],
      ['d', 'none', 'none', []],
    ]);
    // The reads of a, c and b's approvals were "not modified"; b's merge request, whose pipeline moved, was read in full.
    const reads = p.gitlab.requests.slice(from).filter((r) => r.method === 'GET');
    expect(p.gitlab.notModified).toBeGreaterThan(0);
    expect(p.gitlab.notModified).toBeLessThan(reads.length);
  });

  it('--issue GROUP/PROJECT#N edits that issue', async () => {
    const p = await published();
    p.gitlab.issues.push({ iid: 1, title: 'Our migration', description: 'notes', state: 'opened' });
    const res = await scion(['track', '--report', 'r.json', '--issue', `${p.project}#1`], { cwd: p.work.dir, env: p.env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`updated the tracking issue: https://gitlab.example/${p.project}/-/issues/1`);
    expect(p.gitlab.issues).toHaveLength(1);
    expect(p.gitlab.issues[0]!.description).toContain('<!-- scion-track: two -->');
    expect(p.gitlab.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/issues'))).toHaveLength(0);
  });
});
