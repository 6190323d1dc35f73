// Discovery ends, whatever the API says: a "next page" that comes back to a page already read, or
// pages that never end, stop the walk with one sentence (exit 1) instead of reading forever.
// Through the CLI, against the fake GitHub and GitLab APIs on loopback.
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGES } from '../../src/campaign/discover-page.js';
import { fakeRepo } from '../support/fake-github.js';
import { fakeProject } from '../publish/fake-gitlab.js';
import { scion } from '../support/cli.js';
import { useFakeGitHub, useFakeGitLab } from '../support/servers.js';

const GIT = 'http://127.0.0.1:9418';
let work: string;
const gh = useFakeGitHub('acme', 'app');
const gl = useFakeGitLab('acme/app');
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'scion-discover-bounds-'));
  writeFileSync(join(work, 'recipe.yaml'), 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const ghEnv = () => ({ GITHUB_TOKEN: 'ghp_boundsToken1', GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: GIT, HOME: '/nonexistent' });
const glEnv = () => ({ GITLAB_TOKEN: 'glpat-boundsToken1', GITLAB_API_URL: gl.apiUrl, CI_SERVER_URL: GIT, HOME: '/nonexistent' });
const plan = (flags: string[], env: Record<string, string>) => scion(['plan', 'recipe.yaml', ...flags, '--cache-dir', 'cache'], { cwd: work, env });
const listings = (requests: readonly { path: string }[], path: string) => requests.filter((r) => r.path === path).length;

describe('a listing whose pages never end', () => {
  // The full cap through the command line: ~25 ms a page, most of it octokit's throttling queue.
  it('GitHub through the CLI: a next page on every page stops after the page cap, exit 1, nothing cloned', async () => {
    gh.intercept = (r) => {
      if (r.path !== '/orgs/acme/repos') return undefined;
      const page = Number(r.query.get('page') ?? 1);
      return { status: 200, headers: { link: `<${gh.url}/orgs/acme/repos?page=${page + 1}>; rel="next"` }, body: [fakeRepo(GIT, `acme/r${page}`)] };
    };
    const r = await scion(['run', 'recipe.yaml', '--github-org', 'acme', '--cache-dir', 'cache-endless', '--report', 'endless.json'], {
      cwd: work,
      env: ghEnv(),
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`GitHub still had a next page after ${MAX_PAGES} pages while listing the repositories of the GitHub organisation "acme"`);
    expect(listings(gh.requests, '/orgs/acme/repos')).toBe(MAX_PAGES);
    expect(r.stderr).not.toContain('cloning');
    expect(existsSync(join(work, 'cache-endless'))).toBe(false);
  }, 120_000);

  it('GitHub: a next page that comes back to a page already read stops at once', async () => {
    gh.intercept = (r) =>
      r.path === '/orgs/acme/repos'
        ? { status: 200, headers: { link: `<${gh.url}/orgs/acme/repos?page=2>; rel="next"` }, body: [fakeRepo(GIT, 'acme/a')] }
        : undefined;
    const r = await plan(['--github-org', 'acme'], ghEnv());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('GitHub pointed its next page back at a page already read');
    expect(listings(gh.requests, '/orgs/acme/repos')).toBe(2);
  });

  it('GitLab: an x-next-page that never ends stops after the page cap, exit 1, nothing cloned; one that repeats stops at once', async () => {
    gl.intercept = (r) => {
      if (!r.path.endsWith('/projects')) return undefined;
      const page = Number(r.query.get('page') ?? 1);
      return { status: 200, headers: { 'x-next-page': String(page + 1) }, body: [fakeProject(GIT, `acme/p${page}`)] };
    };
    const endless = await plan(['--gitlab-group', 'acme'], glEnv());
    expect(endless.code).toBe(1);
    expect(endless.stderr).toContain(`GitLab still had a next page after ${MAX_PAGES} pages`);
    expect(gl.requests.filter((q) => q.path.endsWith('/projects'))).toHaveLength(MAX_PAGES);
    expect(endless.stderr).not.toContain('cloning');

    gl.requests.length = 0;
    gl.intercept = (r) => (r.path.endsWith('/projects') ? { status: 200, headers: { 'x-next-page': '2' }, body: [fakeProject(GIT, 'acme/p')] } : undefined);
    const loop = await plan(['--gitlab-group', 'acme'], glEnv());
    expect(loop.code).toBe(1);
    expect(loop.stderr).toContain('GitLab pointed its next page back at a page already read');
    expect(gl.requests.filter((q) => q.path.endsWith('/projects'))).toHaveLength(2);
  }, 60_000);
});
