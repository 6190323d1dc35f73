// An API that answers an HTML page, JSON cut short, or JSON of the wrong shape (a proxy's error page,
// a misconfigured GITHUB_API_URL) is a host error for that job: kind pr-failed in the report, one
// sentence naming the API, exit 1; never "internal error" after the branches were pushed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import type { Recorded } from '../support/fake-github.js';
import { githubRemote, makeRemote, remotePath } from '../support/git-remote.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeGitLabsAfterEach, useGitServer } from '../support/servers.js';

const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
const HTML = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';

const server = useGitServer();
const cleanups = cleanupAfterEach();
const startFakeGitLab = fakeGitLabsAfterEach();

type Garbage = { status: number; headers?: Record<string, string>; raw: string };
const cases: [string, (r: Recorded) => Garbage | undefined][] = [
  ['an HTML page for every request', () => ({ status: 200, headers: { 'content-type': 'text/html' }, raw: HTML })],
  ['an HTML error page with a 404', () => ({ status: 404, headers: { 'content-type': 'text/html' }, raw: HTML })],
  ['JSON cut short', () => ({ status: 200, raw: '{"number": 1, "html_url": "https://gith' })],
  [
    'JSON of the wrong shape for the pull-request list',
    (r) => (r.method === 'GET' && r.path.endsWith('/pulls') ? { status: 200, raw: '{"message":"ok"}' } : undefined),
  ],
  ['a created pull request without a number', (r) => (r.method === 'POST' && r.path.endsWith('/pulls') ? { status: 201, raw: '{"html_url": 7}' } : undefined)],
];

describe('GitHub answering garbage after the push', () => {
  it.each(cases)('%s: the job fails with pr-failed, the report is written, exit 1', async (_name, garbage) => {
    const { remote, work, github, env } = await githubRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    github.intercept = garbage;
    const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], { cwd: work.dir, env });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    const report = JSON.parse(readFileSync(join(work.dir, 'r.json'), 'utf8')) as RunReport;
    const job = report.jobs[0]!;
    expect(job.pushed?.sent).toBe(true);
    expect(remote.git('rev-parse', 'scion/bump')).toBe(job.head);
    expect(job.status).toBe('failed');
    expect(job.errors.map((e) => e.kind)).toEqual(['pr-failed']);
    expect(job.errors[0]!.message).toMatch(/GitHub/);
    expect(job.errors[0]!.message).toContain('GITHUB_API_URL');
  });
});

describe('GitLab answering garbage after the push', () => {
  it.each([
    ['an HTML page', { status: 200, headers: { 'content-type': 'text/html' }, raw: HTML }],
    ['JSON cut short', { status: 200, raw: '[{"iid": 1, "web_url": ' }],
  ] as const)('%s: pr-failed, the report written, exit 1', async (_name, garbage) => {
    const remote = await makeRemote(server, { 'a.txt': 'v1\n' }, cleanups);
    const work = await remote.clone();
    const gitlab = await startFakeGitLab(remotePath(remote));
    gitlab.intercept = () => ({ ...garbage });
    const res = await scion(['run', RECIPE, '--repo', work.dir, '--push', '--pr', '--pr-interval', '0', '--report', 'r.json'], {
      cwd: work.dir,
      env: { GITLAB_TOKEN: server.token, GITLAB_API_URL: gitlab.apiUrl, CI_SERVER_URL: server.url },
    });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    const report = JSON.parse(readFileSync(join(work.dir, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs[0]!.pushed?.sent).toBe(true);
    expect(report.jobs[0]!.errors.map((e) => e.kind)).toEqual(['pr-failed']);
    expect(report.jobs[0]!.errors[0]!.message).toContain('GITLAB_API_URL');
  });
});
