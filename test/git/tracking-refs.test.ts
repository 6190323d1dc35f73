// The refs a fetch, a push and a remote deletion move in the local repository (refs/remotes/origin/*)
// move under git's lock protocol, never through isomorphic-git's own unlocked writes: a lock another
// process holds leaves the ref as it is, and native git judges the repository afterwards.
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeRepo, deleteRemoteBranch, fetchBranch, openRepo, pushCommit, type Repo } from '../../src/git/index.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { accessTo, makeRemote, type Clone, type Remote } from '../support/git-remote.js';
import { useGitServer } from '../support/servers.js';

const server = useGitServer();
const cleanups = cleanupAfterEach();

/** A remote with a branch `feature` the work clone has not fetched yet. */
async function setup(): Promise<{ remote: Remote; work: Clone; repo: Repo; feature: string }> {
  const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
  const work = await remote.clone();
  const other = await remote.clone();
  other.git('checkout', '-q', '-b', 'feature');
  writeFileSync(join(other.dir, 'a.txt'), 'v2\n');
  other.git('commit', '-qam', 'feature');
  await other.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'feature');
  const repo = await openRepo(work.dir);
  cleanups.push(() => closeRepo(repo));
  return { remote, work, repo, feature: remote.git('rev-parse', 'feature') };
}

describe('remote-tracking refs', () => {
  it('a fetch brings the commits; its tracking ref waits while another process holds the lock, and moves once it is gone', async () => {
    const { remote, work, repo, feature } = await setup();
    const lock = join(work.dir, '.git/refs/remotes/origin/feature.lock');
    writeFileSync(lock, '');
    const fetched = await fetchBranch(repo, accessTo(server, remote.url), 'origin', 'feature');
    expect(fetched).toEqual({ ok: true, value: feature });
    expect(work.git('cat-file', '-t', feature)).toBe('commit');
    // isomorphic-git would have written the ref over the lock: nothing of it is there.
    expect(work.git('for-each-ref', '--format=%(refname)', 'refs/remotes/origin/feature')).toBe('');
    expect(existsSync(lock)).toBe(true);
    unlinkSync(lock);
    await fetchBranch(repo, accessTo(server, remote.url), 'origin', 'feature');
    expect(work.git('rev-parse', 'refs/remotes/origin/feature')).toBe(feature);
    work.git('fsck', '--strict');
  });

  it('a push sets the tracking ref; deleting the remote branch deletes it and the folder it leaves empty', async () => {
    const { remote, work, repo } = await setup();
    work.git('checkout', '-q', '-b', 'scion/job');
    work.git('commit', '-q', '--allow-empty', '-m', 'job');
    const head = work.git('rev-parse', 'HEAD');
    const access = accessTo(server, remote.url);
    expect((await pushCommit(repo, access, { remote: 'origin', branch: 'scion/job', sha: head, expectedOld: null })).ok).toBe(true);
    expect(work.git('rev-parse', 'refs/remotes/origin/scion/job')).toBe(head);
    expect(await deleteRemoteBranch(repo, access, 'origin', 'scion/job', head)).toEqual({ ok: true, value: undefined });
    expect(remote.git('for-each-ref', '--format=%(refname)', 'refs/heads/scion/')).toBe('');
    expect(work.git('for-each-ref', '--format=%(refname)', 'refs/remotes/origin/scion/')).toBe('');
    expect(existsSync(join(work.dir, '.git/refs/remotes/origin/scion'))).toBe(false);
    work.git('fsck', '--strict');
  });
});
