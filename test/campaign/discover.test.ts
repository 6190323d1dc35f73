// Repository discovery against the fake GitHub and GitLab APIs on 127.0.0.1, through the
// real fetch and octokit: every page read, forks/archived/topics as asked, the clone URLs a server
// gives held to the rules of a user's, and the failures as one sentence without the token.
import { describe, expect, it } from 'vitest';
import { discoverTargets, type DiscoverQuery } from '../../src/campaign/discover.js';
import { UsageError } from '../../src/errors.js';
import { HostError } from '../../src/host/types.js';
import { fakeRepo } from '../support/fake-github.js';
import { fakeProject } from '../publish/fake-gitlab.js';
import { useFakeGitHub, useFakeGitLab } from '../support/servers.js';

const TOKEN = 'ghp_secretDiscoveryToken';
const GL_TOKEN = 'glpat-secretDiscoveryToken';
// Clones live on the API's host (127.0.0.1), another port: the git server of a real campaign, named
// as the forge's server (GITHUB_SERVER_URL, CI_SERVER_URL) as users name theirs.
const GIT = 'http://127.0.0.1:9418';
const GL_GIT = 'http://127.0.0.1:8929';

const gh = useFakeGitHub('acme', 'app');
const gl = useFakeGitLab('acme/app');

const ghEnv = () => ({ GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: GIT });
const glEnv = () => ({ GITLAB_TOKEN: GL_TOKEN, GITLAB_API_URL: gl.apiUrl, CI_SERVER_URL: GL_GIT });
const names = (n: number, prefix = 'repo') => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);

/** Each wait discovery made before a retry (recorded, not waited): its length and the requests seen by then. */
let waits: { ms: number; github: number; gitlab: number }[] = [];

async function discover(q: DiscoverQuery, env: Record<string, string | undefined>) {
  const lines: string[] = [];
  waits = [];
  const sleep = async (ms: number) => void waits.push({ ms, github: gh.requests.length, gitlab: gl.requests.length });
  const targets = await discoverTargets(q, { env, say: (l) => lines.push(l), sleep });
  return { targets, lines };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error;
}

