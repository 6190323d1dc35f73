// The write budget through the CLI: `scion pr` spends a write for each pull request and each label
// request from one budget per host and token (--write-budget), and so do reviewer requests (`run
// --pr`), bulk comments (`pr --comment`) and the tracking issue (`track --issue`); scion says when it
// waits and for how long, and waits out GitHub's secondary-limit answers instead of failing. Time is
// an injected clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { fakeClock, scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';

const RECIPE = recipeFile(
  'name: two\njobs:\n  - { name: a, files: { include: ["a.txt"] } }\n  - { name: b, files: { include: ["b.txt"] } }\n' +
    '  - { name: c, files: { include: ["c.txt"] } }\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n', 'c.txt': 'v1 again\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();

async function pushed(): Promise<GitHubRemote> {
  const s = await githubRemote(server, FILES, cleanups);
  const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
  expect(res.code).toBe(0);
  expect((JSON.parse(readFileSync(join(s.work.dir, 'r.json'), 'utf8')) as RunReport).jobs.map((j) => j.status)).toEqual(['changed', 'changed', 'changed']);
  return s;
}

/** The writes the fake GitHub got (from the `from`-th request on), as `METHOD /path` within the repository. */
const writes = (s: GitHubRemote, from = 0) =>
  s.github.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path.replace(/^\/repos\/[^/]+\/[^/]+/, '')}`);

describe('the write budget', () => {
  it('spends every write from --write-budget and prints each wait with its length', async () => {
    const s = await pushed();
    const clock = fakeClock();
    const start = clock.at;
    const res = await scion(['pr', '--report', 'r.json', '--pr-interval', '0', '--label', 'codemod', '--write-budget', '2/100'], {
      cwd: s.work.dir,
      env: s.env,
      clock,
    });
    expect(res.code).toBe(0);
    // Three pull requests and three label requests: six writes, two a minute.
    expect(writes(s)).toEqual(['POST /pulls', 'POST /issues/100/labels', 'POST /pulls', 'POST /issues/101/labels', 'POST /pulls', 'POST /issues/102/labels']);
    // Each wait: the minute of the write that leaves the window, and one second kept for the network's delay.
    expect(clock.sleeps).toEqual([61_000, 61_000]);
    expect(clock.at - start).toBe(122_000);
    const waits = res.stderr.split('\n').filter((l) => l.includes('waiting'));
    expect(waits).toHaveLength(2);
    expect(waits[0]).toMatch(/^scion: waiting 1m 1s for the write budget of http:\/\/127\.0\.0\.1:\d+ \(2 a minute, 100 an hour; --write-budget\)$/);
  });

  it('waits out a secondary-limit answer (403 with retry-after) and retries, never failing the job', async () => {
    const s = await pushed();
    const clock = fakeClock();
    let refused = 0;
    s.github.intercept = (r) =>
      r.method === 'POST' && r.path.endsWith('/pulls') && refused++ < 2
        ? {
            status: 403,
            headers: { 'retry-after': '30' },
            body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
          }
        : undefined;
    const res = await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env, clock });
    expect(res.code).toBe(0);
    expect(s.github.pulls.map((p) => p.head)).toEqual(['scion/two/a', 'scion/two/b', 'scion/two/c']);
    expect(clock.sleeps).toEqual([30_000, 30_000]);
    expect(res.stderr.split('\n').filter((l) => l.includes('slow down'))).toEqual([
      expect.stringMatching(
        /^scion: waiting 30s: http:\/\/127\.0\.0\.1:\d+ asked scion to slow down \(secondary rate limit\); the request is retried after that$/,
      ),
      expect.stringMatching(/waiting 30s/),
    ]);
  });

  it('the default is 80 a minute: three pull requests go out without a wait', async () => {
    const s = await pushed();
    const clock = fakeClock();
    const res = await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env, clock });
    expect(res.code).toBe(0);
    expect(clock.sleeps).toEqual([]);
    expect(res.stderr).not.toContain('waiting');
  });

  it('reviewer requests spend from it too', async () => {
    const s = await githubRemote(server, FILES, cleanups);
    const recipe = recipeFile(readFileSync(RECIPE, 'utf8') + 'pr:\n  reviewers: [octocat]\n');
    const clock = fakeClock();
    const res = await scion(['run', recipe, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--write-budget', '2/100'], {
      cwd: s.work.dir,
      env: s.env,
      clock,
    });
    expect(res.code).toBe(0);
    expect(writes(s)).toEqual([
      'POST /pulls',
      'POST /pulls/100/requested_reviewers',
      'POST /pulls',
      'POST /pulls/101/requested_reviewers',
      'POST /pulls',
      'POST /pulls/102/requested_reviewers',
    ]);
    expect(clock.sleeps).toEqual([61_000, 61_000]);
    expect(s.github.pulls.map((p) => p.reviewers)).toEqual([['octocat'], ['octocat'], ['octocat']]);
  });

  it('bulk comments spend from it too; looking for them first spends nothing', async () => {
    const s = await pushed();
    expect((await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env })).code).toBe(0);
    const from = s.github.requests.length;
    const clock = fakeClock();
    const res = await scion(['pr', '--report', 'r.json', '--comment', 'Please review.', '--write-budget', '1/100'], { cwd: s.work.dir, env: s.env, clock });
    expect(res.code).toBe(0);
    expect(writes(s, from)).toEqual(['POST /issues/100/comments', 'POST /issues/101/comments', 'POST /issues/102/comments']);
    expect(clock.sleeps).toEqual([61_000, 61_000]);
    expect(res.stderr.split('\n').filter((l) => /^scion: waiting 1m 1s for the write budget of /.test(l))).toHaveLength(2);
    // Run again: every comment is there already, nothing is written, nothing waits.
    const again = fakeClock();
    const rerun = await scion(['pr', '--report', 'r.json', '--comment', 'Please review.', '--write-budget', '1/100'], {
      cwd: s.work.dir,
      env: s.env,
      clock: again,
    });
    expect(rerun.code).toBe(0);
    expect(writes(s, from)).toHaveLength(3);
    expect(again.sleeps).toEqual([]);
  });

  it("the tracking issue's creation and edits go through it: a secondary-limit answer on the edit is waited out", async () => {
    const s = await pushed();
    expect((await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env })).code).toBe(0);
    const track = (clock: ReturnType<typeof fakeClock>) =>
      scion(['track', '--report', 'r.json', '--issue', `${s.owner}/${s.repo}`, '--write-budget', '1/100'], { cwd: s.work.dir, env: s.env, clock });
    const from = s.github.requests.length;
    expect((await track(fakeClock())).code).toBe(0);
    let refused = 0;
    s.github.intercept = (r) =>
      r.method === 'PATCH' && r.path.endsWith('/issues/1') && refused++ < 1
        ? { status: 403, headers: { 'retry-after': '45' }, body: { message: 'You have exceeded a secondary rate limit.' } }
        : undefined;
    const clock = fakeClock();
    const second = await track(clock);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('updated the tracking issue');
    // The 45 s the host asked for; then the rest of the minute of the refused write, which the budget
    // counts (scion cannot know whether the host counted it), so the retry waits until 61 s.
    expect(clock.sleeps).toEqual([45_000, 16_000]);
    expect(second.stderr).toMatch(/waiting 45s: http:\/\/127\.0\.0\.1:\d+ asked scion to slow down/);
    expect(writes(s, from)).toEqual(['POST /issues', 'PATCH /issues/1', 'PATCH /issues/1']);
    expect(s.github.issues).toHaveLength(1);
  });

  it('a malformed --write-budget is bad usage, and nothing is sent', async () => {
    const s = await pushed();
    const before = s.github.requests.length;
    const res = await scion(['pr', '--report', 'r.json', '--write-budget', '80'], { cwd: s.work.dir, env: s.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--write-budget 80 is not PER_MINUTE/PER_HOUR');
    expect(s.github.requests.length).toBe(before);
  });
});
