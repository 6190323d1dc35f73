// The credential rule: which token goes to which origin (scheme, host and port), only over HTTPS or
// to a loopback address, only after a 401 for git's HTTP, never along a redirect to another origin;
// credentials in a URL win for their own origin. Nothing scion prints or publishes holds a token.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardedHttp, type RemoteAccess } from '../../src/git/transport.js';
import { gitCredential, mayCarryCredentials } from '../../src/host/credentials.js';
import { remoteAccess } from '../../src/host/remote.js';
import { githubRemote, makeRemote, runJson } from '../support/git-remote.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { useGitServer } from '../support/servers.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');

const server = useGitServer();
const cleanups = cleanupAfterEach();

/**
 * The Authorization header of each request guardedHttp hands the real client for one call to `url`,
 * against a server that answers 401 until it gets one (and `redirect` hops first, when given).
 */
async function wire(access: RemoteAccess, url: string, o: { redirectTo?: string; method?: string; body?: Uint8Array[] } = {}): Promise<(string | null)[]> {
  const seen: (string | null)[] = [];
  const bodies: string[] = [];
  const inner = {
    request: async (req: { url: string; headers?: Record<string, string>; body?: Iterable<Uint8Array> }) => {
      seen.push(req.headers?.['authorization'] ?? null);
      if (req.body) bodies.push(Buffer.concat([...req.body]).toString());
      const reply = (statusCode: number, headers: Record<string, string> = {}) => ({
        url: req.url,
        method: 'GET',
        statusCode,
        statusMessage: '',
        headers,
        body: [] as Uint8Array[],
      });
      if (o.redirectTo !== undefined && req.url === url) return reply(302, { location: o.redirectTo });
      return req.headers?.['authorization'] ? reply(200) : reply(401, { 'www-authenticate': 'Basic realm="x"' });
    },
  };
  await guardedHttp(access, inner as never).request({
    url,
    method: o.method ?? 'GET',
    headers: { Authorization: 'Basic c3RyYXk6aGVhZGVy' },
    ...(o.body ? { body: o.body } : {}),
  } as never);
  if (o.body) expect(new Set(bodies)).toEqual(new Set([Buffer.concat(o.body).toString()]));
  return seen;
}

const basic = (userinfo: string) => `Basic ${Buffer.from(userinfo).toString('base64')}`;
const offered = (url: string, env: Record<string, string>, configured: Record<string, string> = {}) => gitCredential(url, env, configured).credential;

describe('the credential rule: which token for which origin', () => {
  it("gives GitHub's token only to GitHub's server and API origins (GITHUB_SERVER_URL, GITHUB_API_URL), never to another host, port or scheme", () => {
    const gh = { GITHUB_TOKEN: 'gh-tok' };
    expect(offered('https://github.com/o/r.git', gh)).toMatchObject({
      origin: 'https://github.com',
      source: 'token',
      headers: { authorization: basic('x-access-token:gh-tok') },
    });
    expect(offered('https://git.example/o/r.git', gh)).toBeNull();
    expect(offered('https://github.com:8443/o/r.git', gh)).toBeNull();
    expect(offered('http://github.com/o/r.git', gh)).toBeNull();
    const ghe = { GITHUB_TOKEN: 'gh-tok', GITHUB_SERVER_URL: 'https://ghe.corp', GITHUB_API_URL: 'https://ghe.corp/api/v3' };
    expect(offered('https://ghe.corp/o/r.git', ghe)).toMatchObject({ origin: 'https://ghe.corp', source: 'token' });
    // A GitHub Enterprise token does not go to github.com.
    expect(offered('https://github.com/o/r.git', ghe)).toBeNull();
    // Enterprise named only by its API: the server is the API's origin.
    expect(offered('https://ghe.corp/o/r.git', { GITHUB_TOKEN: 'gh-tok', GITHUB_API_URL: 'https://ghe.corp/api/v3' })).toMatchObject({ source: 'token' });
    // The loopback case the tests use: the token's origin is GITHUB_SERVER_URL's, the port included.
    const loop = { GITHUB_TOKEN: 'gh-tok', GITHUB_SERVER_URL: 'http://127.0.0.1:4001', GITHUB_API_URL: 'http://127.0.0.1:4002' };
    expect(offered('http://127.0.0.1:4001/o/r.git', loop)).toMatchObject({ origin: 'http://127.0.0.1:4001' });
    expect(offered('http://127.0.0.1:4003/o/r.git', loop)).toBeNull();
    expect(offered('http://127.0.0.1:4001/o/r.git', { GITHUB_TOKEN: 'gh-tok', GITHUB_API_URL: 'http://127.0.0.1:4002' })).toBeNull();
  });

  it("gives GitLab's token to GitLab's origins only, GIT_TOKEN to either forge, and nothing in clear text to another machine", () => {
    const both = { GITHUB_TOKEN: 'gh-tok', GITLAB_TOKEN: 'gl-tok' };
    expect(offered('https://gitlab.com/g/p.git', both)).toMatchObject({ headers: { authorization: basic('oauth2:gl-tok') }, variable: 'GITLAB_TOKEN' });
    expect(offered('https://gitlab.corp/g/p.git', { ...both, CI_SERVER_URL: 'https://gitlab.corp' })).toMatchObject({ variable: 'GITLAB_TOKEN' });
    expect(offered('https://gitlab.corp/g/p.git', { ...both, GITLAB_API_URL: 'https://gitlab.corp/api/v4' })).toMatchObject({ variable: 'GITLAB_TOKEN' });
    expect(offered('https://github.com/o/r.git', { GIT_TOKEN: 'any' })).toMatchObject({ variable: 'GIT_TOKEN' });
    expect(offered('https://elsewhere.example/o/r.git', { GIT_TOKEN: 'any' })).toBeNull();
    expect(offered('http://git.example/o/r.git', { GITHUB_TOKEN: 'gh-tok', GITHUB_SERVER_URL: 'http://git.example' })).toBeNull();
    expect(['http://localhost:1/x', 'http://[::1]:1/x', 'http://127.8.9.1/x', 'https://example.com/x'].map(mayCarryCredentials)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['http://10.0.0.1/x', 'http://git.example/x', 'ftp://localhost/x'].map(mayCarryCredentials)).toEqual([false, false, false]);
  });

  it("lets credentials written in the URL win for their own origin, and takes git's extraHeader last", () => {
    const gh = { GITHUB_TOKEN: 'gh-tok' };
    const inUrl = gitCredential('https://me:p%40ss@github.com/o/r.git', gh);
    expect(inUrl.url).toBe('https://github.com/o/r.git');
    expect(inUrl.credential).toMatchObject({ origin: 'https://github.com', source: 'url', headers: { authorization: basic('me:p@ss') } });
    expect(offered('https://me:pw@git.example/o/r.git', {})).toMatchObject({ origin: 'https://git.example', source: 'url' });
    expect(offered('http://me:pw@git.example/o/r.git', {})).toBeNull();
    expect(offered('https://git.example/o/r.git', {}, { Authorization: 'basic abc' })).toMatchObject({
      source: 'config',
      headers: { authorization: 'basic abc' },
    });
    expect(offered('https://github.com/o/r.git', gh, { Authorization: 'basic abc' })).toMatchObject({ source: 'token' });
  });
});

