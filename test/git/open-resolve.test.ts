import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isGitError, openRepo, readRef, resolveCommit } from '../../src/git/index.js';
import { runGit } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'scion-open-'));
  dirs.push(d);
  return d;
}

describe('openRepo', () => {
  it('finds the repository from a nested folder, a file, or the .git folder itself', async () => {
    const r = await repo({ 'src/deep/a.ts': 'x\n' });
    const want = { commonDir: join(r.dir, '.git'), gitDir: join(r.dir, '.git'), workTree: r.dir };
    expect(await openRepo(join(r.dir, 'src/deep'))).toMatchObject(want);
    expect(await openRepo(join(r.dir, 'src/deep/a.ts'))).toMatchObject(want);
    expect(await openRepo(join(r.dir, '.git/refs'))).toMatchObject(want);
  });

  it('inside a native linked worktree: own gitDir and workTree, shared commonDir', async () => {
    const r = await repo({ 'src/a.ts': 'x\n' });
    const wt = join(tempDir(), 'wt');
    r.git('worktree', 'add', '-q', '--detach', wt);
    const g = await openRepo(join(wt, 'src'));
    expect(g.commonDir).toBe(join(r.dir, '.git'));
    expect(g.gitDir).toBe(join(r.dir, '.git/worktrees/wt'));
    expect(g.workTree).toBe(wt);
  });

  it('opens a bare repository with no work tree', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const bare = join(tempDir(), 'bare.git');
    runGit(r.dir, 'clone', '-q', '--bare', r.dir, bare);
    const g = await openRepo(bare);
    expect(g).toMatchObject({ commonDir: bare, gitDir: bare, workTree: null });
    expect(await resolveCommit(g, 'HEAD')).toBe(r.head());
  });

  it('throws not-a-repository for a folder outside any repository, and for a missing folder', async () => {
    const d = tempDir();
    mkdirSync(join(d, 'sub'));
    await expect(openRepo(join(d, 'sub'))).rejects.toSatisfy(isGitError);
    await expect(openRepo(join(d, 'sub'))).rejects.toMatchObject({ kind: 'not-a-repository' });
    await expect(openRepo(join(d, 'sub'))).rejects.toThrow(/not inside a git repository/);
    await expect(openRepo(join(d, 'nope'))).rejects.toThrow(/does not exist/);
  });

  it('refuses a SHA-256 repository with a clear message', async () => {
    const d = tempDir();
    runGit(d, 'init', '-q', '--object-format=sha256');
    await expect(openRepo(d)).rejects.toThrow(/SHA-1 repositories only/);
  });
});

describe('resolveCommit', () => {
  it('resolves HEAD, @, branches, full and abbreviated shas, ~N, ^ and ^2', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const first = r.head();
    r.git('checkout', '-q', '-b', 'side');
    r.git('commit', '-q', '--allow-empty', '-m', 'side');
    const side = r.head();
    r.git('checkout', '-q', 'main');
    r.git('commit', '-q', '--allow-empty', '-m', 'main 2');
    r.git('merge', '-q', '--no-ff', '-m', 'merge', 'side');
    const merge = r.head();
    const g = await openRepo(r.dir);
    const cases: Record<string, string | null> = {
      HEAD: merge,
      '@': merge,
      main: merge,
      'refs/heads/side': side,
      'heads/side': side,
      [merge]: merge,
      [merge.slice(0, 7)]: merge,
      [merge.toUpperCase()]: merge,
      'HEAD~2': first,
      'main^': r.git('rev-parse', 'main^'),
      'HEAD^2': side,
      'HEAD^0': merge,
      'HEAD~1^': first,
      'HEAD~3': null,
      'HEAD^3': null,
      nope: null,
      [`${'0'.repeat(39)}1`]: null,
      '../../config': null,
    };
    for (const [name, want] of Object.entries(cases)) expect([name, await resolveCommit(g, name)]).toEqual([name, want]);
  });

  it('peels annotated tags to their commit and finds packed refs after gc', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    r.git('tag', '-a', '-m', 'release', 'v1');
    r.git('tag', 'light');
    r.git('commit', '-q', '--allow-empty', '-m', 'later');
    r.git('gc', '-q');
    expect(r.git('cat-file', '-t', 'v1')).toBe('tag');
    const g = await openRepo(r.dir);
    const tagged = r.git('rev-parse', 'v1^{commit}');
    expect(await resolveCommit(g, 'v1')).toBe(tagged);
    expect(await resolveCommit(g, 'light')).toBe(tagged);
    expect(await resolveCommit(g, 'main')).toBe(r.head());
    expect(await readRef(g, 'refs/heads/main')).toBe(r.head());
    expect(await readRef(g, 'refs/tags/v1')).toBe(r.git('rev-parse', 'refs/tags/v1'));
  });

  it('refuses a name that points at a tree', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    await expect(resolveCommit(g, r.git('rev-parse', 'HEAD^{tree}'))).rejects.toThrow(/names a tree, not a commit/);
  });

  it("in a linked worktree, HEAD is that worktree's HEAD; branches are shared", async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const base = r.head();
    const wt = join(tempDir(), 'wt');
    r.git('worktree', 'add', '-q', '-b', 'feature', wt);
    runGit(wt, 'commit', '-q', '--allow-empty', '-m', 'in the worktree');
    const wtHead = runGit(wt, 'rev-parse', 'HEAD');
    r.git('commit', '-q', '--allow-empty', '-m', 'in main');
    const fromWt = await openRepo(wt);
    const fromMain = await openRepo(r.dir);
    expect(await resolveCommit(fromWt, 'HEAD')).toBe(wtHead);
    expect(await resolveCommit(fromMain, 'HEAD')).toBe(r.head());
    expect(await resolveCommit(fromMain, 'feature')).toBe(wtHead);
    expect(await resolveCommit(fromWt, 'main')).toBe(r.head());
    expect(await resolveCommit(fromWt, 'HEAD~1')).toBe(base);
  });

  it('returns null for HEAD of an empty repository (unborn branch)', async () => {
    const d = tempDir();
    runGit(d, 'init', '-q');
    expect(await resolveCommit(await openRepo(d), 'HEAD')).toBeNull();
  });
});
