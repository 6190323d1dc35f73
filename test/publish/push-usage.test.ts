// Where a push goes (remote URL, credentials), and the flag mistakes that stop a run before it starts.
import { describe, expect, it } from 'vitest';
import { closeRepo, openRepo } from '../../src/git/index.js';
import { pushTargetOf, resolvePushTarget } from '../../src/publish/push.js';
import { hostOf } from '../../src/host/open.js';
import { remoteContext } from '../../src/publish/remote-context.js';
import { UsageError } from '../../src/errors.js';
import { scion } from '../support/cli.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');

const cleanups = cleanupAfterEach();

async function repoWith(...config: [string, string][]): Promise<TestRepo> {
  const r = await gitRepo({ 'a.txt': 'v1\n' });
  cleanups.push(r.cleanup);
  for (const [k, v] of config) r.git('config', '--add', k, v);
  return r;
}

async function target(r: TestRepo, name: string, env: Record<string, string> = {}) {
  const repo = await openRepo(r.dir);
  try {
    return resolvePushTarget(repo, name, env);
  } finally {
    closeRepo(repo);
  }
}

describe('the push target', () => {
  it('prefers pushurl, hides credentials (which win for their own origin), and takes the token from GITHUB_TOKEN or GIT_TOKEN on GitHub', async () => {
    const r = await repoWith(
      ['remote.origin.url', 'https://example.com/a/b.git'],
      ['remote.origin.pushurl', 'https://me:secret@push.example.com/a/b.git'],
      ['remote.gh.url', 'https://github.com/a/b.git'],
    );
    const t = await target(r, 'origin', { GIT_TOKEN: 'tok', GITHUB_SERVER_URL: 'https://push.example.com' });
    expect(t.access.url).toBe('https://push.example.com/a/b.git');
    expect(t.shown).toBe('https://push.example.com/a/b.git');
    expect(t.credential).toMatchObject({ origin: 'https://push.example.com', source: 'url' });
    expect((await target(r, 'gh', { GIT_TOKEN: 'tok' })).credential).toMatchObject({ origin: 'https://github.com', source: 'token', variable: 'GIT_TOKEN' });
    expect((await target(r, 'gh', { GITHUB_TOKEN: 'gh', GIT_TOKEN: 'tok' })).credential).toMatchObject({ source: 'token', variable: 'GITHUB_TOKEN' });
  });

  it('turns an SSH URL of a GitHub repository into its https URL', async () => {
    const r = await repoWith(['remote.origin.url', 'git@github.com:acme/widgets.git'], ['remote.ghe.url', 'ssh://git@ghe.corp.example/acme/widgets.git']);
    expect((await target(r, 'origin')).access.url).toBe('https://github.com/acme/widgets.git');
    expect((await target(r, 'ghe', { GITHUB_SERVER_URL: 'https://ghe.corp.example/' })).access.url).toBe('https://ghe.corp.example/acme/widgets.git');
  });

  it('reads http.extraHeader only when no token is given', async () => {
    const r = await repoWith(
      ['remote.origin.url', 'https://github.com/acme/widgets'],
      ['http.https://github.com/.extraheader', 'AUTHORIZATION: basic abc'],
      ['http.https://other.example/.extraheader', 'X-Other: 1'],
    );
    expect((await target(r, 'origin')).access.credential).toEqual({ origin: 'https://github.com', headers: { authorization: 'basic abc' } });
    expect((await target(r, 'origin', { GITHUB_TOKEN: 't' })).credential).toMatchObject({ source: 'token' });
  });

  it('refuses a missing remote and a URL it cannot push to', async () => {
    const r = await repoWith(['remote.lab.url', 'git@gitlab.example:acme/widgets.git']);
    await expect(target(r, 'origin')).rejects.toThrow(UsageError);
    await expect(target(r, 'origin')).rejects.toThrow('no remote "origin"');
    await expect(target(r, 'lab')).rejects.toThrow('scion pushes over HTTP(S) only');
  });

  it('is a value where a caller decides what a missing target means: push-failed and pr-failed failures, nothing thrown', async () => {
    const r = await repoWith(['remote.lab.url', 'git@gitlab.example:acme/widgets.git'], ['remote.gh.url', 'https://github.com/acme/widgets.git']);
    const repo = await openRepo(r.dir);
    try {
      expect(pushTargetOf(repo, 'origin', {})).toMatchObject({
        ok: false,
        error: { kind: 'push-failed', message: expect.stringContaining('no remote "origin"') },
      });
      expect(pushTargetOf(repo, 'lab', {})).toMatchObject({ ok: false, error: { kind: 'push-failed', message: expect.stringContaining('HTTP(S) only') } });
      expect(pushTargetOf(repo, 'gh', {})).toMatchObject({ ok: true, value: { access: { url: 'https://github.com/acme/widgets.git' } } });
      expect(hostOf(repo, 'gh', {})).toMatchObject({ ok: false, error: { kind: 'pr-failed', message: expect.stringContaining('No GitHub token') } });
      expect(hostOf(repo, 'origin', {})).toMatchObject({ ok: false, error: { kind: 'pr-failed', message: expect.stringContaining('no remote "origin"') } });
      expect(hostOf(repo, 'gh', { GITHUB_TOKEN: 't' }).ok).toBe(true);
      // Status reads what it can: without a token or a reachable remote it asks nothing, and says nothing wrong.
      const ctx = remoteContext(repo, 'lab', {}, false);
      expect([ctx.host, ctx.push]).toEqual([null, null]);
      expect(() => remoteContext(repo, 'lab', {}, true)).toThrow(UsageError);
    } finally {
      closeRepo(repo);
    }
  });
});

describe('push flags', () => {
  it.each([
    [['--push-failed'], '--push-failed only says which branches --push pushes'],
    [['--pr'], '--pr opens pull requests for the branches --push pushed'],
    [['--push', '--dry-run'], '--push cannot go with plan or --dry-run'],
    [['--push', 'upstream'], 'no remote "upstream"'],
    [['--push=origin', '--pr'], 'No GitHub token: set GITHUB_TOKEN'],
  ])('%j is bad usage: exit 2, nothing run', async (flags, message) => {
    const r = await repoWith(['remote.origin.url', 'https://github.com/acme/widgets.git']);
    const res = await scion(['run', RECIPE, '--repo', r.dir, ...flags], { cwd: r.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(r.git('branch', '--list', 'scion/*')).toBe('');
  });

  it('plan refuses it too', async () => {
    const r = await repoWith(['remote.origin.url', 'https://github.com/acme/widgets.git']);
    const res = await scion(['plan', RECIPE, '--repo', r.dir, '--push'], { cwd: r.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--push cannot go with plan or --dry-run');
  });
});
