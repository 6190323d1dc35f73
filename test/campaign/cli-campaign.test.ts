// A campaign through the CLI: bare repositories behind git http-backend on loopback (and
// one URL where nothing answers), a repository list, the clone cache, shards, pushes to each
// repository's own remote, pull requests on each repository's own host, and the commands that read
// a campaign report. Native git judges every result.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePath } from '../../src/campaign/clone-cache.js';
import { main } from '../../src/cli/main.js';
import type { RunReport } from '../../src/model/types.js';
import { fakeRepo } from '../support/fake-github.js';
import { scion } from '../support/cli.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { spawnScion } from '../support/spawn-cli.js';
import { fakeGitHubsAfterEach, useFakeGitHubs, useGitServer } from '../support/servers.js';

const NAMES = ['alpha', 'beta', 'gamma'];
const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';

describe('scion run --repos: a campaign through the CLI', () => {
  const server = useGitServer();
  const startFakeGitHub = fakeGitHubsAfterEach();
  let work: string;
  let cache: string;
  const bare: Record<string, { dir: string; url: string }> = {};
  const id = (name: string) => `${new URL(server.url).host}/acme/${name}`;
  const env = (more: Record<string, string> = {}) => ({ ...server.githubEnv(), HOME: '/nonexistent', ...more });
  const run = (args: string[], more: Record<string, string> = {}) => scion(args, { cwd: work, env: env(more) });
  const readReport = (file: string) => JSON.parse(readFileSync(join(work, file), 'utf8')) as RunReport;
  const cloneOf = (name: string) => clonePath(cache, { id: id(name), url: '', path: null, ref: null });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-cli-campaign-'));
    cache = join(work, 'cache');
    for (const name of NAMES) {
      bare[name] = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/log.ts': `export const ${name} = legacyLog('${name}');\n`, 'README.md': `# ${name}\n` });
      if (name === 'beta') {
        // beta's list line pins @release: a branch with other content.
        src.git('checkout', '-q', '-b', 'release');
        writeFileSync(join(src.dir, 'src/log.ts'), `export const beta = legacyLog('release');\n`);
        src.git('commit', '-qam', 'release');
        src.git('push', '-q', bare[name]!.dir, 'release');
        src.git('checkout', '-q', 'main');
      }
      src.git('push', '-q', bare[name]!.dir, 'main');
      await src.cleanup();
    }
    writeFileSync(join(work, 'recipe.yaml'), RECIPE);
    writeFileSync(
      join(work, 'repos.txt'),
      [
        '# the campaign',
        bare['alpha']!.url,
        '',
        `${bare['beta']!.url}@release   # pinned to the release branch`,
        // Nothing answers there; its credentials must show nowhere.
        'http://someone:s3cret-pass@127.0.0.1:9/acme/gone.git',
        bare['gamma']!.url,
      ].join('\n'),
    );
    writeFileSync(join(work, 'good.txt'), NAMES.map((n) => bare[n]!.url).join('\n') + '\n');
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('clones every listed repository, runs its jobs there, and fails only the unreachable one', async () => {
    const r = await run(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--report', 'first.json']);
    expect(r.code, r.stderr).toBe(1);
    const report = readReport('first.json');
    expect(report.repo).toBeNull();
    expect(report.jobs.map((j) => [j.repo, j.status])).toEqual([
      [id('alpha'), 'changed'],
      [id('beta'), 'changed'],
      ['127.0.0.1:9/acme/gone', 'failed'],
      [id('gamma'), 'changed'],
    ]);
    expect(report.jobs[2]!.errors).toEqual([expect.objectContaining({ kind: 'clone-failed' })]);
    expect(JSON.stringify(report) + r.stderr + r.stdout).not.toMatch(/s3cret|someone/);
    // Progress names the repository being cloned, and job lines carry it.
    expect(r.stderr).toContain(`cloning ${id('alpha')}`);
    expect(r.stderr).toMatch(new RegExp(`${id('gamma')} new-log/new-log: changed`));
    for (const name of NAMES) {
      const dir = cloneOf(name);
      expect(runGit(dir, 'rev-parse', '--is-bare-repository')).toBe('true');
      expect(runGit(dir, 'rev-parse', '--is-shallow-repository')).toBe('true');
      expect(runGit(dir, 'show', 'scion/new-log:src/log.ts')).toBe(`export const ${name} = log('${name === 'beta' ? 'release' : name}');`);
      runGit(dir, 'fsck', '--strict', '--no-dangling');
    }
    // beta's jobs started from its release branch.
    expect(report.jobs[1]!.base).toBe(runGit(bare['beta']!.dir, 'rev-parse', 'release'));
  });

  it('fetches on the next run: a new upstream commit arrives, the clone keeps its objects; an unchanged upstream leaves every job unchanged', async () => {
    const packsBefore = readdirSync(join(cloneOf('alpha'), 'objects', 'pack'));
    const w = await gitRepo({});
    w.git('fetch', '-q', bare['alpha']!.dir, 'main');
    w.git('reset', '-q', '--hard', 'FETCH_HEAD');
    writeFileSync(join(w.dir, 'src/extra.ts'), 'legacyLog("extra");\n');
    w.git('add', '-A');
    w.git('commit', '-qm', 'upstream moves');
    w.git('push', '-q', bare['alpha']!.dir, 'HEAD:main');
    const moved = w.head();
    await w.cleanup();

    const r = await run(['run', 'recipe.yaml', '--repos', 'good.txt', '--cache-dir', 'cache', '--report', 'second.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`fetching ${id('alpha')}`);
    expect(r.stderr).not.toContain('cloning');
    const report = readReport('second.json');
    // alpha: upstream moved; beta: listed here without @release, so its default branch (main) now.
    expect(report.jobs.map((j) => j.status)).toEqual(['changed', 'changed', 'unchanged']);
    expect(report.jobs[1]!.base).toBe(runGit(bare['beta']!.dir, 'rev-parse', 'main'));
    expect(report.jobs[0]!.base).toBe(moved);
    const after = readdirSync(join(cloneOf('alpha'), 'objects', 'pack'));
    for (const p of packsBefore) expect(after).toContain(p);
    expect(runGit(cloneOf('alpha'), 'show', 'scion/new-log:src/extra.ts')).toBe('log("extra");');

    // The nightly rerun over an unchanged upstream: every job unchanged, no pack asked for.
    const before = server.requests.length;
    const again = await run(['run', 'recipe.yaml', '--repos', 'good.txt', '--cache-dir', 'cache', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RunReport).jobs.map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(server.requests.slice(before).filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('reads the list from stdin (--repos -)', async () => {
    let stdout = '';
    let stderr = '';
    const list = `# from a pipe\n${bare['gamma']!.url}\n${bare['alpha']!.url}\n`;
    const code = await main(['plan', 'recipe.yaml', '--repos', '-', '--cache-dir', 'cache', '--json'], {
      cwd: work,
      env: { ...env(), NO_COLOR: '1' },
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      readStdin: async () => list,
    });
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as RunReport).jobs.map((j) => j.repo)).toEqual([id('gamma'), id('alpha')]);
  });

  it('splits repositories × jobs over shards: disjoint and complete', async () => {
    const seen: string[][] = [];
    for (const shard of ['1/2', '2/2']) {
      const r = await run(['plan', 'recipe.yaml', '--repos', 'good.txt', '--cache-dir', 'cache', '--shard', shard, '--json']);
      expect(r.code, r.stderr).toBe(0);
      seen.push((JSON.parse(r.stdout) as RunReport).jobs.map((j) => j.repo!));
    }
    expect(seen[0]).toEqual([id('alpha'), id('gamma')]);
    expect(seen[1]).toEqual([id('beta')]);
  });

  it("pushes each repository's branch to its own remote (--push)", async () => {
    const r = await run(['run', 'recipe.yaml', '--repos', 'good.txt', '--cache-dir', 'cache', '--push', '--report', 'pushed.json']);
    expect(r.code, r.stderr).toBe(0);
    const report = readReport('pushed.json');
    for (const [k, name] of NAMES.entries()) {
      const job = report.jobs[k]!;
      expect(job.pushed).toMatchObject({ ref: 'refs/heads/scion/new-log', sha: job.head, sent: true });
      expect(runGit(bare[name]!.dir, 'rev-parse', 'scion/new-log')).toBe(job.head);
      // good.txt names beta without @release: its default branch, main, since the second run.
      expect(runGit(bare[name]!.dir, 'show', 'scion/new-log:src/log.ts')).toBe(`export const ${name} = log('${name}');`);
      runGit(bare[name]!.dir, 'fsck', '--strict', '--no-dangling');
    }
    expect(r.stdout).toContain(`${id('beta')}: pushed scion/new-log`);
  });

  it('a repository whose push fails fails its own jobs (push-failed); a local path pushes to its origin', async () => {
    const delta = server.bare('acme/delta.git');
    const local = await gitRepo({ 'src/log.ts': "export const delta = legacyLog('delta');\n" });
    local.git('remote', 'add', 'origin', delta.url);
    local.git('push', '-q', delta.dir, 'main');
    // gamma refuses pushes (receive-pack off): 403.
    runGit(bare['gamma']!.dir, 'config', 'http.receivepack', 'false');
    try {
      writeFileSync(join(work, 'mixed.txt'), `${bare['gamma']!.url}\n${local.dir}\n${bare['alpha']!.url}\n`);
      writeFileSync(join(work, 'other.yaml'), RECIPE.replace('name: new-log', 'name: other-log'));
      const r = await run(['run', 'other.yaml', '--repos', 'mixed.txt', '--cache-dir', 'cache', '--push', '--report', 'mixed.json']);
      expect(r.code).toBe(1);
      const report = readReport('mixed.json');
      expect(report.jobs.map((j) => [j.repo, j.status])).toEqual([
        [id('gamma'), 'failed'],
        [local.dir, 'changed'],
        [id('alpha'), 'changed'],
      ]);
      expect(report.jobs[0]!.errors).toEqual([expect.objectContaining({ kind: 'push-failed' })]);
      expect(runGit(delta.dir, 'rev-parse', 'scion/other-log')).toBe(report.jobs[1]!.head);
      expect(runGit(delta.dir, 'show', 'scion/other-log:src/log.ts')).toBe("export const delta = log('delta');");
      expect(runGit(bare['alpha']!.dir, 'rev-parse', 'scion/other-log')).toBe(report.jobs[2]!.head);
      // The user's checkout of the local repository is untouched.
      expect(local.git('status', '--porcelain')).toBe('');
    } finally {
      runGit(bare['gamma']!.dir, 'config', 'http.receivepack', 'true');
      await local.cleanup();
    }
  });

  describe('pull requests per repository', () => {
    // One API URL for every repository, as api.github.com is: each /repos/acme/<name> goes to its own fake.
    const github = useFakeGitHubs('acme', NAMES, 'all');

    beforeAll(() => {
      // The organisation's list and the search, served where every other API path goes.
      github.rest.orgs.set(
        'acme',
        NAMES.map((n) => fakeRepo(server.url, `acme/${n}`)),
      );
      github.rest.search = (q) => (q === 'org:acme language:typescript' ? NAMES.slice(0, 2).map((n) => fakeRepo(server.url, `acme/${n}`)) : []);
    });

    it("opens one pull request on each repository's own host (--push --pr), then status and pr read the campaign report", async () => {
      const r = await run(
        ['run', 'recipe.yaml', '--repos', 'good.txt', '--cache-dir', 'cache', '--push', '--pr', '--pr-interval', '0', '--report', 'pr.json'],
        { GITHUB_API_URL: github.url },
      );
      expect(r.code, r.stderr).toBe(0);
      const report = readReport('pr.json');
      for (const [k, name] of NAMES.entries()) {
        const created = github.fakes[name]!.requests.filter((q) => q.method === 'POST' && q.path === `/repos/acme/${name}/pulls`);
        expect(created).toHaveLength(1);
        expect(created[0]!.body).toMatchObject({ head: 'scion/new-log', base: 'main' });
        expect(created[0]!.headers.authorization).toBe(`Bearer ${server.token}`);
        expect(report.jobs[k]!.pullRequest).toMatchObject({ action: 'created', number: 100, url: `https://github.example/acme/${name}/pull/100` });
      }

      const status = await run(['status', '--report', 'pr.json', '--cache-dir', 'cache', '--json'], { GITHUB_API_URL: github.url });
      expect(status.code, status.stderr).toBe(0);
      const rows = JSON.parse(status.stdout) as {
        repo: string;
        branch: string;
        pullRequest: { number: number } | null;
        state: string;
        behind: number | null;
      }[];
      expect(rows.map((row) => [row.repo, row.branch, row.pullRequest?.number, row.state])).toEqual(NAMES.map((n) => [id(n), 'scion/new-log', 100, 'open']));
      const table = await run(['status', '--report', 'pr.json', '--cache-dir', 'cache'], { GITHUB_API_URL: github.url });
      expect(table.stdout.split('\n')[0]).toMatch(/^REPO\s+BRANCH/);

      const before = NAMES.map((n) => github.fakes[n]!.requests.length);
      const pr = await run(['pr', '--report', 'pr.json', '--cache-dir', 'cache', '--pr-interval', '0'], { GITHUB_API_URL: github.url });
      expect(pr.code, pr.stderr).toBe(0);
      for (const [k, name] of NAMES.entries()) {
        const later = github.fakes[name]!.requests.slice(before[k]);
        expect(later.filter((q) => q.method === 'PATCH' && q.path === `/repos/acme/${name}/pulls/100`)).toHaveLength(1);
        expect(later.filter((q) => q.method === 'POST' && q.path.endsWith('/pulls'))).toEqual([]);
        expect(pr.stdout).toContain(`${id(name)}: updated pull request #100 for scion/new-log`);
      }

      // The pull-request job of a workflow runs on another machine: no clone there. scion pr clones
      // each repository from the report's repoUrl into its own cache, then updates the pull requests.
      expect(readReport('pr.json').jobs.map((j) => j.repoUrl)).toEqual(NAMES.map((n) => bare[n]!.url));
      const elsewhere = await run(['pr', '--report', 'pr.json', '--cache-dir', 'cache-pr-job', '--pr-interval', '0'], { GITHUB_API_URL: github.url });
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      for (const name of NAMES) {
        expect(elsewhere.stdout).toContain(`${id(name)}: updated pull request #100 for scion/new-log`);
        expect(runGit(clonePath(join(work, 'cache-pr-job'), { id: id(name), url: '', path: null, ref: null }), 'rev-parse', '--is-shallow-repository')).toBe(
          'true',
        );
      }

      // alpha's pull request is merged: branches --prune on the report deletes its branch in alpha's
      // clone (and on its remote with --remote), and keeps the others' work in progress.
      github.fakes['alpha']!.pulls[0]!.state = 'closed';
      github.fakes['alpha']!.pulls[0]!.merged = true;
      const prune = await run(['branches', '--report', 'pr.json', '--cache-dir', 'cache', '--prune', '--remote', 'origin'], { GITHUB_API_URL: github.url });
      expect(prune.code, prune.stderr).toBe(0);
      expect(prune.stdout).toContain(`${id('alpha')}: deleted scion/new-log (pull request #100 merged)`);
      expect(prune.stdout).toContain(`${id('alpha')}: deleted scion/new-log on origin (pull request #100 merged)`);
      expect(prune.stdout).toContain(`${id('beta')}: kept scion/new-log (work in progress)`);
      expect(() => runGit(cloneOf('alpha'), 'rev-parse', '--verify', '-q', 'refs/heads/scion/new-log')).toThrow();
      expect(() => runGit(bare['alpha']!.dir, 'rev-parse', '--verify', '-q', 'refs/heads/scion/new-log')).toThrow();
      expect(runGit(bare['beta']!.dir, 'rev-parse', 'scion/new-log')).toMatch(/^[0-9a-f]{40}$/);
    });

    it('an organisation and a search end to end: discovered, cloned, changed, pushed, one pull request each', async () => {
      for (const [flags, recipe, names] of [
        [['--github-org', 'acme'], 'org-log', NAMES],
        [['--github-search', 'org:acme language:typescript'], 'search-log', NAMES.slice(0, 2)],
      ] as const) {
        writeFileSync(join(work, `${recipe}.yaml`), RECIPE.replace('name: new-log', `name: ${recipe}`));
        const r = await run(
          ['run', `${recipe}.yaml`, ...flags, '--cache-dir', `cache-${recipe}`, '--push', '--pr', '--pr-interval', '0', '--report', `${recipe}.json`],
          {
            GITHUB_API_URL: github.url,
          },
        );
        expect(r.code, r.stderr).toBe(0);
        const report = readReport(`${recipe}.json`);
        expect(report.jobs.map((j) => [j.repo, j.status])).toEqual(names.map((n) => [id(n), 'changed']));
        for (const [k, name] of names.entries()) {
          // The branch is in the repository discovery named, and sound.
          expect(runGit(bare[name]!.dir, 'rev-parse', `scion/${recipe}`)).toBe(report.jobs[k]!.head);
          runGit(bare[name]!.dir, 'fsck', '--strict');
          const created = github.fakes[name]!.requests.filter(
            (q) => q.method === 'POST' && q.path === `/repos/acme/${name}/pulls` && (q.body as { head: string }).head === `scion/${recipe}`,
          );
          expect(created).toHaveLength(1);
          expect(report.jobs[k]!.pullRequest).toMatchObject({ action: 'created' });
        }
      }
      // gamma was not in the search: no branch of the search's recipe there.
      expect(() => runGit(bare['gamma']!.dir, 'rev-parse', '--verify', '-q', 'refs/heads/scion/search-log')).toThrow();
    });
  });

  it('runs over the repositories discovery finds (--github-org), and says in one sentence when the host refuses (exit 1)', async () => {
    const gh = await startFakeGitHub('acme', 'alpha');
    gh.orgs.set(
      'acme',
      NAMES.map((n) => fakeRepo(server.url, `acme/${n}`)),
    );
    const r = await run(['plan', 'recipe.yaml', '--github-org', 'acme', '--cache-dir', 'cache', '--json'], { GITHUB_API_URL: gh.url });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as RunReport).jobs.map((j) => j.repo)).toEqual(NAMES.map(id));
    expect(r.stderr).toContain('GitHub organisation acme: 3 of 3 repositories.');
    const missing = await run(['plan', 'recipe.yaml', '--github-org', 'nobody', '--cache-dir', 'cache'], { GITHUB_API_URL: gh.url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^scion: .*nobody/m);
    expect(missing.stderr).not.toContain('internal error');
  });

  it('merges the shards of a campaign (keyed by repository, recipe and job)', async () => {
    for (const shard of ['1', '2']) {
      const r = await run(['plan', 'recipe.yaml', '--repos', 'good.txt', '--cache-dir', 'cache', '--shard', `${shard}/2`, '--report', `shard-${shard}.json`]);
      expect(r.code, r.stderr).toBe(0);
    }
    const m = await run(['merge-reports', 'shard-1.json', 'shard-2.json', '--report', 'merged.json']);
    expect(m.code, m.stderr).toBe(0);
    const merged = readReport('merged.json');
    expect(merged.repo).toBeNull();
    expect(merged.jobs.map((j) => j.repo).sort()).toEqual(NAMES.map(id).sort());
  });

  it('clones, edits and pushes with no git binary on PATH', async () => {
    const bin = join(work, 'bin-no-git');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    writeFileSync(join(work, 'no-git.yaml'), RECIPE.replace('name: new-log', 'name: no-git'));
    const p = spawnScion(['run', 'no-git.yaml', '--repos', 'good.txt', '--cache-dir', 'cache-no-git', '--push', '--report', 'no-git.json'], {
      cwd: work,
      env: { PATH: bin, ...server.githubEnv(), HOME: '/nonexistent' },
    });
    const done = await p.done;
    expect(done.code, done.stderr).toBe(0);
    const report = readReport('no-git.json');
    expect(report.jobs.map((j) => j.status)).toEqual(['changed', 'changed', 'changed']);
    for (const [k, name] of NAMES.entries()) {
      expect(runGit(bare[name]!.dir, 'rev-parse', 'scion/no-git')).toBe(report.jobs[k]!.head);
      runGit(bare[name]!.dir, 'fsck', '--strict', '--no-dangling');
    }
  }, 60_000);

  it('refuses flags that cannot go together, and a list with bad lines, before anything runs (exit 2)', async () => {
    writeFileSync(join(work, 'bad.txt'), `${bare['alpha']!.url}\nnot a repo\ngit@github.com:acme/x.git\n`);
    const cases: [string[], RegExp][] = [
      [['--repos', 'good.txt', '--repo', '.'], /--repo names one repository and --repos/],
      [['--repos', 'good.txt', '--github-org', 'acme'], /--repos and --github-org each name the repositories of a campaign; choose one/],
      [['--github-search', 'org:acme', '--gitlab-group', 'acme'], /--github-search and --gitlab-group/],
      [['--topic', 'x'], /--topic narrows the repositories of --github-org/],
      [['--repos', 'good.txt', '--pr'], /--pr opens pull requests for the branches --push pushed/],
      [['--repos', 'bad.txt'], /bad\.txt:2: one repository a line[\s\S]*bad\.txt:3: .*only http\(s\) URLs/],
    ];
    for (const [flags, message] of cases) {
      const cacheHere = join(work, 'never');
      const r = await run(['run', 'recipe.yaml', '--cache-dir', cacheHere, '--report', 'never.json', ...flags]);
      expect(r.code, `${flags.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(cacheHere)).toBe(false);
      expect(existsSync(join(work, 'never.json'))).toBe(false);
    }
  });
});
