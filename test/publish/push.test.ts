// `run --push` against a real git smart-HTTP server on 127.0.0.1, judged by native git on the
// remote: what lands there, what never gets overwritten, and how failures read.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';
import { makeRemote, pushesSince, runJson } from '../support/git-remote.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { useGitServer } from '../support/servers.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n');
const FILES = { 'a.txt': 'uses v1\n', 'b.txt': 'also v1\n' };

const server = useGitServer();
const cleanups = cleanupAfterEach();

describe('run --push', () => {
  it("pushes a changed job's branch and records it in the report", async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--report', 'r.json'], { cwd: work.dir, env: server.githubEnv() });
    expect(res.code).toBe(0);
    const head = work.git('rev-parse', 'scion/bump');
    expect(remote.git('rev-parse', 'scion/bump')).toBe(head);
    expect(remote.git('show', 'scion/bump:a.txt')).toBe('uses v2');
    expect(res.stdout).toContain(`pushed scion/bump to origin at ${head.slice(0, 12)} (new branch)`);
    // What scion saw on the remote is kept as the remote-tracking ref, as git push keeps it.
    expect(work.git('rev-parse', 'refs/remotes/origin/scion/bump')).toBe(head);
    const report = JSON.parse(readFileSync(join(work.dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs[0]!.pushed).toEqual({ remote: 'origin', ref: 'refs/heads/scion/bump', sha: head, previous: null, sent: true });
    remote.git('fsck', '--strict', '--no-dangling');
    // The user's checkout is untouched.
    expect(work.git('status', '--porcelain', '--untracked-files=no')).toBe('');
  });

  it('a rerun with nothing new pushes nothing', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const first = await runJson(server, work.dir, RECIPE, ['--push']);
    const head = first.report.jobs[0]!.head!;
    const before = server.requests.length;
    const again = await runJson(server, work.dir, RECIPE, ['--push']);
    expect(again.code).toBe(0);
    const job = again.report.jobs[0]!;
    expect(job.status).toBe('unchanged');
    expect(job.pushed).toEqual({ remote: 'origin', ref: 'refs/heads/scion/bump', sha: head, previous: head, sent: false });
    expect(pushesSince(server, before)).toBe(0);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(head);
  });

  it('force-pushes a branch rewritten after the base moved, since the remote held only its commits', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const old = (await runJson(server, work.dir, RECIPE, ['--push'])).report.jobs[0]!.head!;
    writeFileSync(join(work.dir, 'c.txt'), 'new v1 file\n');
    work.git('add', 'c.txt');
    work.git('commit', '-qm', 'more');
    const newBase = work.git('rev-parse', 'HEAD');

    const again = await runJson(server, work.dir, RECIPE, ['--push']);
    expect(again.code).toBe(0);
    const job = again.report.jobs[0]!;
    expect(job.status).toBe('changed');
    expect(job.pushed).toMatchObject({ sha: job.head, previous: old, sent: true });
    expect(remote.git('rev-parse', 'scion/bump')).toBe(job.head);
    expect(remote.git('rev-parse', 'scion/bump^')).toBe(newBase);
    expect(remote.git('show', 'scion/bump:c.txt')).toBe('new v2 file');
    remote.git('fsck', '--strict', '--no-dangling');
  });

  it("refuses to overwrite someone else's commit on the remote branch, and --force overrides", async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    await runJson(server, work.dir, RECIPE, ['--push']);
    // A reviewer pushes a fixup onto the branch from their own clone.
    const reviewer = await remote.clone({ name: 'Reviewer', email: 'rev@example.com' });
    reviewer.git('checkout', '-q', 'scion/bump');
    writeFileSync(join(reviewer.dir, 'a.txt'), 'uses v2, reviewed\n');
    reviewer.git('commit', '-qam', 'fixup by a reviewer');
    await reviewer.gitAsync(...server.authArgs(), 'push', '-q', 'origin', 'scion/bump');
    const theirs = reviewer.git('rev-parse', 'HEAD');

    const refused = await runJson(server, work.dir, RECIPE, ['--push']);
    expect(refused.code).toBe(1);
    const job = refused.report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.pushed).toBeUndefined();
    expect(job.errors.map((e) => e.kind)).toEqual(['branch-diverged']);
    expect(job.errors[0]!.message).toContain('scion/bump on origin holds commits scion did not write');
    expect(job.errors[0]!.message).toContain('--force');
    expect(job.errors[0]!.file).toBeNull();
    expect(job.errors[0]!.step).toBe(1);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(theirs);

    const forced = await runJson(server, work.dir, RECIPE, ['--push', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.report.jobs[0]!.pushed).toMatchObject({ previous: theirs, sent: true });
    expect(remote.git('rev-parse', 'scion/bump')).toBe(work.git('rev-parse', 'scion/bump'));
  });

  it("fetches a remote branch it has not seen, and replaces it when it holds only this job's commits", async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    // This clone is made before the branch exists: it has neither the branch's commits nor a tracking ref.
    const late = await remote.clone({ name: 'Other Runner', email: 'ci@example.com' });
    const work = await remote.clone();
    const pushedFirst = (await runJson(server, work.dir, RECIPE, ['--push'])).report.jobs[0]!.head!;
    writeFileSync(join(late.dir, 'c.txt'), 'v1 again\n');
    late.git('add', 'c.txt');
    late.git('commit', '-qm', 'local base');

    const res = await runJson(server, late.dir, RECIPE, ['--push']);
    expect(res.code).toBe(0);
    const job = res.report.jobs[0]!;
    expect(job.pushed).toMatchObject({ previous: pushedFirst, sent: true });
    expect(remote.git('rev-parse', 'scion/bump^')).toBe(late.git('rev-parse', 'HEAD'));
    remote.git('fsck', '--strict', '--no-dangling');
  });

  it('sends nothing when the remote already holds the same change written by another identity', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const first = (await runJson(server, work.dir, RECIPE, ['--push'])).report.jobs[0]!.head!;
    // A fresh CI checkout: the branch is new locally, its commit differs (author), its content does not.
    const ci = await remote.clone({ name: 'CI Bot', email: 'bot@example.com' });
    const before = server.requests.length;
    const res = await runJson(server, ci.dir, RECIPE, ['--push']);
    expect(res.code).toBe(0);
    const job = res.report.jobs[0]!;
    expect(job.status).toBe('changed');
    expect(job.head).not.toBe(first);
    expect(job.pushed).toEqual({ remote: 'origin', ref: 'refs/heads/scion/bump', sha: first, previous: first, sent: false });
    expect(pushesSince(server, before)).toBe(0);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(first);
  });

  it('pushes failed jobs only with --push-failed', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const half = recipeFile(
      'name: half\nsteps:\n  - replace: { old_string: "v1", new_string: "v2", replace_all: true }\n' +
        '  - edit: { file: missing.txt, edits: [{ old_string: "x", new_string: "y" }] }\n',
    );
    const plain = await runJson(server, work.dir, half, ['--push']);
    expect(plain.code).toBe(1);
    expect(plain.report.jobs[0]!.status).toBe('failed');
    expect(plain.report.jobs[0]!.head).not.toBeNull();
    expect(plain.report.jobs[0]!.pushed).toBeUndefined();
    expect(remote.git('branch', '--list', 'scion/*')).toBe('');

    const withFailed = await runJson(server, work.dir, half, ['--push', '--push-failed']);
    expect(withFailed.code).toBe(1);
    const job = withFailed.report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => e.kind)).toEqual(['file-missing']);
    expect(job.pushed).toMatchObject({ sha: job.head, sent: true });
    expect(remote.git('rev-parse', 'scion/half')).toBe(job.head);
  });

  it('a bad or missing token fails the job with one clear sentence and exit 1', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const bad = await scion(['run', RECIPE, '--repo', work.dir, '--push'], {
      cwd: work.dir,
      env: { GITHUB_TOKEN: 'wrong-token', GITHUB_SERVER_URL: server.url },
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /Could not push scion\/bump to origin \(http:\/\/127\.0\.0\.1:\d+\/acme\/widgets-\d+\.git\): the server refused the token \(HTTP 401/,
    );
    expect(bad.stdout).toContain('set GITHUB_TOKEN to a token allowed to push there');
    expect(bad.stdout + bad.stderr).not.toContain('wrong-token');
    expect(remote.git('branch', '--list', 'scion/*')).toBe('');

    const none = await runJson(server, work.dir, RECIPE, ['--push'], {});
    expect(none.code).toBe(1);
    const job = none.report.jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors).toHaveLength(1);
    expect(job.errors[0]).toMatchObject({ kind: 'push-failed', file: null });
    expect(job.errors[0]!.message).toContain('the server asks for credentials (HTTP 401');
    // The branch itself was written locally; only the push failed.
    expect(work.git('rev-parse', 'scion/bump')).toBe(job.head);
  });

  it('fails every job to push, and only those, when the remote cannot be reached', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    work.git('remote', 'set-url', 'origin', 'http://127.0.0.1:9/acme/nowhere.git');
    const two = recipeFile(
      'name: two\njobs: [{ name: a, files: { include: ["a.txt"] } }, { name: b, files: { include: ["zzz/**"] } }]\nsteps:\n  - replace: { ' +
        'old_string: "v1", new_string: "v2", replace_all: true, files: { include: ["**"] } }\n',
    );
    const res = await runJson(server, work.dir, two, ['--push']);
    expect(res.code).toBe(1);
    const [a, b] = res.report.jobs;
    expect(a!.status).toBe('failed');
    expect(a!.errors[0]!.message).toMatch(
      /Could not push scion\/two\/a to origin \(http:\/\/127\.0\.0\.1:9\/acme\/nowhere\.git\): the server cannot be reached \(.*ECONNREFUSED/,
    );
    expect(b!.status).toBe('empty');
    expect(b!.errors).toEqual([]);
  });

  it('sends only the new objects of a new branch, even without refs/remotes/origin/HEAD', async () => {
    // 40 files of 4 KB of hex: a pack holding them all is over 80 KB, one of them about 2 KB.
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.txt`, `file ${i} v1\n${randomBytes(2048).toString('hex')}\n`]));
    const remote = await makeRemote(server, many, cleanups);
    const work = await remote.clone();
    work.git('symbolic-ref', '--delete', 'refs/remotes/origin/HEAD');
    const one = recipeFile('name: one\nsteps:\n  - replace: { old_string: "file 7 v1", new_string: "file 7 v2" }\n');
    const before = server.requests.length;
    const res = await runJson(server, work.dir, one, ['--push']);
    expect(res.code).toBe(0);
    // One commit, one tree, one blob: not the 40 blobs of the base.
    const sent = server.requests.slice(before).filter((r) => r.method === 'POST' && r.service === 'git-receive-pack');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.bytes).toBeGreaterThan(2000);
    expect(sent[0]!.bytes).toBeLessThan(12_000);
    expect(remote.git('show', 'scion/one:f7.txt')).toMatch(/^file 7 v2\n/);
    remote.git('fsck', '--strict', '--no-dangling');
  });

  it('sends a full pack when the remote lacks a base scion believed it had', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    writeFileSync(join(work.dir, 'c.txt'), 'local v1\n');
    work.git('add', 'c.txt');
    work.git('commit', '-qm', 'never pushed');
    // A stale remote-tracking ref claims the remote holds this local commit.
    work.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    const before = server.requests.length;
    const res = await runJson(server, work.dir, RECIPE, ['--push']);
    expect(res.code).toBe(0);
    expect(pushesSince(server, before)).toBe(2);
    expect(remote.git('rev-parse', 'scion/bump^')).toBe(work.git('rev-parse', 'HEAD'));
    remote.git('fsck', '--strict', '--no-dangling');
  });

  it('pushes objects and refs that native git gc packed', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const first = await runJson(server, work.dir, RECIPE, []);
    const head = first.report.jobs[0]!.head!;
    work.git('gc', '-q');
    expect(work.git('count-objects', '-v')).toMatch(/^count: 0$/m);
    expect(work.git('for-each-ref', '--format=%(refname)', 'refs/heads/scion')).toBe('refs/heads/scion/bump');

    const res = await runJson(server, work.dir, RECIPE, ['--push']);
    expect(res.code).toBe(0);
    expect(res.report.jobs[0]!.status).toBe('unchanged');
    // Unchanged locally, but missing on the remote: a scheduled rerun still gets its branch there.
    expect(res.report.jobs[0]!.pushed).toMatchObject({ sha: head, previous: null, sent: true });
    expect(remote.git('rev-parse', 'scion/bump')).toBe(head);
    remote.git('fsck', '--strict', '--no-dangling');
  });

  it('pushes from a linked worktree of the repository', async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const wt = `${work.dir}-linked`;
    work.git('worktree', 'add', '-q', '--detach', wt);
    const res = await runJson(server, wt, RECIPE, ['--push']);
    expect(res.code).toBe(0);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(work.git('rev-parse', 'scion/bump'));
    expect(work.git('rev-parse', 'refs/remotes/origin/scion/bump')).toBe(res.report.jobs[0]!.head);
  });

  it("uses the token actions/checkout leaves in the repository's http.extraHeader", async () => {
    const remote = await makeRemote(server, FILES, cleanups);
    const work = await remote.clone();
    const basic = Buffer.from(`x-access-token:${server.token}`).toString('base64');
    work.git('config', '--local', `http.${server.url}/.extraheader`, `AUTHORIZATION: basic ${basic}`);
    const res = await runJson(server, work.dir, RECIPE, ['--push'], {});
    expect(res.code).toBe(0);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(res.report.jobs[0]!.head);
  });
});
