// Commits and Branches that are not scion's: identities and dates from the environment
// as git takes them, a reflog entry for every ref scion moves, and commit.gpgsign said once.
// Native git is the judge: the same variables given to `git commit-tree`, `git reflog show`.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseGitDate } from '../../src/git/index.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { gitEnv, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();

const RECIPE = `name: sig
files: { include: ["src/**"] }
steps:
  - replace: { old_string: "old", new_string: "new", replace_all: true }
`;

/** What native git makes of GIT_AUTHOR_DATE=value: "<unix> <+hhmm>". */
function nativeDate(r: TestRepo, value: string): string {
  const env = { ...gitEnv(), GIT_AUTHOR_DATE: value, GIT_COMMITTER_DATE: value, TZ: 'Europe/Berlin' };
  const tree = r.git('rev-parse', 'HEAD^{tree}');
  const sha = execFileSync('git', ['commit-tree', tree, '-m', 'x'], { cwd: r.dir, env, encoding: 'utf8' }).trim();
  return r.git('log', '-1', '--format=%ad', '--date=raw', sha);
}

describe('dates from the environment', () => {
  it.each([
    '@1700000000 +0200',
    '@1700000000 -0530',
    '1700000000 +0000',
    'Thu, 07 Apr 2005 22:13:13 +0200',
    '07 Apr 2005 22:13 -0700',
    '2005-04-07T22:13:13+02:00',
    '2005-04-07T22:13:13Z',
    '2005-04-07 22:13:13 +0200',
    'Thu Apr 7 22:13:13 2005 +0200',
  ])('%s means what it means to git', async (value) => {
    const r = await repo({ 'a.txt': 'a\n' });
    const d = parseGitDate(value);
    expect(d).not.toBeNull();
    const east = -d!.timezoneOffset;
    const tz = `${east < 0 ? '-' : '+'}${String(Math.floor(Math.abs(east) / 60)).padStart(2, '0')}${String(Math.abs(east) % 60).padStart(2, '0')}`;
    expect(`${d!.timestamp} ${tz}`).toBe(nativeDate(r, value));
  });

  it('refuses what git refuses', () => {
    expect(parseGitDate('yesterday-ish')).toBeNull();
    expect(parseGitDate('2005-13-07T22:13:13Z')).toBeNull();
  });
});

describe('scion run and git identities', () => {
  it('takes GIT_AUTHOR_* and GIT_COMMITTER_* over the config, as git does, and logs the branch move', async () => {
    const r = await repo({ 'src/a.txt': 'old\n' });
    const env = {
      GIT_AUTHOR_NAME: 'Ada Author',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_AUTHOR_DATE: '@1700000000 +0200',
      GIT_COMMITTER_NAME: 'Carl Committer',
      GIT_COMMITTER_EMAIL: 'carl@example.com',
      GIT_COMMITTER_DATE: 'Thu, 07 Apr 2005 22:13:13 +0200',
    };
    const res = await scion(['run', recipeFile(RECIPE), '--repo', r.dir], { cwd: r.dir, env });
    expect(res.code, res.stderr).toBe(0);
    expect(r.git('log', '-1', '--format=%an|%ae|%ad|%cn|%ce|%cd', '--date=raw', 'scion/sig')).toBe(
      'Ada Author|ada@example.com|1700000000 +0200|Carl Committer|carl@example.com|1112904793 +0200',
    );
    // The reflog names the recipe and job, with the committer as git writes it.
    expect(r.git('reflog', 'show', '--format=%gs|%gn|%ge', 'scion/sig')).toBe('scion: sig/sig|Carl Committer|carl@example.com');
    r.git('fsck', '--strict', '--no-dangling');
  });

  it('falls back to the repository config (author.*, committer.*, user.*) and adds a reflog entry per move', async () => {
    const r = await repo({ 'src/a.txt': 'old\n' });
    r.git('config', 'author.name', 'Config Author');
    r.git('config', 'committer.email', 'committer@config');
    expect(
      (await scion(['run', recipeFile(RECIPE), '--repo', r.dir], { cwd: r.dir, env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } })).code,
    ).toBe(0);
    expect(r.git('log', '-1', '--format=%an|%ae|%cn|%ce', 'scion/sig')).toBe('Config Author|test@example.com|Test User|committer@config');
    // A changed recipe rewrites the branch: a second entry, the first kept.
    const second = RECIPE.replace('"new"', '"newer"');
    expect((await scion(['run', recipeFile(second), '--repo', r.dir], { cwd: r.dir })).code).toBe(0);
    expect(r.git('reflog', 'show', '--format=%gs', 'scion/sig').split('\n')).toEqual(['scion: sig/sig', 'scion: sig/sig']);
  });

  it('core.logAllRefUpdates=false: no new reflog, as git', async () => {
    const r = await repo({ 'src/a.txt': 'old\n' });
    r.git('config', 'core.logAllRefUpdates', 'false');
    expect((await scion(['run', recipeFile(RECIPE), '--repo', r.dir], { cwd: r.dir })).code).toBe(0);
    expect(r.git('reflog', 'show', 'scion/sig')).toBe('');
  });

  it('commit.gpgsign=true: the commits are unsigned and the run says so once', async () => {
    const r = await repo({ 'src/a/x.txt': 'old\n', 'src/b/x.txt': 'old\n' });
    r.git('config', 'commit.gpgsign', 'true');
    const two = `${RECIPE}jobs:\n  - each: "src/*"\n`;
    const res = await scion(['run', recipeFile(two), '--repo', r.dir], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect((res.stdout + res.stderr).match(/does not sign/g)).toHaveLength(1);
    for (const b of r.git('branch', '--list', '--format=%(refname:short)', 'scion/*').split('\n')) {
      expect(r.git('cat-file', 'commit', b)).not.toContain('gpgsig');
    }
  });
});
