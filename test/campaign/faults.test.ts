// A campaign's faults each fail their own repository, never the whole run without a report: a
// repository larger than the clone limit, a cache clone damaged on disk, a clone killed half-way
// (its temporary folder), a local path that is not there. Through the
// CLI, against git http-backend on loopback, judged with native git.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePath } from '../../src/campaign/clone-cache.js';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { spawnScion } from '../support/spawn-cli.js';
import { fakeGitHubsRoutedAfterEach, useGitServer } from '../support/servers.js';

const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';

describe('campaign faults', () => {
  const server = useGitServer();
  const startFakeGitHubs = fakeGitHubsRoutedAfterEach();
  let work: string;
  let counter = 0;
  const env = (more: Record<string, string> = {}) => ({ ...server.githubEnv(), HOME: '/nonexistent', ...more });
  const run = (args: string[], more: Record<string, string> = {}) => scion(args, { cwd: work, env: env(more) });
  const report = (file: string) => JSON.parse(readFileSync(join(work, file), 'utf8')) as RunReport;
  const idOf = (url: string) => `${new URL(url).host}${new URL(url).pathname.replace(/\.git$/, '')}`;
  const cloneOf = (cache: string, url: string) => clonePath(join(work, cache), { id: idOf(url), url, path: null, ref: null });

  /** A new repository on the server holding `files`; its URL. */
  async function repo(files: Record<string, string | Uint8Array> = {}): Promise<string> {
    const bare = server.bare(`acme/r${++counter}.git`);
    const src = await gitRepo({ 'src/log.ts': "legacyLog('x');\n", ...files });
    src.git('push', '-q', bare.dir, 'main');
    await src.cleanup();
    return bare.url;
  }
  function list(name: string, ...entries: string[]): string {
    writeFileSync(join(work, name), `${entries.join('\n')}\n`);
    return name;
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-campaign-faults-'));
    writeFileSync(join(work, 'recipe.yaml'), RECIPE);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('a repository larger than the clone limit fails alone with clone-failed naming the limit; nothing of it is left in the cache', async () => {
    const big = await repo({ 'blob.bin': randomBytes(3 << 20) });
    const small = await repo();
    const r = await run(['run', 'recipe.yaml', '--repos', list('big.txt', big, small), '--cache-dir', 'cache-big', '--report', 'big.json'], {
      SCION_CLONE_MAX_BYTES: '1M',
    });
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(1);
    const rep = report('big.json');
    expect(rep.jobs.map((j) => j.status)).toEqual(['failed', 'changed']);
    expect(rep.jobs[0]!.errors[0]).toMatchObject({ kind: 'clone-failed' });
    expect(rep.jobs[0]!.errors[0]!.message).toMatch(/sent more than 1 MiB, the most a clone may download \(SCION_CLONE_MAX_BYTES\)/);
    expect(rep.jobs[0]!.errors[0]!.hint).toContain('Raise SCION_CLONE_MAX_BYTES');
    // No clone, no temporary folder, no lock of it is left.
    const clone = cloneOf('cache-big', big);
    expect(readdirSync(dirname(clone)).filter((f) => f.startsWith(basename(clone)))).toEqual([]);

    // Raised, the same repository clones.
    const raised = await run(['run', 'recipe.yaml', '--repos', 'big.txt', '--cache-dir', 'cache-big', '--json'], { SCION_CLONE_MAX_BYTES: '64M' });
    expect(raised.code, raised.stderr).toBe(0);
    // A limit scion cannot read is bad usage: exit 2, nothing cloned.
    const bad = await run(['run', 'recipe.yaml', '--repos', 'big.txt', '--cache-dir', 'cache-never', '--report', 'never.json'], {
      SCION_CLONE_MAX_BYTES: 'lots',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SCION_CLONE_MAX_BYTES');
    expect(existsSync(join(work, 'cache-never'))).toBe(false);
  });

  it.each([
    [
      'a pack cut short',
      (dir: string) => {
        const packs = join(dir, 'objects', 'pack');
        for (const f of readdirSync(packs)) if (f.endsWith('.pack')) truncateSync(join(packs, f), 100);
      },
    ],
    ['no objects at all', (dir: string) => rmSync(join(dir, 'objects'), { recursive: true })],
    ['no HEAD', (dir: string) => rmSync(join(dir, 'HEAD'))],
    ['a HEAD that names nothing', (dir: string) => writeFileSync(join(dir, 'HEAD'), 'garbage\n')],
  ])('a cache clone with %s is cloned anew and says so; the other repositories go on, the report is written', async (_name, damage) => {
    const a = await repo();
    const b = await repo();
    const cache = `cache-damaged-${counter}`;
    const file = list(`damaged-${counter}.txt`, a, b);
    const first = await run(['run', 'recipe.yaml', '--repos', file, '--cache-dir', cache, '--json']);
    expect(first.code, first.stderr).toBe(0);
    damage(cloneOf(cache, a));

    const again = await run(['run', 'recipe.yaml', '--repos', file, '--cache-dir', cache, '--report', `damaged-${counter}.json`]);
    expect(again.stderr).not.toContain('internal error');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${idOf(a)}: the cached clone was damaged`);
    expect(report(`damaged-${counter}.json`).jobs.map((j) => j.status)).toEqual(['changed', 'unchanged']);
    runGit(cloneOf(cache, a), 'fsck', '--strict');
    expect(runGit(cloneOf(cache, a), 'show', 'scion/new-log:src/log.ts')).toBe("log('x');");

    // The commands that read a campaign report find the damage too, and clone anew.
    damage(cloneOf(cache, a));
    const name = (url: string) => new URL(url).pathname.replace(/^\/acme\/|\.git$/g, '');
    const api = await startFakeGitHubs('acme', [name(a), name(b)]);
    const status = await run(['status', '--report', `damaged-${counter}.json`, '--cache-dir', cache, '--json'], { GITHUB_API_URL: api.url });
    expect(status.stderr).not.toContain('internal error');
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { repo: string }[]).map((row) => row.repo)).toEqual([idOf(a), idOf(b)]);
    runGit(cloneOf(cache, a), 'fsck', '--strict');
  });

  it('a clone killed half-way leaves a temporary folder that the next run removes', async () => {
    const url = await repo();
    const file = list('killed.txt', url);
    server.stall = (q) => q.method === 'POST' && q.path.startsWith(new URL(url).pathname);
    const p = spawnScion(['run', 'recipe.yaml', '--repos', file, '--cache-dir', 'cache-killed'], { cwd: work, env: env() });
    const parent = dirname(cloneOf('cache-killed', url));
    const temp = () => (existsSync(parent) ? readdirSync(parent).filter((f) => f.includes('.tmp-')) : []);
    // The clone is under way (its ref advertisement asked, its pack request held) when it is killed.
    await p.waitFor(`cloning ${idOf(url)}`);
    while (!server.requests.some((q) => q.status === 0 && q.path.startsWith(new URL(url).pathname))) await new Promise((r) => setTimeout(r, 25));
    p.child.kill('SIGKILL');
    await p.done;
    server.stall = undefined;
    expect(temp()).toHaveLength(1);

    const next = await run(['run', 'recipe.yaml', '--repos', file, '--cache-dir', 'cache-killed', '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(temp()).toEqual([]);
    runGit(cloneOf('cache-killed', url), 'fsck', '--strict');
  }, 30_000);

  it('a local path that is not there, or is no repository, fails its own jobs (clone-failed); the others run, the report is written, exit 1', async () => {
    const url = await repo();
    const local = await gitRepo({ 'src/log.ts': "legacyLog('local');\n" });
    const plain = await mkdtemp(join(tmpdir(), 'scion-not-a-repo-'));
    writeFileSync(join(work, 'a-file.txt'), 'not a folder\n');
    try {
      const file = list('missing.txt', url, './nowhere', local.dir, '/also/not/there', plain, './a-file.txt');
      const r = await run(['run', 'recipe.yaml', '--repos', file, '--cache-dir', 'cache-missing', '--report', 'missing.json']);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code, r.stderr).toBe(1);
      const rep = report('missing.json');
      expect(rep.jobs.map((j) => [j.repo, j.status])).toEqual([
        [idOf(url), 'changed'],
        [join(work, 'nowhere'), 'failed'],
        [local.dir, 'changed'],
        ['/also/not/there', 'failed'],
        [plain, 'failed'],
        [join(work, 'a-file.txt'), 'failed'],
      ]);
      const errors = (k: number) => rep.jobs[k]!.errors;
      for (const k of [1, 3, 4, 5]) expect(errors(k).map((e) => e.kind)).toEqual(['clone-failed']);
      expect(errors(1)[0]!.message).toContain(`${join(work, 'nowhere')} does not exist`);
      expect(errors(3)[0]!.message).toContain('/also/not/there does not exist');
      expect(errors(4)[0]!.message).toContain(`${plain} is not a git repository`);
      expect(errors(5)[0]!.message).toContain('is a file, not a repository');
      // Each is said on stderr as it is reached, naming the path.
      expect(r.stderr).toContain(`${join(work, 'nowhere')}: ${join(work, 'nowhere')} does not exist`);
      // The repositories that exist got their branches, judged by native git.
      expect(runGit(cloneOf('cache-missing', url), 'show', 'scion/new-log:src/log.ts')).toBe("log('x');");
      runGit(cloneOf('cache-missing', url), 'fsck', '--strict');
      expect(local.git('show', 'scion/new-log:src/log.ts')).toBe("log('local');");
      expect(local.git('status', '--porcelain')).toBe('');
      // Nothing was made where the paths pointed.
      expect(existsSync(join(work, 'nowhere'))).toBe(false);
      expect(readdirSync(plain)).toEqual([]);

      // Publishing too: the missing path is no reason to stop before the first clone; the others are pushed.
      const pushUrl = await repo();
      const pushed = await run([
        'run',
        'recipe.yaml',
        '--repos',
        list('push-missing.txt', './nowhere', pushUrl),
        '--cache-dir',
        'cache-missing',
        '--push',
        '--report',
        'push-missing.json',
      ]);
      expect(pushed.code, pushed.stderr).toBe(1);
      const pushRep = report('push-missing.json');
      expect(pushRep.jobs.map((j) => [j.status, j.errors[0]?.kind ?? null])).toEqual([
        ['failed', 'clone-failed'],
        ['changed', null],
      ]);
      expect(pushRep.jobs[1]!.pushed).toMatchObject({ sent: true });
      expect(runGit(join(server.root, new URL(pushUrl).pathname), 'rev-parse', 'refs/heads/scion/new-log')).toBe(pushRep.jobs[1]!.head);

      // A line written wrong is still a list problem: exit 2 naming FILE:LINE, nothing run, no report.
      const bad = list('bad-line.txt', url, './nowhere', 'not a repository');
      const r2 = await run(['run', 'recipe.yaml', '--repos', bad, '--cache-dir', 'cache-bad-line', '--report', 'bad-line.json']);
      expect(r2.code).toBe(2);
      expect(r2.stderr).toMatch(/bad-line\.txt:3: one repository a line/);
      expect(r2.stderr).not.toContain('nowhere');
      expect(existsSync(join(work, 'cache-bad-line'))).toBe(false);
      expect(existsSync(join(work, 'bad-line.json'))).toBe(false);
    } finally {
      await local.cleanup();
      await rm(plain, { recursive: true, force: true });
    }
  });

  it('a repository that lacks the base fails its own jobs; the others run and the report is written', async () => {
    const withTag = await gitRepo({ 'src/log.ts': "legacyLog('a');\n" });
    const without = await gitRepo({ 'src/log.ts': "legacyLog('b');\n" });
    try {
      withTag.git('tag', 'v1');
      const file = list('base.txt', without.dir, withTag.dir);
      const r = await run(['run', 'recipe.yaml', '--repos', file, '--base', 'v1', '--report', 'base.json']);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code, r.stderr).toBe(1);
      const rep = report('base.json');
      expect(rep.jobs.map((j) => [j.repo, j.status])).toEqual([
        [without.dir, 'failed'],
        [withTag.dir, 'changed'],
      ]);
      expect(rep.jobs[0]!.errors[0]!.message).toContain('v1');
      expect(withTag.git('show', 'scion/new-log:src/log.ts')).toBe("log('a');");
    } finally {
      await withTag.cleanup();
      await without.cleanup();
    }
  });
});
