// The git layer's pushCommit is a compare-and-swap: it sends nothing when the remote branch does
// not hold the value the caller checked, and native git on the remote confirms nothing moved.
import { describe, expect, it } from 'vitest';
import { closeRepo, listRemoteBranches, openRepo, pushCommit, type RemoteAccess } from '../../src/git/index.js';
import { recipeFile } from '../support/recipe-file.js';
import { accessTo, makeRemote, runJson } from '../support/git-remote.js';
import { remoteAccess } from '../../src/host/remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n');

const server = useGitServer();
const cleanups = cleanupAfterEach();

describe('pushCommit', () => {
  it('pushes only over the value the caller expects', async () => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    await runJson(server, work.dir, RECIPE, []);
    const head = work.git('rev-parse', 'scion/bump');
    const base = work.git('rev-parse', 'main');
    const repo = await openRepo(work.dir);
    cleanups.push(async () => closeRepo(repo));
    const access: RemoteAccess = accessTo(server, remote.url);

    // Expecting the branch to exist when it does not: nothing is sent.
    const early = await pushCommit(repo, access, { remote: 'origin', branch: 'scion/bump', sha: head, expectedOld: base });
    expect(early).toEqual({ ok: false, error: { reason: 'moved', status: null, detail: 'no such branch' } });
    expect(remote.git('branch', '--list', 'scion/*')).toBe('');

    const created = await pushCommit(repo, access, { remote: 'origin', branch: 'scion/bump', sha: head, expectedOld: null });
    expect(created.ok).toBe(true);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(head);

    // Expecting it absent (or at another commit) once it exists: refused, the remote keeps its value.
    const again = await pushCommit(repo, access, { remote: 'origin', branch: 'scion/bump', sha: base, expectedOld: null });
    expect(again).toEqual({ ok: false, error: { reason: 'moved', status: null, detail: head } });
    expect(remote.git('rev-parse', 'scion/bump')).toBe(head);

    const listed = await listRemoteBranches(access);
    expect(listed.ok && Object.fromEntries(listed.value)).toEqual({ main: base, 'scion/bump': head });

    const denied = await listRemoteBranches(remoteAccess(remote.url, { GITHUB_TOKEN: 'nope', GITHUB_SERVER_URL: server.url }).access);
    expect(denied).toEqual({ ok: false, error: { reason: 'auth', status: 401, detail: expect.stringContaining('HTTP 401') } });
  });
});