describe('discoverTargets: a GitHub organisation', () => {
  it('reads every page (250 repositories, 3 pages) and gives sorted targets with the default branch as ref', async () => {
    // Listed newest-name-first so the result's order is discovery's own sort, not the server's.
    gh.orgs.set(
      'acme',
      names(250)
        .reverse()
        .map((n, i) => fakeRepo(GIT, `acme/${n}`, i === 0 ? { default_branch: 'trunk' } : {})),
    );
    const { targets, lines } = await discover({ githubOrg: 'acme' }, ghEnv());
    expect(targets).toHaveLength(250);
    expect(targets[0]).toEqual({ id: '127.0.0.1:9418/acme/repo-000', url: `${GIT}/acme/repo-000.git`, path: null, ref: 'main' });
    expect(targets.at(-1)).toEqual({ id: '127.0.0.1:9418/acme/repo-249', url: `${GIT}/acme/repo-249.git`, path: null, ref: 'trunk' });
    expect(targets.map((t) => t.id)).toEqual([...targets.map((t) => t.id)].sort());
    const calls = gh.requests.filter((r) => r.path === '/orgs/acme/repos');
    expect(calls).toHaveLength(3);
    expect(calls.map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
    expect(calls[0]!.query.get('type')).toBe('all');
    expect(calls[0]!.query.get('per_page')).toBe('100');
    for (const r of calls) expect(r.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(lines).toEqual(['GitHub organisation acme: 250 of 250 repositories.']);
  });

  it('leaves out forks and archived repositories unless asked, and says how many', async () => {
    gh.orgs.set('acme', [
      fakeRepo(GIT, 'acme/app'),
      fakeRepo(GIT, 'acme/fork', { fork: true }),
      fakeRepo(GIT, 'acme/old', { archived: true }),
      fakeRepo(GIT, 'acme/old-fork', { fork: true, archived: true }),
    ]);
    const plain = await discover({ githubOrg: 'acme' }, ghEnv());
    expect(plain.targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/app']);
    expect(plain.lines.join('\n')).toMatch(
      /acme: 1 of 4 repositories; left out 2 forks \(include them with --include-forks\), 1 archived \(include them with --include-archived\)/,
    );
    const forks = await discover({ githubOrg: 'acme', includeForks: true }, ghEnv());
    expect(forks.targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/app', '127.0.0.1:9418/acme/fork']);
    const all = await discover({ githubOrg: 'acme', includeForks: true, includeArchived: true }, ghEnv());
    expect(all.targets.map((t) => t.id)).toEqual(['app', 'fork', 'old', 'old-fork'].map((n) => `127.0.0.1:9418/acme/${n}`));
  });

  it('keeps only the repositories with the topic', async () => {
    gh.orgs.set('acme', [
      fakeRepo(GIT, 'acme/web', { topics: ['frontend', 'codemod'] }),
      fakeRepo(GIT, 'acme/api', { topics: ['backend'] }),
      fakeRepo(GIT, 'acme/ui', { topics: ['Frontend'] }),
      fakeRepo(GIT, 'acme/bare', { topics: undefined }),
    ]);
    const { targets, lines } = await discover({ githubOrg: 'acme', topic: 'frontend' }, ghEnv());
    expect(targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/ui', '127.0.0.1:9418/acme/web']);
    expect(lines.join('\n')).toMatch(/2 of 4 repositories; left out 2 without the topic "frontend"/);
  });

  it('leaves out disabled and empty repositories, a line for each', async () => {
    gh.orgs.set('acme', [
      fakeRepo(GIT, 'acme/app'),
      fakeRepo(GIT, 'acme/locked', { disabled: true }),
      fakeRepo(GIT, 'acme/new', { size: 0 }),
      fakeRepo(GIT, 'acme/nothing', { default_branch: null }),
    ]);
    const { targets, lines } = await discover({ githubOrg: 'acme' }, ghEnv());
    expect(targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/app']);
    expect(lines).toEqual(
      expect.arrayContaining([
        'acme/locked: left out: GitHub has disabled the repository.',
        'acme/new: left out: the repository is empty (no commits).',
        'acme/nothing: left out: the repository is empty (no commits, no default branch).',
      ]),
    );
  });

  it('refuses clone URLs a user could not give (credentials, ssh, another host, an @REF), each with a line', async () => {
    gh.orgs.set('acme', [
      fakeRepo(GIT, 'acme/app'),
      fakeRepo(GIT, 'acme/creds', { clone_url: 'http://x-access-token:leaked@127.0.0.1:9418/acme/creds.git' }),
      fakeRepo(GIT, 'acme/ssh', { clone_url: 'git@127.0.0.1:acme/ssh.git' }),
      fakeRepo(GIT, 'acme/file', { clone_url: 'file:///etc/passwd' }),
      fakeRepo(GIT, 'acme/away', { clone_url: 'https://evil.example/acme/away.git' }),
      fakeRepo(GIT, 'acme/ref', { clone_url: `${GIT}/acme/ref.git@evil` }),
      fakeRepo(GIT, 'acme/none', { clone_url: null }),
      fakeRepo(GIT, 'acme/short', { clone_url: 'acme/short' }),
      fakeRepo(GIT, 'acme/path', { clone_url: '/srv/git/acme/path.git' }),
      fakeRepo(GIT, 'acme/branch', { default_branch: 'main..x' }),
    ]);
    const { targets, lines } = await discover({ githubOrg: 'acme' }, ghEnv());
    expect(targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/app']);
    const said = lines.join('\n');
    expect(said).toMatch(/^acme\/creds: left out: its clone URL http:\/\/127\.0\.0\.1:9418\/acme\/creds\.git holds credentials/m);
    expect(said).not.toContain('leaked');
    expect(said).toMatch(/^acme\/ssh: left out: its clone URL is refused \(.*only http\(s\) URLs/m);
    expect(said).toMatch(/^acme\/file: left out: its clone URL is refused \(.*only http\(s\) URLs/m);
    expect(said).toMatch(
      /^acme\/away: left out: its clone URL https:\/\/evil\.example\/acme\/away\.git is not on the server the API belongs to \(http:\/\/127\.0\.0\.1:9418\)/m,
    );
    expect(said).toMatch(/^acme\/ref: left out: its clone URL .* is not a plain repository URL/m);
    expect(said).toMatch(/^acme\/none: left out: the server gave no clone URL/m);
    expect(said).toMatch(/^acme\/short: left out: its clone URL "acme\/short" is not an http\(s\) URL/m);
    expect(said).toMatch(/^acme\/path: left out: its clone URL "\/srv\/git\/acme\/path\.git" is not an http\(s\) URL/m);
    expect(said).toMatch(/^acme\/branch: left out: its default branch "main\.\.x" is not a valid branch name/m);
  });

  it('retries a 403 secondary rate limit after its Retry-After (plugin-throttling) and still reads every page', async () => {
    gh.orgs.set(
      'acme',
      names(150).map((n) => fakeRepo(GIT, `acme/${n}`)),
    );
    let limited = 0;
    gh.intercept = (r) =>
      r.query.get('page') === '2' && limited++ === 0
        ? {
            status: 403,
            headers: { 'retry-after': '30' },
            body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
          }
        : undefined;
    const { targets } = await discover({ githubOrg: 'acme' }, ghEnv());
    expect(targets).toHaveLength(150);
    expect(gh.requests.map((r) => r.query.get('page'))).toEqual([null, '2', '2']);
    // 30 s, after the refused page and before it is asked again.
    expect(waits).toEqual([{ ms: 30_000, github: 2, gitlab: 0 }]);
  });

  it('says in one sentence that the organisation was not found, naming it', async () => {
    const e = await rejection(discover({ githubOrg: 'no-such-org' }, ghEnv()));
    expect(e).toBeInstanceOf(HostError);
    expect((e as HostError).status).toBe(404);
    const said = 'GitHub answered 404 while listing the repositories of the GitHub organisation "no-such-org": ';
    expect(e.message.startsWith(`${said}there is no organisation "no-such-org", or GITHUB_TOKEN cannot see it`), e.message).toBe(true);
    expect(e.message).not.toContain(TOKEN);
  });

  it('never puts the token in an error, even when the server echoes it', async () => {
    gh.intercept = (r) => ({ status: 401, body: { message: `Bad credentials: ${String(r.headers['authorization'])}` } });
    const e = await rejection(discover({ githubOrg: 'acme' }, ghEnv()));
    expect(e).toBeInstanceOf(HostError);
    expect(e.message).toMatch(
      /^GitHub rejected the token while listing the repositories of the GitHub organisation "acme" \(401 Bad credentials: Bearer \*\*\*\); set GITHUB_TOKEN/,
    );
    expect(e.message).not.toContain(TOKEN);
  });

  it('does not follow a next page on another server', async () => {
    gh.orgs.set('acme', [fakeRepo(GIT, 'acme/app')]);
    gh.intercept = (r) =>
      r.path === '/orgs/acme/repos'
        ? { status: 200, headers: { link: '<https://evil.example/orgs/acme/repos?page=2>; rel="next"' }, body: [fakeRepo(GIT, 'acme/app')] }
        : undefined;
    const e = await rejection(discover({ githubOrg: 'acme' }, ghEnv()));
    expect(e).toBeInstanceOf(HostError);
    expect(e.message).toMatch(/pointed its next page at another server \(https:\/\/evil\.example\)/);
    expect(gh.requests).toHaveLength(1);
  });
});

describe('discoverTargets: a GitHub search', () => {
  it('reads every page of the results, keeping forks and archived ones the query asked for', async () => {
    const found = names(150, 'lib').map((n, i) => fakeRepo(GIT, `acme/${n}`, { fork: i === 3, archived: i === 4 }));
    gh.search = (q) => (q === 'org:acme language:typescript fork:true' ? found : []);
    const { targets, lines } = await discover({ githubSearch: 'org:acme language:typescript fork:true' }, ghEnv());
    expect(targets).toHaveLength(150);
    expect(targets.map((t) => t.id)).toContain('127.0.0.1:9418/acme/lib-003');
    expect(targets.map((t) => t.id)).toContain('127.0.0.1:9418/acme/lib-004');
    const calls = gh.requests.filter((r) => r.path === '/search/repositories');
    expect(calls.map((r) => [r.query.get('q'), r.query.get('page')])).toEqual([
      ['org:acme language:typescript fork:true', null],
      ['org:acme language:typescript fork:true', '2'],
    ]);
    for (const r of calls) expect(r.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(lines).toEqual(['GitHub search "org:acme language:typescript fork:true": 150 of 150 repositories.']);
  });

  it('says so when GitHub found more than the 1000 results it gives', async () => {
    gh.search = () => [fakeRepo(GIT, 'acme/a'), fakeRepo(GIT, 'acme/b')];
    gh.searchTotal = 4321;
    const { targets, lines } = await discover({ githubSearch: 'language:go' }, ghEnv());
    expect(targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/a', '127.0.0.1:9418/acme/b']);
    expect(lines[0]).toMatch(/^GitHub found 4321 repositories for "language:go" but gives only the first 1000; narrow the search/);
  });

  it('joins an organisation and a search into one sorted list without duplicates', async () => {
    gh.orgs.set('acme', [fakeRepo(GIT, 'acme/web'), fakeRepo(GIT, 'acme/api')]);
    gh.search = () => [fakeRepo(GIT, 'other/tool'), fakeRepo(GIT, 'acme/web')];
    const { targets } = await discover({ githubOrg: 'acme', githubSearch: 'topic:codemod' }, ghEnv());
    expect(targets.map((t) => t.id)).toEqual(['127.0.0.1:9418/acme/api', '127.0.0.1:9418/acme/web', '127.0.0.1:9418/other/tool']);
  });

  it('explains a query GitHub cannot run', async () => {
    gh.intercept = (r) =>
      r.path === '/search/repositories'
        ? { status: 422, body: { message: 'Validation Failed', errors: [{ message: 'The search contains only logical operators' }] } }
        : undefined;
    const e = await rejection(discover({ githubSearch: 'AND OR' }, ghEnv()));
    const said = 'GitHub could not run the search while searching GitHub repositories for "AND OR" ';
    expect(e.message.startsWith(`${said}(422 Validation Failed: The search contains only logical operators); check the query`), e.message).toBe(true);
  });
});

describe('discoverTargets: a GitLab group', () => {
  it('reads the group and its subgroups over every page (x-next-page), leaving out forks and archived projects', async () => {
    gl.groups.set(
      'acme',
      names(120, 'svc').map((n) => fakeProject(GL_GIT, `acme/${n}`)),
    );
    gl.groups.set('acme/platform', [
      ...names(100, 'lib').map((n) => fakeProject(GL_GIT, `acme/platform/${n}`)),
      fakeProject(GL_GIT, 'acme/platform/forked', { forked_from_project: { id: 1 } }),
      fakeProject(GL_GIT, 'acme/platform/old', { archived: true }),
    ]);
    gl.groups.set('acme/platform/deep', [fakeProject(GL_GIT, 'acme/platform/deep/core', { default_branch: 'develop' })]);
    gl.groups.set('acmeother', [fakeProject(GL_GIT, 'acmeother/x')]);
    const { targets, lines } = await discover({ gitlabGroup: 'acme' }, glEnv());
    expect(targets).toHaveLength(221);
    expect(targets.find((t) => t.id === '127.0.0.1:8929/acme/platform/deep/core')).toEqual({
      id: '127.0.0.1:8929/acme/platform/deep/core',
      url: `${GL_GIT}/acme/platform/deep/core.git`,
      path: null,
      ref: 'develop',
    });
    expect(targets.map((t) => t.id)).not.toContain('127.0.0.1:8929/acme/platform/forked');
    expect(targets.map((t) => t.id)).not.toContain('127.0.0.1:8929/acme/platform/old');
    const calls = gl.requests.filter((r) => r.path === '/api/v4/groups/acme/projects');
    expect(calls.map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
    expect(calls[0]!.query.get('include_subgroups')).toBe('true');
    expect(calls[0]!.query.get('archived')).toBe('false');
    expect(calls[0]!.query.get('per_page')).toBe('100');
    for (const r of calls) expect(r.headers['private-token']).toBe(GL_TOKEN);
    expect(lines.at(-1)).toBe('GitLab group acme: 221 of 222 projects; left out 1 fork (include them with --include-forks).');
  });

  it('includes forks and archived projects when asked, and follows a Link header; a subgroup by its full path', async () => {
    gl.paging = 'link';
    gl.groups.set('acme/platform', [
      ...names(130, 'lib').map((n) => fakeProject(GL_GIT, `acme/platform/${n}`)),
      fakeProject(GL_GIT, 'acme/platform/forked', { forked_from_project: { id: 1 } }),
      fakeProject(GL_GIT, 'acme/platform/old', { archived: true }),
      fakeProject(GL_GIT, 'acme/platform/empty', { empty_repo: true, default_branch: null }),
    ]);
    const { targets, lines } = await discover({ gitlabGroup: 'acme/platform', includeForks: true, includeArchived: true }, glEnv());
    expect(targets).toHaveLength(132);
    expect(targets.map((t) => t.id)).toEqual(expect.arrayContaining(['127.0.0.1:8929/acme/platform/forked', '127.0.0.1:8929/acme/platform/old']));
    expect(lines).toContain('acme/platform/empty: left out: the repository is empty (no default branch).');
    const calls = gl.requests.filter((r) => r.path === '/api/v4/groups/acme%2Fplatform/projects');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.query.has('archived')).toBe(false);
  });

  it('waits out a 429 with Retry-After and goes on to the next page', async () => {
    gl.groups.set(
      'acme',
      names(150, 'svc').map((n) => fakeProject(GL_GIT, `acme/${n}`)),
    );
    let limited = 0;
    gl.intercept = (r) =>
      r.query.get('page') === '2' && limited++ === 0
        ? { status: 429, headers: { 'retry-after': '20' }, body: { message: '429 Too Many Requests' } }
        : undefined;
    const { targets } = await discover({ gitlabGroup: 'acme' }, glEnv());
    expect(targets).toHaveLength(150);
    expect(gl.requests.filter((r) => r.query.get('page') === '2')).toHaveLength(2);
    expect(waits).toEqual([{ ms: 20_000, github: 0, gitlab: gl.requests.findIndex((r) => r.query.get('page') === '2') + 1 }]);
  });

  it('keeps only projects with the topic', async () => {
    gl.groups.set('acme', [
      fakeProject(GL_GIT, 'acme/a', { topics: ['codemod'] }),
      fakeProject(GL_GIT, 'acme/b'),
      fakeProject(GL_GIT, 'acme/c', { topics: undefined, tag_list: ['codemod'] }),
    ]);
    const { targets } = await discover({ gitlabGroup: 'acme', topic: 'codemod' }, glEnv());
    expect(targets.map((t) => t.id)).toEqual(['127.0.0.1:8929/acme/a', '127.0.0.1:8929/acme/c']);
  });

  it('says in one sentence that the group was not found, without the token', async () => {
    const e = await rejection(discover({ gitlabGroup: 'nowhere' }, glEnv()));
    expect(e).toBeInstanceOf(HostError);
    expect(e.message).toMatch(
      /^GitLab answered 404 while listing the projects of the GitLab group "nowhere": there is no group "nowhere", or GITLAB_TOKEN cannot see it/,
    );
    expect(e.message).not.toContain(GL_TOKEN);
  });

  it('takes the API from CI_SERVER_URL in GitLab CI, where the server serves both the API and the clones', async () => {
    const server = gl.apiUrl.replace(/\/api\/v4$/, '');
    gl.groups.set('acme', [fakeProject(server, 'acme/a'), fakeProject(GL_GIT, 'acme/b')]);
    const { targets, lines } = await discover({ gitlabGroup: 'acme' }, { GITLAB_TOKEN: GL_TOKEN, CI_SERVER_URL: server });
    expect(targets.map((t) => t.id)).toEqual([`${new URL(server).host}/acme/a`]);
    expect(lines).toContain(
      `acme/b: left out: its clone URL ${GL_GIT}/acme/b.git is not on the server the API belongs to ` +
        `(${server}); set CI_SERVER_URL (or GITLAB_API_URL) if ${GL_GIT} is your server.`,
    );
  });
});

describe('discoverTargets: before any request', () => {
  it('a missing token is a UsageError naming the variable, and nothing is sent', async () => {
    const github = await rejection(discover({ githubOrg: 'acme' }, { GITHUB_API_URL: gh.url }));
    expect(github).toBeInstanceOf(UsageError);
    expect(github.message).toMatch(/^No GitHub token: set GITHUB_TOKEN \(or GIT_TOKEN\)/);
    const search = await rejection(discover({ githubSearch: 'org:acme' }, { GITHUB_API_URL: gh.url, GITLAB_TOKEN: GL_TOKEN }));
    expect(search).toBeInstanceOf(UsageError);
    const gitlab = await rejection(discover({ gitlabGroup: 'acme' }, { GITLAB_API_URL: gl.apiUrl, GITHUB_TOKEN: TOKEN }));
    expect(gitlab).toBeInstanceOf(UsageError);
    expect(gitlab.message).toMatch(/^No GitLab token: set GITLAB_TOKEN \(or GIT_TOKEN\)/);
    // Both asked, one token missing: neither host is asked anything.
    const both = await rejection(discover({ githubOrg: 'acme', gitlabGroup: 'acme' }, { ...ghEnv(), GITLAB_API_URL: gl.apiUrl }));
    expect(both).toBeInstanceOf(UsageError);
    expect(gh.requests).toHaveLength(0);
    expect(gl.requests).toHaveLength(0);
  });

  it('GIT_TOKEN serves either host', async () => {
    gh.orgs.set('acme', [fakeRepo(GIT, 'acme/app')]);
    const { targets } = await discover({ githubOrg: 'acme' }, { GIT_TOKEN: 'shared-token', GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: GIT });
    expect(targets).toHaveLength(1);
    expect(gh.requests[0]!.headers['authorization']).toBe('Bearer shared-token');
  });

  it('refuses to send a token to an API over plain HTTP on another machine', async () => {
    let sent = 0;
    const spy: typeof fetch = async () => {
      sent++;
      return new Response('[]');
    };
    const e = await rejection(
      discoverTargets({ githubOrg: 'acme' }, { env: { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: 'http://ghe.example/api/v3' }, fetch: spy }),
    );
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toMatch(/GITHUB_API_URL is http:\/\/ghe\.example\/api\/v3, and scion sends GITHUB_TOKEN only over HTTPS/);
    const g = await rejection(
      discoverTargets({ gitlabGroup: 'acme' }, { env: { GITLAB_TOKEN: GL_TOKEN, GITLAB_API_URL: 'http://gitlab.example/api/v4' }, fetch: spy }),
    );
    expect(g).toBeInstanceOf(UsageError);
    expect(sent).toBe(0);
  });

  it('asks for something to discover', async () => {
    expect(await rejection(discover({}, ghEnv()))).toBeInstanceOf(UsageError);
    expect(await rejection(discover({ githubOrg: ' ' }, ghEnv()))).toBeInstanceOf(UsageError);
    expect(gh.requests).toHaveLength(0);
  });
});
