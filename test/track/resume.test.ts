// Resuming: a `scion pr` or `run --pr` killed with SIGKILL while publishing (the host has created the
// pull request, or taken the closing comment, but scion never saw the answer), run again, opens
// exactly one pull request per branch and posts no second comment: it looks up before it creates.
import { describe, expect, it } from 'vitest';
import type { Recorded } from '../support/fake-github.js';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { githubRemote, type GitHubRemote } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';
import { spawnScion } from '../support/spawn-cli.js';

const RECIPE = recipeFile(
  'name: two\njobs:\n  - { name: a, files: { include: ["a.txt"] } }\n  - { name: b, files: { include: ["b.txt"] } }\n' +
    '  - { name: c, files: { include: ["c.txt"] } }\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n',
);
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n', 'c.txt': 'v1 again\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();

/** Runs the CLI as its own process until the fake GitHub holds a request `stallOn` matches, then kills it with SIGKILL. */
async function killedAt(s: GitHubRemote, args: string[], stallOn: (r: Recorded) => boolean): Promise<void> {
  let reached!: () => void;
  const stalled = new Promise<void>((resolve) => (reached = resolve));
  s.github.stall = (r) => {
    if (!stallOn(r)) return false;
    reached();
    return true;
  };
  const cli = spawnScion(args, { cwd: s.work.dir, env: s.env });
  cleanups.push(() => void (cli.child.exitCode === null && cli.child.signalCode === null && cli.child.kill('SIGKILL')));
  await Promise.race([stalled, cli.done.then((d) => Promise.reject(new Error(`scion ended before the stall: ${d.stdout}${d.stderr}`)))]);
  cli.child.kill('SIGKILL');
  expect((await cli.done).signal).toBe('SIGKILL');
  s.github.stall = undefined;
}

describe('resuming after kill -9', () => {
  it('during pull-request creation: the rerun opens exactly one pull request per branch', async () => {
    const s = await githubRemote(server, FILES, cleanups);
    const run = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--report', 'r.json'], { cwd: s.work.dir, env: s.env });
    expect(run.code).toBe(0);
    await killedAt(
      s,
      ['pr', '--report', 'r.json', '--pr-interval', '0'],
      (r) => r.method === 'POST' && (r.body as { head?: string } | undefined)?.head === 'scion/two/b',
    );
    // The host made b's pull request; scion never heard of it.
    expect(s.github.pulls.map((p) => p.head)).toEqual(['scion/two/a', 'scion/two/b']);

    const again = await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^updated pull request #100 for scion\/two\/a.*\nupdated pull request #101 for scion\/two\/b.*\ncreated pull request #102 for scion\/two\/c/,
    );
    expect(s.github.pulls.map((p) => [p.head, p.state])).toEqual([
      ['scion/two/a', 'open'],
      ['scion/two/b', 'open'],
      ['scion/two/c', 'open'],
    ]);
  });

  it('between the closing comment and the close: the rerun closes it and posts no second comment', async () => {
    const s = await githubRemote(server, FILES, cleanups);
    const first = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env });
    expect(first.code).toBe(0);
    // The change lands on main by hand: every job now ends empty, and its pull request is to be closed.
    const other = await s.remote.clone({ name: 'Maintainer', email: 'm@example.com' });
    for (const f of Object.keys(FILES)) other.git('checkout', '-q', `origin/scion/two/${f[0]}`, '--', f);
    other.git('commit', '-qm', 'v2 by hand');
    await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'main');
    await s.work.gitAsync(...server.authArgs(), 'pull', '-q', '--ff-only');

    const args = ['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0'];
    // b's close reaches the host but is never carried out nor answered: the comment is there, the pull request open.
    const closeOfB = (r: Recorded) => r.method === 'PATCH' && (r.body as { state?: string } | undefined)?.state === 'closed' && r.path.endsWith('/pulls/101');
    s.github.intercept = (r) => (closeOfB(r) ? { status: 500 } : undefined);
    await killedAt(s, args, closeOfB);
    s.github.intercept = undefined;
    expect(s.github.pulls.map((p) => [p.state, p.comments.length])).toEqual([
      ['closed', 1],
      ['open', 1],
      ['open', 0],
    ]);

    const again = await scion(args, { cwd: s.work.dir, env: s.env });
    expect(again.code).toBe(0);
    expect(s.github.pulls.map((p) => [p.state, p.comments.length])).toEqual([
      ['closed', 1],
      ['closed', 1],
      ['closed', 1],
    ]);
  });
});
