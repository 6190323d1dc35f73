// The clone cache moves its refs the way git does: the branch by compare-and-swap under
// <ref>.lock, HEAD under HEAD.lock. A lock another process holds fails that repository with
// clone-failed naming the lock, and the ref it guards stays as it was; once it is gone, the next run
// brings the clone up to date. Judged with native git.
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureClone } from '../../src/campaign/clone-cache.js';
import type { RepoTarget } from '../../src/campaign/targets.js';
import { gitRepo, runGit, type TestRepo } from '../support/git-repo.js';
import { useGitServer } from '../support/servers.js';

const server = useGitServer();
let cache: string;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'scion-cache-'));
});
afterAll(async () => {
  await rm(cache, { recursive: true, force: true });
});

const env = () => ({ ...server.githubEnv(), HOME: '/nonexistent' });
let n = 0;

/** An upstream repository behind the server, its work repository (to push new commits) and its target. */
async function upstream(): Promise<{ dir: string; work: TestRepo; target: RepoTarget }> {
  const bare = server.bare(`acme/refs-${++n}.git`);
  const work = await gitRepo({ 'a.txt': 'one\n' });
  work.git('push', '-q', bare.dir, 'main');
  return { dir: bare.dir, work, target: { id: `local/acme/refs-${n}`, url: bare.url, path: null, ref: null } };
}

function commitAndPush(u: { dir: string; work: TestRepo }, branch = 'main'): string {
  u.work.git('commit', '-q', '--allow-empty', '-m', `on ${branch}`);
  u.work.git('push', '-q', u.dir, `HEAD:${branch}`);
  return u.work.head();
}

describe('the clone cache moves its refs under git lock protocol', () => {
  it('a held refs/heads/main.lock in the clone: clone-failed naming it, main unmoved; after it is gone the fetch moves main', async () => {
    const u = await upstream();
    const first = await ensureClone(u.target, { cacheDir: cache, env: env() });
    if (!first.ok) throw new Error(first.error.message);
    const { gitDir, sha: before } = first.value;
    const newer = commitAndPush(u);
    const lock = join(gitDir, 'refs/heads/main.lock');
    writeFileSync(lock, '');
    const held = await ensureClone(u.target, { cacheDir: cache, env: env() });
    expect(held).toMatchObject({ ok: false, error: { kind: 'clone-failed' } });
    if (!held.ok) expect(held.error.message).toMatch(/main\.lock exists.*remove the lock/);
    expect(runGit(gitDir, 'rev-parse', 'refs/heads/main')).toBe(before);
    expect(existsSync(lock)).toBe(true);
    unlinkSync(lock);
    expect(await ensureClone(u.target, { cacheDir: cache, env: env() })).toMatchObject({ ok: true, value: { action: 'fetched', sha: newer } });
    expect(runGit(gitDir, 'rev-parse', 'refs/heads/main')).toBe(newer);
    expect(runGit(gitDir, 'rev-parse', 'refs/remotes/origin/main')).toBe(newer);
    runGit(gitDir, 'fsck', '--strict', '--no-dangling');
    await u.work.cleanup();
  });

  it("follows the remote's new default branch: HEAD moves under HEAD.lock, and waits while another process holds it", async () => {
    const u = await upstream();
    const first = await ensureClone(u.target, { cacheDir: cache, env: env() });
    if (!first.ok) throw new Error(first.error.message);
    const { gitDir } = first.value;
    const trunk = commitAndPush(u, 'trunk');
    runGit(u.dir, 'symbolic-ref', 'HEAD', 'refs/heads/trunk');
    writeFileSync(join(gitDir, 'HEAD.lock'), '');
    const held = await ensureClone(u.target, { cacheDir: cache, env: env() });
    expect(held).toMatchObject({ ok: false, error: { kind: 'clone-failed' } });
    if (!held.ok) expect(held.error.message).toContain('HEAD.lock');
    expect(runGit(gitDir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    unlinkSync(join(gitDir, 'HEAD.lock'));
    const moved = await ensureClone(u.target, { cacheDir: cache, env: env() });
    expect(moved).toMatchObject({ ok: true, value: { branch: 'trunk', sha: trunk } });
    expect(runGit(gitDir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/trunk');
    expect(runGit(gitDir, 'rev-parse', 'HEAD')).toBe(trunk);
    runGit(gitDir, 'fsck', '--strict', '--no-dangling');
    await u.work.cleanup();
  });
});
