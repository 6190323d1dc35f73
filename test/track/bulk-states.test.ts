// `scion pr`'s bulk filters through the CLI against a git server and a fake GitHub on 127.0.0.1: each
// --state (open, draft, no-reviewer, stale; failing is in bulk.test.ts) picks exactly the pull requests
// in that state, several states pick those in any of them, and --stale DAYS moves the line between
// fresh and stale. Days are counted from the clock scion is given to the updated_at the host reports.
import { describe, expect, it } from 'vitest';
import { fakeClock, scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';

const RECIPE = recipeFile(
  'name: four\njobs:\n' +
    ['a', 'b', 'c', 'd'].map((j) => `  - { name: ${j}, files: { include: ["${j}.txt"] } }\n`).join('') +
    'steps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n', 'c.txt': 'v1 again\n', 'd.txt': 'v1 too\n' };
const NOW = Date.parse('2026-03-01T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(NOW - n * DAY).toISOString();

const server = useGitServer();
const cleanups = cleanupAfterEach();

/**
 * Four pull requests: #100 a, open, a reviewer requested, idle 20 days; #101 b, open, approved, idle 14
 * days; #102 c, a draft nobody reviews, idle 9 days; #103 d, open, nobody asked, no review, idle 1 day.
 */
async function published(): Promise<GitHubRemote> {
  const s = await githubRemote(server, FILES, cleanups);
  const run = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], {
    cwd: s.work.dir,
    env: s.env,
  });
  expect(run.code).toBe(0);
  const [a, b, c, d] = s.github.pulls;
  Object.assign(a!, { reviewers: ['octocat'], updatedAt: daysAgo(20) });
  Object.assign(b!, { reviews: [{ user: 'hubot', state: 'APPROVED' }], updatedAt: daysAgo(14) });
  Object.assign(c!, { draft: true, updatedAt: daysAgo(9) });
  Object.assign(d!, { updatedAt: daysAgo(1) });
  return s;
}

/** `scion pr --report r.json --comment TEXT ARGS` at NOW; the numbers of the pull requests it commented on, and the result. */
async function commentOn(s: GitHubRemote, text: string, ...args: string[]): Promise<{ numbers: number[]; code: number; stdout: string; stderr: string }> {
  const r = await scion(['pr', '--report', 'r.json', '--comment', text, ...args], { cwd: s.work.dir, env: s.env, clock: fakeClock(NOW) });
  const numbers = [...r.stdout.matchAll(/^#(\d+) \S+: commented$/gm)].map((m) => Number(m[1]));
  // What the host holds agrees with what scion said it did.
  expect(s.github.pulls.filter((p) => p.comments.includes(text)).map((p) => p.number)).toEqual(numbers);
  return { numbers, ...r };
}

describe('scion pr: --state and --stale select the pull requests', () => {
  it('--state draft picks the drafts, --state open the others', async () => {
    const s = await published();
    expect((await commentOn(s, 'drafts', '--state', 'draft')).numbers).toEqual([102]);
    expect((await commentOn(s, 'open ones', '--state', 'open')).numbers).toEqual([100, 101, 103]);
  });

  it('--state no-reviewer picks the open pull requests nobody was asked to review and nobody reviewed', async () => {
    const s = await published();
    // Not a (reviewer requested), not b (a review given), not c (a draft is not waiting for review).
    expect((await commentOn(s, 'who reviews this?', '--state', 'no-reviewer')).numbers).toEqual([103]);
    s.github.pulls[3]!.teamReviewers = ['web'];
    const none = await commentOn(s, 'anyone?', '--state', 'no-reviewer');
    expect(none.numbers).toEqual([]);
    expect(none.stdout).toBe('r.json: no open pull request matches; nothing to do.\n');
    expect(none.code).toBe(0);
  });

  it('--state stale picks those idle 14 days or more by default, drafts included', async () => {
    const s = await published();
    expect((await commentOn(s, 'still needed?', '--state', 'stale')).numbers).toEqual([100, 101]);
    // A fresh activity on the host makes one fresh again.
    s.github.pulls[0]!.updatedAt = daysAgo(0);
    expect((await commentOn(s, 'ping', '--state', 'stale')).numbers).toEqual([101]);
  });

  it('--stale DAYS moves the line between fresh and stale', async () => {
    const s = await published();
    expect((await commentOn(s, 'idle a week', '--state', 'stale', '--stale', '7')).numbers).toEqual([100, 101, 102]);
    expect((await commentOn(s, 'idle 15 days', '--state', 'stale', '--stale', '15')).numbers).toEqual([100]);
    expect((await commentOn(s, 'idle a month', '--state', 'stale', '--stale', '30')).numbers).toEqual([]);
    expect((await commentOn(s, 'idle a day', '--state', 'stale', '--stale', '1')).numbers).toEqual([100, 101, 102, 103]);
  });

  it('--stale DAYS without --state picks the stale ones; beside another --state it only sets the line', async () => {
    const s = await published();
    expect((await commentOn(s, 'idle ten days', '--stale', '10')).numbers).toEqual([100, 101]);
    expect((await commentOn(s, 'open, any age', '--state', 'open', '--stale', '10')).numbers).toEqual([100, 101, 103]);
  });

  it('several --state values pick the pull requests in any of them', async () => {
    const s = await published();
    s.github.pulls[0]!.headSha = 'a1a1a1a1';
    s.github.pulls[0]!.checkRuns = [{ status: 'completed', conclusion: 'failure' }];
    expect((await commentOn(s, 'draft or no reviewer', '--state', 'draft', '--state', 'no-reviewer')).numbers).toEqual([102, 103]);
    expect((await commentOn(s, 'failing or draft', '--state', 'failing', '--state', 'draft')).numbers).toEqual([100, 102]);
  });

  it('a bad --state or --stale is bad usage, and nothing is posted', async () => {
    const s = await published();
    for (const [args, says] of [
      [['--state', 'closed'], '--state closed is not one of open, draft, failing, stale, no-reviewer'],
      [['--state', 'stale', '--stale', '0'], '--stale 0 must be a whole number of days'],
      [['--stale', '2.5'], '--stale 2.5 must be a whole number of days'],
    ] as const) {
      const r = await scion(['pr', '--report', 'r.json', '--comment', 'x', ...args], { cwd: s.work.dir, env: s.env, clock: fakeClock(NOW) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(says);
    }
    expect(s.github.pulls.every((p) => p.comments.length === 0)).toBe(true);
  });
});
