// SPEC §7: tokens travel only over HTTPS (or to a loopback address) and only to the host of the
// remote being pushed; nothing scion prints or publishes holds one.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedHttp, mayCarryCredentials, type RemoteAccess } from '../../src/git/push.js';
import { startFakeGitHub } from '../github/fake-github.js';
import { startGitServer, type GitServer } from '../push/git-http-server.js';
import { makeRemote, runJson } from '../push/setup.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');

let server: GitServer;
const cleanups = cleanupAfterEach();
beforeAll(async () => {
  server = await startGitServer();
});
afterAll(async () => {
  await server.close();
});

/** What guardedHttp hands the real client for one request. */
async function sent(access: RemoteAccess, url: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  let seen: Record<string, string> = {};
  const inner = {
    request: async (req: { headers?: Record<string, string> }) => {
      seen = req.headers ?? {};
      return { url, method: 'GET', statusCode: 200, statusMessage: 'OK', headers: {}, body: [] as Uint8Array[] };
    },
  };
  await guardedHttp(access, inner as never).request({ url, method: 'GET', headers });
  return seen;
}

describe('the credential rule', () => {
  const basic = (user: string, token: string) => `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

  it('sends the token to the remote itself over HTTPS, and to a loopback address over HTTP', async () => {
    expect((await sent({ url: 'https://git.example/a/b.git', token: 'tok123' }, 'https://git.example/a/b.git/info/refs')).authorization).toBe(basic('x-access-token', 'tok123'));
    expect((await sent({ url: 'https://gitlab.com/a/b.git', token: 'tok123', username: 'oauth2' }, 'https://gitlab.com/a/b.git/info/refs')).authorization).toBe(basic('oauth2', 'tok123'));
    expect((await sent({ url: 'http://127.0.0.1:9/a/b.git', token: 'tok123' }, 'http://127.0.0.1:9/a/b.git/info/refs')).authorization).toBe(basic('x-access-token', 'tok123'));
    expect(['http://localhost:1/x', 'http://[::1]:1/x', 'http://127.8.9.1/x', 'https://example.com/x'].map(mayCarryCredentials)).toEqual([true, true, true, true]);
  });

  it('never sends it over plain HTTP to another machine, nor to another host, whatever header carries it', async () => {
    expect((await sent({ url: 'http://git.example/a/b.git', token: 'tok123' }, 'http://git.example/a/b.git/info/refs')).authorization).toBeUndefined();
    expect((await sent({ url: 'https://git.example/a/b.git', token: 'tok123' }, 'https://elsewhere.example/a/b.git/git-receive-pack')).authorization).toBeUndefined();
    const header = { Authorization: basic('me', 'pw') };
    expect((await sent({ url: 'https://git.example/a/b.git', token: null, headers: header }, 'https://other.example/x', header)).authorization).toBeUndefined();
    expect(['http://10.0.0.1/x', 'http://git.example/x', 'ftp://localhost/x'].map(mayCarryCredentials)).toEqual([false, false, false]);
  });

  it('does not follow a redirect to another host with the token (a push through a redirecting server)', async () => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    // A second "host" on another loopback address: it records what it is sent.
    const seen: IncomingMessage['headers'][] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' });
      res.end();
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.2', r));
    const redirector = createServer((req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}${req.url}` });
      res.end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => elsewhere.close(() => r())), () => new Promise<void>((r) => redirector.close(() => r())));
    work.git('remote', 'set-url', 'origin', `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/acme/widgets.git`);

    const res = await runJson(server, work.dir, RECIPE, ['--push']);
    expect(res.code).toBe(1);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h.authorization === undefined)).toBe(true);
    expect(JSON.stringify(res.report)).not.toContain(server.token);
  });

  it('refuses a GitHub API URL over plain HTTP to another machine before sending anything', async () => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr'], { cwd: work.dir, env: { GITHUB_TOKEN: server.token, GITHUB_API_URL: 'http://api.example.test' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('sends GITHUB_TOKEN only over HTTPS');
    expect(work.git('branch', '--list', 'scion/*')).toBe('');
  });
});

describe('what scion pr prints', () => {
  it('masks a token the server echoes back in an error', async () => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    const [owner, repo] = new URL(remote.url).pathname.replace(/^\/|\.git$/g, '').split('/') as [string, string];
    const github = await startFakeGitHub(owner, repo);
    cleanups.push(() => github.close());
    const env = { GITHUB_TOKEN: server.token, GITHUB_API_URL: github.url };
    expect((await scion(['run', RECIPE, '--repo', work.dir, '--push', '--report', 'r.json'], { cwd: work.dir, env })).code).toBe(0);
    github.intercept = (r) => (r.method === 'POST' ? { status: 422, body: { message: `Validation Failed for token ${String(r.headers.authorization)}` } } : undefined);
    const res = await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: work.dir, env });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Validation Failed for token Bearer ***');
    expect(res.stdout + res.stderr).not.toContain(server.token);
  });
});
