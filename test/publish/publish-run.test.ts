// The one publishing path (target → push → pull requests, per repository), as a library call and
// through `run --push --pr`: against the loopback git server and the fake GitHub API, judged by native
// git on the remote. Every option is checked before anything is pushed.
import { describe, expect, it } from 'vitest';
import { isScionError } from '../../src/errors.js';
import { loadRecipe } from '../../src/recipe/index.js';
import { publishRun, runRecipes } from '../../src/index.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { useGitServer } from '../support/servers.js';
import { githubRemote, pushesSince, type GitHubRemote } from '../support/git-remote.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
const FILES = { 'a.txt': 'v1\n', 'b.txt': 'same\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();
const setup = (): Promise<GitHubRemote> => githubRemote(server, FILES, cleanups);

/** The branches the remote holds, as native git lists them. */
const remoteBranches = (s: GitHubRemote) => s.remote.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/');

async function runLocally(s: GitHubRemote) {
  const loaded = await loadRecipe(RECIPE);
  if (!loaded.ok) throw new Error('the test recipe is not valid');
  const report = await runRecipes([{ recipe: loaded.recipe, file: RECIPE }], { repo: s.work.dir }, { env: s.env });
  expect(report.jobs.map((j) => j.status)).toEqual(['changed']);
  return { report, recipe: loaded.recipe };
}

describe('publishRun', () => {
  it('pushes the run’s branch to the remote and opens its pull request on the host', async () => {
    const s = await setup();
    const { report, recipe } = await runLocally(s);
    const local = s.work.git('rev-parse', 'scion/bump');
    const lines: string[] = [];
    const done = await publishRun(report, { repo: s.work.dir, env: s.env, recipes: [recipe], intervalMs: 0, say: (l) => lines.push(l) });

    expect(done.error).toBeNull();
    // Native git on the remote: the branch is there, at the commit scion wrote, and the remote is sound.
    expect(remoteBranches(s)).toBe('main\nscion/bump');
    expect(s.remote.git('rev-parse', 'scion/bump')).toBe(local);
    s.remote.git('fsck', '--strict');
    const job = done.report.jobs[0]!;
    expect(job.pushed).toMatchObject({ remote: 'origin', sent: true });
    expect(job.pullRequest).toMatchObject({ action: 'created', number: s.github.pulls[0]!.number });
    expect(s.github.pulls.map((p) => [p.head, p.base, p.state])).toEqual([['scion/bump', 'main', 'open']]);
    expect(lines.length).toBeGreaterThanOrEqual(2);

    // Published again with nothing new: the branch is not pushed again and the pull request is updated, not doubled.
    const pushes = server.requests.length;
    const again = await publishRun(done.report, { repo: s.work.dir, env: s.env, recipes: [recipe], intervalMs: 0 });
    expect(again.error).toBeNull();
    expect(pushesSince(server, pushes)).toBe(0);
    expect(s.github.pulls).toHaveLength(1);
    expect(again.report.jobs[0]!.pullRequest).toMatchObject({ number: s.github.pulls[0]!.number });
  });

  it('checks every option before anything is pushed: a negative interval is a usage error and the remote is untouched', async () => {
    const s = await setup();
    const { report, recipe } = await runLocally(s);
    const pushes = server.requests.length;
    const err = await publishRun(report, { repo: s.work.dir, env: s.env, recipes: [recipe], intervalMs: -1 }).catch((e: unknown) => e);
    expect(isScionError(err, 'usage')).toBe(true);
    expect((err as { data: Record<string, unknown> }).data['flag']).toBe('pr-interval');
    expect(pushesSince(server, pushes)).toBe(0);
    expect(remoteBranches(s)).toBe('main');
    expect(s.github.requests).toHaveLength(0);
  });

  it('a host without a token stops it before the push', async () => {
    const s = await setup();
    const { report, recipe } = await runLocally(s);
    const env = { ...s.env, GITHUB_TOKEN: '' };
    const err = await publishRun(report, { repo: s.work.dir, env, recipes: [recipe], intervalMs: 0 }).catch((e: unknown) => e);
    expect(isScionError(err, 'usage')).toBe(true);
    expect(remoteBranches(s)).toBe('main');
  });
});

describe('run --push --pr checks every flag before anything is pushed', () => {
  it.each([
    [['--pr-interval', '-1'], '--pr-interval -1 must be a whole number of milliseconds'],
    [['--pr-interval', '1.5'], '--pr-interval 1.5 must be a whole number of milliseconds'],
  ])('%j: exit 2, no branch written, nothing pushed', async (flags, message) => {
    const s = await setup();
    const pushes = server.requests.length;
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', ...flags], { cwd: s.work.dir, env: s.env });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toContain('internal error');
    // Native git, on the remote and in the clone: no scion branch anywhere.
    expect(remoteBranches(s)).toBe('main');
    expect(s.work.git('branch', '--list', 'scion/*')).toBe('');
    expect(pushesSince(server, pushes)).toBe(0);
    expect(s.github.requests).toHaveLength(0);
  });

  it('the same run with a valid interval pushes and opens the pull request', async () => {
    const s = await setup();
    const res = await scion(['run', RECIPE, '--repo', s.work.dir, '--push', '--pr', '--pr-interval', '0'], { cwd: s.work.dir, env: s.env });
    expect(res.code, res.stderr).toBe(0);
    expect(remoteBranches(s)).toBe('main\nscion/bump');
    expect(s.github.pulls.map((p) => p.head)).toEqual(['scion/bump']);
  });
});