describe("the transport: only after a 401, only to the credential's origin", () => {
  const access = (url: string, env: Record<string, string>): RemoteAccess => remoteAccess(url, env).access;
  const env = { GITHUB_TOKEN: 'tok123', GITHUB_SERVER_URL: 'https://git.example' };

  it('sends nothing on the first request; after the origin answers 401, sends the request again with the credential', async () => {
    expect(await wire(access('https://git.example/a/b.git', env), 'https://git.example/a/b.git/info/refs')).toEqual([null, basic('x-access-token:tok123')]);
    // A POST's body is sent again whole.
    const body = [Buffer.from('0032want '), Buffer.from('abc\n')];
    expect(await wire(access('https://git.example/a/b.git', env), 'https://git.example/a/b.git/git-upload-pack', { method: 'POST', body })).toEqual([
      null,
      basic('x-access-token:tok123'),
    ]);
  });

  it('never sends it to another origin, nor along a redirect to one, nor a header that came from elsewhere', async () => {
    expect(await wire(access('https://git.example/a/b.git', env), 'https://elsewhere.example/a/b.git/info/refs')).toEqual([null]);
    expect(await wire(access('https://other.example/a/b.git', env), 'https://other.example/a/b.git/info/refs')).toEqual([null]);
    expect(
      await wire(access('https://git.example/a/b.git', env), 'https://git.example/a/b.git/info/refs', { redirectTo: 'https://evil.example/a/b.git/info/refs' }),
    ).toEqual([null, null]);
    expect(
      await wire(access('https://git.example/a/b.git', env), 'https://git.example/a/b.git/info/refs', { redirectTo: 'http://git.example/a/b.git/info/refs' }),
    ).toEqual([null, null]);
    expect(
      await wire(access('https://git.example/a/b.git', env), 'https://git.example/a/b.git/info/refs', { redirectTo: 'https://git.example/c/d.git/info/refs' }),
    ).toEqual([null, null, basic('x-access-token:tok123')]);
  });

  it('does not carry the token along a redirect to another host (a push through a redirecting GitHub server)', async () => {
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
    cleanups.push(
      () => new Promise<void>((r) => elsewhere.close(() => r())),
      () => new Promise<void>((r) => redirector.close(() => r())),
    );
    work.git('remote', 'set-url', 'origin', `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/acme/widgets.git`);

    // The redirecting server is GitHub's here: the token is its own, but not the other host's.
    const res = await runJson(server, work.dir, RECIPE, ['--push'], {
      GITHUB_TOKEN: server.token,
      GITHUB_SERVER_URL: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`,
    });
    expect(res.code).toBe(1);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h.authorization === undefined)).toBe(true);
    expect(JSON.stringify(res.report)).not.toContain(server.token);
  });

  it('refuses a GitHub API URL over plain HTTP to another machine before sending anything', async () => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr'], {
      cwd: work.dir,
      env: { GITHUB_TOKEN: server.token, GITHUB_API_URL: 'http://api.example.test' },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('sends GITHUB_TOKEN only over HTTPS');
    expect(work.git('branch', '--list', 'scion/*')).toBe('');
  });
});

describe('what scion pr prints', () => {
  it('masks a token the server echoes back in an error', async () => {
    const { work, github, env } = await githubRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    expect((await scion(['run', RECIPE, '--repo', work.dir, '--push', '--report', 'r.json'], { cwd: work.dir, env })).code).toBe(0);
    github.intercept = (r) =>
      r.method === 'POST' ? { status: 422, body: { message: `Validation Failed for token ${String(r.headers.authorization)}` } } : undefined;
    const res = await scion(['pr', '--report', 'r.json', '--pr-interval', '0'], { cwd: work.dir, env });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Validation Failed for token Bearer ***');
    expect(res.stdout + res.stderr).not.toContain(server.token);
  });
});
