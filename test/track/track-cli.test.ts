// `scion track` through the CLI against a git server and a fake GitHub on 127.0.0.1: a history line per
// run, CSV rows, one tracking issue found again by its marker and edited, rows flagged as a person
// would read them, and conditional reads on the second run.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrackRow, TrackSnapshot } from '../../src/track/types.js';
import { fakeClock, scion } from '../support/cli.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';
import { DAY, expectFirstHistory, FILES, FIRST_AT, FIRST_SUMMARY, moveBaseOn, RECIPE } from './scenario.js';

const server = useGitServer();
const cleanups = cleanupAfterEach();

async function published(): Promise<GitHubRemote & { envs: Record<string, string> }> {
  const s = await githubRemote(server, FILES, cleanups);
  const envs = { ...s.env, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'scion-xdg-')) };
  const run = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: s.work.dir, env: envs });
  expect(run.code).toBe(0);
  return { ...s, envs };
}

describe('scion track', () => {
  it('appends a snapshot per run, writes the rows as CSV, and keeps one tracking issue', async () => {
    const s = await published();
    const clock = fakeClock(FIRST_AT);
    const [a, b, c] = s.github.pulls;
    // a: merged; b: open, failing checks, no reviewer, idle 20 days; c: open, a reviewer asked, active 2 days ago.
    Object.assign(a!, { state: 'closed', merged: true });
    Object.assign(b!, {
      headSha: 'b0b0b0b0',
      checkRuns: [{ status: 'completed', conclusion: 'failure' }],
      updatedAt: new Date(clock.at - 20 * DAY).toISOString(),
    });
    Object.assign(c!, { reviewers: ['octocat'], updatedAt: new Date(clock.at - 2 * DAY).toISOString() });
    // The base moves on by one commit after the run.
    await moveBaseOn(s.remote, server.authArgs());

    const args = ['track', '--report', 'r.json', '--history', 'h.jsonl', '--csv', 't.csv', '--html', 't.html', '--issue', `${s.owner}/${s.repo}`];
    const first = await scion(args, { cwd: s.work.dir, env: s.envs, clock });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${FIRST_SUMMARY}created the tracking issue: https://github.example/${s.owner}/${s.repo}/issues/1\n`);
    expectFirstHistory(s.work.dir);

    const csv = readFileSync(join(s.work.dir, 't.csv'), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('repo,recipe,job,branch,pull_request,url,state,checks,review,reviewers,last_activity,idle_days,behind,files,flags');
    expect(csv.slice(1).map((l) => l.split(',').slice(2, 4).concat(l.split(',').slice(6, 8), l.split(',').slice(12)))).toEqual([
      ['a', 'scion/two/a', 'merged', 'none', '1', '1', ''],
      ['b', 'scion/two/b', 'open', 'failure', '1', '1', 'failing no-reviewer stale behind'],
      ['c', 'scion/two/c', 'open', 'none', '1', '1', 'behind'],
      ['d', 'scion/two/d', 'none', 'none', '1', '0', ''],
    ]);
    const html = readFileSync(join(s.work.dir, 't.html'), 'utf8');
    expect(html).toContain('<svg id="burndown-states"');
    expect(html.split('<tbody>')[1]!.match(/<tr( class="flagged")?><td>/g)).toHaveLength(4);
    expect(s.github.issues).toHaveLength(1);
    expect(s.github.issues[0]!.body).toContain('<!-- scion-track: two -->');
    expect(s.github.issues[0]!.body).toContain('[#101](https://github.example/');

    // A day later: the failing pull request was fixed; the same issue is edited, a second line appended.
    b!.checkRuns = [{ status: 'completed', conclusion: 'success' }];
    clock.at += DAY;
    const second = await scion([...args, '--json'], { cwd: s.work.dir, env: s.envs, clock });
    expect(second.code).toBe(0);
    const out = JSON.parse(second.stdout) as { snapshot: TrackSnapshot; rows: TrackRow[] };
    expect(out.snapshot.failing).toBe(0);
    expect(out.rows.find((r) => r.job === 'c')).toMatchObject({
      reviewers: ['octocat'],
      review: 'required',
      idleDays: 3,
      behind: 1,
      pullRequest: { number: 102 },
    });
    expect(readFileSync(join(s.work.dir, 'h.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(s.github.issues).toHaveLength(1);
    expect(s.github.requests.filter((r) => r.method === 'PATCH' && /\/issues\/1$/.test(r.path))).toHaveLength(1);
    expect(s.github.issues[0]!.body).toContain('| 2026-03-02 |');
    // The second run read what had not changed as "not modified".
    expect(s.github.notModified).toBeGreaterThan(0);
  });

  it('--issue OWNER/REPO#N edits that issue', async () => {
    const s = await published();
    s.github.issues.push({ number: 1, title: 'Our migration', body: 'notes', state: 'open' });
    const res = await scion(['track', '--report', 'r.json', '--issue', `${s.owner}/${s.repo}#1`], { cwd: s.work.dir, env: s.envs });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('updated the tracking issue');
    expect(s.github.issues).toHaveLength(1);
    expect(s.github.issues[0]!.body).toContain('<!-- scion-track: two -->');
  });

  it('a malformed --issue is bad usage and nothing is written', async () => {
    const s = await published();
    const res = await scion(['track', '--report', 'r.json', '--issue', 'not a repo', '--history', 'h.jsonl'], { cwd: s.work.dir, env: s.envs });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--issue not a repo is not OWNER/REPO');
    expect(() => readFileSync(join(s.work.dir, 'h.jsonl'))).toThrow();
  });
});
