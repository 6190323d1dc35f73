import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePath, ensureClone } from '../../src/campaign/clone-cache.js';
import { parseRepoList, parseTarget, type RepoTarget } from '../../src/campaign/targets.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { useGitServer } from '../support/servers.js';

describe('repository lists', () => {
  const defaults = { cwd: '/work/lists', githubServer: 'https://github.example' };
  it('reads URLs, owner/name, paths, @REF and comments, with a line number for each problem', () => {
    const text = [
      '# the web team',
      'https://git.example.com/acme/web.git',
      'acme/api@release/1.x   # pinned',
      './local-repo@v2',
      '',
      'https://user@git.example.com/acme/tools',
      'git@github.com:acme/ssh.git',
      'not a repo',
      'acme/api',
    ].join('\n');
    const { targets, problems } = parseRepoList(text, defaults);
    expect(targets).toEqual([
      { id: 'git.example.com/acme/web', url: 'https://git.example.com/acme/web.git', path: null, ref: null },
      { id: 'github.example/acme/api', url: 'https://github.example/acme/api.git', path: null, ref: 'release/1.x' },
      { id: '/work/lists/local-repo', url: null, path: '/work/lists/local-repo', ref: 'v2' },
      { id: 'git.example.com/acme/tools', url: 'https://user@git.example.com/acme/tools', path: null, ref: null },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^line 7: .*only http\(s\) URLs/),
      expect.stringMatching(/^line 8: one repository a line/),
      expect.stringMatching(/^line 9: github.example\/acme\/api is listed twice \(first on line 3\)/),
    ]);
  });
  it('keeps the @ of URL credentials', () => {
    expect(parseTarget('https://tok@h.example/o/r@main', defaults)).toMatchObject({ url: 'https://tok@h.example/o/r', ref: 'main' });
  });
});

describe('the clone cache', () => {
  const server = useGitServer();
  let cache: string;
  let upstream: { dir: string; url: string };
  const env = () => ({ ...server.githubEnv(), HOME: '/nonexistent' });
  const target = (): RepoTarget => ({ id: 'local/acme/app', url: upstream.url, path: null, ref: null });

  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'scion-cache-'));
    upstream = server.bare('acme/app.git');
    const src = await gitRepo({ 'a.txt': 'one\n', 'src/b.ts': 'export const b = 1;\n' });
    src.git('commit', '-q', '--allow-empty', '-m', 'second');
    src.git('push', '-q', ...[], upstream.dir, 'main');
    await src.cleanup();
  });
  afterAll(async () => {
    await rm(cache, { recursive: true, force: true });
  });

  it('clones bare, shallow and single-branch, then fetches only what is new', async () => {
    const first = await ensureClone(target(), { cacheDir: cache, env: env() });
    if (!first.ok) throw new Error(first.error.message);
    const { gitDir } = first.value;
    expect(first.value.action).toBe('cloned');
    expect(first.value.sha).toBe(runGit(upstream.dir, 'rev-parse', 'main'));
    expect(runGit(gitDir, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(runGit(gitDir, 'rev-parse', '--is-shallow-repository')).toBe('true');
    expect(runGit(gitDir, 'rev-list', '--count', 'main')).toBe('1');
    runGit(gitDir, 'fsck', '--strict', '--no-dangling');

    const before = server.requests.length;
    const again = await ensureClone(target(), { cacheDir: cache, env: env() });
    expect(again).toMatchObject({ ok: true, value: { action: 'current', sha: first.value.sha } });
    // Nothing new upstream: the ref advertisement only (asked once more with the token after the
    // server's 401), no pack.
    const basic = `Basic ${Buffer.from(`x-access-token:${server.token}`).toString('base64')}`;
    expect(server.requests.slice(before).map((r) => [r.method, r.service, r.status, r.authorization])).toEqual([
      ['GET', 'git-upload-pack', 401, null],
      ['GET', 'git-upload-pack', 200, basic],
    ]);

    // A new upstream commit arrives by fetch; the objects already there stay.
    const work = await gitRepo({});
    work.git('fetch', '-q', upstream.dir, 'main');
    work.git('reset', '-q', '--hard', 'FETCH_HEAD');
    await writeFile(join(work.dir, 'a.txt'), 'two\n');
    work.git('commit', '-qam', 'third');
    work.git('push', '-q', upstream.dir, 'HEAD:main');
    const third = work.head();
    await work.cleanup();
    const packsBefore = await readdir(join(gitDir, 'objects', 'pack'));
    const fetched = await ensureClone(target(), { cacheDir: cache, env: env() });
    expect(fetched).toMatchObject({ ok: true, value: { action: 'fetched', sha: third, gitDir } });
    const packsAfter = await readdir(join(gitDir, 'objects', 'pack'));
    for (const p of packsBefore) expect(packsAfter).toContain(p);
    expect(runGit(gitDir, 'show', `${third}:a.txt`)).toBe('two');
  });

  it('fails with clone-failed, leaving no half clone, when the repository cannot be reached', async () => {
    const missing: RepoTarget = { id: 'local/acme/missing', url: `${server.url}/acme/missing.git`, path: null, ref: null };
    const r = await ensureClone(missing, { cacheDir: cache, env: env() });
    expect(r).toMatchObject({ ok: false, error: { kind: 'clone-failed' } });
    const refused: RepoTarget = { id: 'local/nowhere', url: 'http://127.0.0.1:9/x/y.git', path: null, ref: null };
    expect(await ensureClone(refused, { cacheDir: cache, env: env() })).toMatchObject({ ok: false, error: { kind: 'clone-failed' } });
    const left = await readdir(join(cache, 'local', 'acme'));
    expect(left.filter((f) => f.includes('.tmp-') || f.startsWith('missing'))).toEqual([]);
    expect(clonePath(cache, missing)).toBe(join(cache, 'local', 'acme', 'missing.git'));
  });

  it('refuses a local repository as a usage error, cloning nothing', async () => {
    const local: RepoTarget = { id: '/work/lists/local-repo', url: null, path: '/work/lists/local-repo', ref: null };
    await expect(ensureClone(local, { cacheDir: cache, env: env() })).rejects.toMatchObject({ kind: 'usage' });
    expect(await readdir(cache)).not.toContain('work');
  });

  it('never shows URL credentials in a failure', async () => {
    const withCreds: RepoTarget = {
      id: 'local/acme/creds',
      url: `${server.url.replace('://', '://someone:hunter2-pass@')}/acme/none.git`,
      path: null,
      ref: null,
    };
    const r = await ensureClone(withCreds, { cacheDir: cache, env: { HOME: '/nonexistent', MY_SECRET: 'hunter2-pass' } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('clone-failed');
    expect(r.error.message).not.toContain('hunter2');
    expect(r.error.message).not.toContain('someone');
  });
});
