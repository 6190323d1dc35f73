// `scion branches --prune` deletes only branches scion wrote: its namespace (scion/…, or a branch a
// report names for the job) and its trailers on every commit above the base. A user's `main` or
// `release` is never touched, whatever it holds: not after a fast-forward merge of a scion branch,
// not in a campaign's cache clone, not on the remote. Through the CLI, judged with native git.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePath } from '../../src/campaign/clone-cache.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeGitHubsAfterEach, useGitServer } from '../support/servers.js';

const RECIPE = recipeFile('name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
const OTHER = recipeFile('name: other-log\nbranch: codemod/other-log\nsteps:\n  - replace: { old_string: "oldThing", new_string: "newThing" }\n');
const FILES = { 'src/log.ts': "legacyLog('x');\n", 'src/other.ts': 'oldThing();\n' };

const repo = reposAfterEach();
const startFakeGitHub = fakeGitHubsAfterEach();
/** A loopback port that was free a moment ago and is closed now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
const exists = (dir: string, ref: string) => {
  try {
    runGit(dir, 'rev-parse', '--verify', '-q', ref);
    return true;
  } catch {
    return false;
  }
};

describe('scion branches --prune in one repository', () => {
  it('keeps main and release after a fast-forward merge of a scion branch, and a branch made from it; deletes the merged scion branch', async () => {
    const r = await repo(FILES);
    const run = await scion(['run', RECIPE, '--repo', r.dir], { cwd: r.dir });
    expect(run.code, run.stderr).toBe(0);
    r.git('merge', '-q', '--ff-only', 'scion/new-log');
    // release at the (new) base, a branch someone made from the scion branch, and HEAD elsewhere.
    r.git('branch', 'release');
    r.git('branch', 'feature', 'scion/new-log');
    r.git('checkout', '-q', '--detach');
    const before = r.git('rev-parse', 'main');

    const dry = await scion(['branches', '--repo', r.dir], { cwd: r.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe('would delete scion/new-log (holds no commit the base lacks)\n');

    const res = await scion(['branches', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('deleted scion/new-log (holds no commit the base lacks)\n');
    expect(r.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/')).toBe('feature\nmain\nrelease');
    expect(r.git('rev-parse', 'main', 'release', 'feature')).toBe([before, before, before].join('\n'));
    r.git('fsck', '--strict');
  });

  it('deletes a scion branch merged with a merge commit; a custom branch name only when the report names it', async () => {
    const r = await repo(FILES);
    const run = await scion(['run', RECIPE, OTHER, '--repo', r.dir, '--report', 'r.json'], { cwd: r.dir });
    expect(run.code, run.stderr).toBe(0);
    r.git('merge', '-q', '--no-ff', '-m', 'merge new-log', 'scion/new-log');
    r.git('merge', '-q', '--no-ff', '-m', 'merge other-log', 'codemod/other-log');

    // Without a report, codemod/other-log is outside scion's namespace: not even looked at.
    const plain = await scion(['branches', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe('deleted scion/new-log (holds no commit the base lacks)\n');
    expect(exists(r.dir, 'refs/heads/codemod/other-log')).toBe(true);

    const named = await scion(['branches', '--prune', '--report', 'r.json', '--repo', r.dir], { cwd: r.dir });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toBe('deleted codemod/other-log (holds no commit the base lacks)\n');
    expect(r.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/')).toBe('main');
    r.git('fsck', '--strict');
  });

  it('keeps a scion/ branch whose tip someone else wrote, even when the base has it', async () => {
    const r = await repo(FILES);
    r.git('branch', 'scion/by-hand');
    const res = await scion(['branches', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('kept scion/by-hand (holds commits scion did not write)\n');
    expect(exists(r.dir, 'refs/heads/scion/by-hand')).toBe(true);
  });

  it('an unreachable remote is said as such (exit 1, never "internal error"), and no branch is deleted, local ones included', async () => {
    const r = await repo(FILES);
    const run = await scion(['run', RECIPE, '--repo', r.dir], { cwd: r.dir });
    expect(run.code, run.stderr).toBe(0);
    r.git('merge', '-q', '--ff-only', 'scion/new-log');
    // A loopback port nothing listens on: the connection is refused.
    const port = await closedPort();
    const origin = `http://127.0.0.1:${port}`;
    r.git('remote', 'add', 'origin', `${origin}/acme/app.git`);
    const env = { GITHUB_TOKEN: 'tok', GITHUB_SERVER_URL: origin, GITHUB_API_URL: `${origin}/api/v3` };
    const res = await scion(['branches', '--prune', '--remote', 'origin', '--repo', r.dir], { cwd: r.dir, env });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('Could not list the branches of origin');
    expect(res.stderr).not.toMatch(/internal error|a bug in scion/);
    expect(exists(r.dir, 'refs/heads/scion/new-log')).toBe(true);
  });
});

describe('scion branches --prune on a campaign report', () => {
  const server = useGitServer();
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-prune-campaign-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("never deletes main (nor release) in the cache clone or on the remote after upstream fast-forwarded main to scion's commit", async () => {
    const bare = server.bare('acme/shop.git');
    const src = await gitRepo(FILES);
    src.git('push', '-q', bare.dir, 'main');
    await src.cleanup();
    await writeFile(join(work, 'repos.txt'), `${bare.url}\n`);
    const github = await startFakeGitHub('acme', 'shop');
    const env = { GITHUB_TOKEN: server.token, GITHUB_SERVER_URL: server.url, GITHUB_API_URL: github.url, HOME: '/nonexistent' };
    const first = await scion(['run', RECIPE, '--repos', 'repos.txt', '--cache-dir', 'cache', '--push', '--report', 'r1.json'], { cwd: work, env });
    expect(first.code, first.stderr).toBe(0);

    // Upstream merges the scion branch by fast-forward, and cuts release there.
    const merged = runGit(bare.dir, 'rev-parse', 'scion/new-log');
    runGit(bare.dir, 'update-ref', 'refs/heads/main', merged);
    runGit(bare.dir, 'update-ref', 'refs/heads/release', merged);
    const second = await scion(['run', RECIPE, '--repos', 'repos.txt', '--cache-dir', 'cache', '--report', 'r2.json'], { cwd: work, env });
    expect(second.code, second.stderr).toBe(0);
    const clone = clonePath(join(work, 'cache'), { id: `${new URL(server.url).host}/acme/shop`, url: '', path: null, ref: null });
    expect(runGit(clone, 'rev-parse', 'main')).toBe(merged);

    const res = await scion(['branches', '--report', 'r2.json', '--cache-dir', 'cache', '--prune', '--remote', 'origin'], { cwd: work, env });
    expect(res.code, res.stderr).toBe(0);
    const id = `${new URL(server.url).host}/acme/shop`;
    expect(res.stdout.split('\n').filter(Boolean).sort()).toEqual([
      `${id}: deleted scion/new-log (holds no commit the base lacks)`,
      `${id}: deleted scion/new-log on origin (holds no commit the base lacks)`,
    ]);
    expect(runGit(clone, 'rev-parse', 'main')).toBe(merged);
    expect(runGit(bare.dir, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads/')).toBe(`main ${merged}\nrelease ${merged}`);
    runGit(clone, 'fsck', '--strict');
    // The next campaign run starts from the clone's main as before.
    const third = await scion(['run', RECIPE, '--repos', 'repos.txt', '--cache-dir', 'cache', '--json'], { cwd: work, env });
    expect(third.code, third.stderr).toBe(0);
  });
});
