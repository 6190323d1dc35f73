// The credential rule through the CLI, counted at the servers: each loopback git server records the
// Authorization header of every request it got. GitHub's token goes only to the origin named
// GITHUB_SERVER_URL (and the API to GITHUB_API_URL), only after that server answered 401; another
// host, or the same host on another port, gets nothing, whether it comes from the --repos list or
// from a report's repoUrl; credentials written in a list's URL win for their own origin.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import type { GitServer, ServedRequest } from '../support/git-http-server.js';
import { scion } from '../support/cli.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { useFakeGitHub, useGitServer } from '../support/servers.js';

const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';
const basic = (user: string, token: string) => `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

/** Every request with credentials came after the server's own 401 to a request without them. */
function challengedFirst(requests: readonly ServedRequest[]): void {
  const first = requests.findIndex((r) => r.authorization !== null);
  if (first === -1) return;
  expect(requests.slice(0, first).some((r) => r.status === 401 && r.authorization === null)).toBe(true);
}

describe('which server gets which credential', () => {
  const github = useGitServer('github-token'); // GITHUB_SERVER_URL
  const other = useGitServer('other-token', { anonymousRead: true }); // another port of the same host: a public server anyone may clone from
  const own = useGitServer('url-token'); // a server whose token is written in the list's URL
  const api = useFakeGitHub('acme', 'shop', 'all');
  let work: string;
  let env: Record<string, string>;

  async function seed(server: GitServer, path: string): Promise<string> {
    const bare = server.bare(path);
    const src = await gitRepo({ 'src/log.ts': "legacyLog('x');\n" });
    src.git('push', '-q', bare.dir, 'main');
    await src.cleanup();
    return bare.url;
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-credentials-'));
    writeFileSync(join(work, 'recipe.yaml'), RECIPE);
    const shop = await seed(github, 'acme/shop.git');
    const elsewhere = await seed(other, 'acme/elsewhere.git');
    const mine = await seed(own, 'acme/mine.git');
    writeFileSync(join(work, 'repos.txt'), [shop, elsewhere, mine.replace('://', '://x-access-token:url-token@')].join('\n') + '\n');
    env = { GITHUB_TOKEN: 'github-token', GITHUB_SERVER_URL: github.url, GITHUB_API_URL: api.url, HOME: '/nonexistent' };
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("a campaign: the token only to GITHUB_SERVER_URL after its 401, nothing to another port, the URL's own credentials to their origin", async () => {
    const r = await scion(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--push', '--report', 'r.json'], { cwd: work, env });
    expect(r.stderr).not.toContain('internal error');
    const report = JSON.parse(readFileSync(join(work, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs.map((j) => [j.repo!.split('/').slice(1).join('/'), j.status])).toEqual([
      ['acme/shop', 'changed'],
      ['acme/elsewhere', 'failed'],
      ['acme/mine', 'changed'],
    ]);
    expect(r.code).toBe(1);

    // GitHub's server: the token, each time after it asked.
    expect(new Set(github.requests.map((q) => q.authorization))).toEqual(new Set([null, basic('x-access-token', 'github-token')]));
    challengedFirst(github.requests);
    expect(github.requests[0]).toMatchObject({ authorization: null, status: 401 });

    // The same host on another port: cloned anonymously, never offered anything; its push fails
    // with a sentence saying why no credential went there.
    expect(other.requests.length).toBeGreaterThan(0);
    expect(other.requests.filter((q) => q.authorization !== null)).toEqual([]);
    expect(report.jobs[1]!.errors).toEqual([expect.objectContaining({ kind: 'push-failed' })]);
    expect(report.jobs[1]!.errors[0]!.message).toContain(`scion has none for ${other.url}: GITHUB_TOKEN goes only to ${github.url}; set GITHUB_SERVER_URL`);

    // Credentials written in the URL: only they went to their origin, and only after a 401.
    expect(new Set(own.requests.map((q) => q.authorization))).toEqual(new Set([null, basic('x-access-token', 'url-token')]));
    challengedFirst(own.requests);
    expect(runGit(own.root + '/acme/mine.git', 'rev-parse', 'scion/new-log')).toBe(report.jobs[2]!.head);
    expect(JSON.stringify(report) + r.stdout + r.stderr).not.toContain('url-token');
  });

  it("the URL's credentials win over the token on GitHub's own server", async () => {
    const before = own.requests.length;
    // `own` is GitHub's server now, with a token it does not know: the URL's credentials go instead.
    const r = await scion(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache-2', '--json'], {
      cwd: work,
      env: { ...env, GITHUB_TOKEN: 'wrong-token', GITHUB_SERVER_URL: own.url },
    });
    expect(r.stderr).not.toContain('internal error');
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.jobs[2]!.status).toBe('changed');
    expect(new Set(own.requests.slice(before).map((q) => q.authorization))).toEqual(new Set([null, basic('x-access-token', 'url-token')]));
  });

  it("a clone URL on the API's host but another port gets nothing: clone-failed naming GITHUB_SERVER_URL, the report written", async () => {
    writeFileSync(join(work, 'one.txt'), `${github.url}/acme/shop.git\n`);
    const before = github.requests.length;
    const r = await scion(['run', 'recipe.yaml', '--repos', 'one.txt', '--cache-dir', 'cache-3', '--report', 'one.json'], {
      cwd: work,
      env: { GITHUB_TOKEN: 'github-token', GITHUB_API_URL: api.url, HOME: '/nonexistent' },
    });
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(work, 'one.json'), 'utf8')) as RunReport;
    expect(report.jobs[0]!.errors[0]).toMatchObject({ kind: 'clone-failed' });
    expect(report.jobs[0]!.errors[0]!.message).toContain(`scion has none for ${github.url}: GITHUB_TOKEN goes only to ${api.url}; set GITHUB_SERVER_URL`);
    expect(github.requests.slice(before).length).toBeGreaterThan(0);
    expect(github.requests.slice(before).filter((q) => q.authorization !== null)).toEqual([]);
  });

  it("a report's repoUrl on another host: status, branches and pr clone it without the token and send its API nothing", async () => {
    // A report whose repoUrl was changed to point at another server (which serves the same repository).
    const report = JSON.parse(readFileSync(join(work, 'r.json'), 'utf8')) as RunReport;
    const shop = report.jobs[0]!;
    const evil = await seed(other, 'acme/shop.git');
    const edited: RunReport = { ...report, jobs: [{ ...shop, repoUrl: evil }] };
    writeFileSync(join(work, 'edited.json'), JSON.stringify(edited));
    const before = other.requests.length;
    const apiBefore = api.requests.length;

    const status = await scion(['status', '--report', 'edited.json', '--cache-dir', 'cache-4', '--json'], { cwd: work, env });
    expect(status.code, status.stderr).toBe(0);
    const branches = await scion(['branches', '--report', 'edited.json', '--cache-dir', 'cache-4'], { cwd: work, env });
    expect(branches.code, branches.stderr).toBe(0);
    const pr = await scion(['pr', '--report', 'edited.json', '--cache-dir', 'cache-5', '--pr-interval', '0'], { cwd: work, env });
    expect(pr.code).toBe(2);
    expect(pr.stderr).toContain(`is not on the GitHub server scion has a token for (${github.url}), and GITHUB_TOKEN goes only there`);

    expect(other.requests.slice(before).length).toBeGreaterThan(0);
    expect(other.requests.slice(before).filter((q) => q.authorization !== null)).toEqual([]);
    expect(api.requests.slice(apiBefore)).toEqual([]);
  });
});
