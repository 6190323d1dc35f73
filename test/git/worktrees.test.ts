import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addWorktree,
  branchCheckedOut,
  treeOfCommit,
  listTree,
  listWorktrees,
  openRepo,
  removeWorktree,
  setWorktreeHead,
  updateRef,
  worktreeChanges,
  writeBlob,
  writeCommit,
  writeTreeWith,
  type Repo,
  type TreeChange,
  type Worktree,
} from '../../src/git/index.js';
import { runGit, type RepoFile, type TestRepo } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function wtPath(name = 'wt'): string {
  const d = mkdtempSync(join(tmpdir(), 'scion-wt-'));
  dirs.push(d);
  return join(d, name);
}

const FILES: Record<string, RepoFile> = {
  'README.md': '# readme\n',
  'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 'exec' },
  'link-to-readme': { content: 'README.md', mode: 'symlink' },
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 1;\n',
  'src/nested/c.ts': 'export const c = 1;\n',
  'docs/guide.md': 'guide\n',
  'caf\u00e9/\u00e9t\u00e9.txt': 'unicode path\n',
  'empty.txt': '',
};

async function checkout(r: TestRepo, opts: { branch?: string; path?: string } = {}): Promise<{ g: Repo; wt: Worktree; commit: string }> {
  const g = await openRepo(r.dir);
  const commit = r.head();
  const wt = await addWorktree(g, { path: opts.path ?? wtPath(), commit, ...(opts.branch ? { branch: opts.branch } : {}) });
  return { g, wt, commit };
}

function status(dir: string): string {
  return runGit(dir, 'status', '--porcelain', '-uall');
}

describe('addWorktree', () => {
  it('makes a worktree native git lists, with a clean status, real modes and symlinks', async () => {
    const r = await repo(FILES, { packed: true });
    const { wt, commit } = await checkout(r);
    expect(r.git('worktree', 'list', '--porcelain')).toContain(`worktree ${wt.path}\nHEAD ${commit}\ndetached`);
    expect(wt.adminDir).toBe(join(r.dir, '.git/worktrees', wt.id));
    expect(status(wt.path)).toBe('');
    expect(runGit(wt.path, 'rev-parse', 'HEAD')).toBe(commit);
    expect(readFileSync(join(wt.path, 'src/nested/c.ts'), 'utf8')).toBe('export const c = 1;\n');
    expect(readFileSync(join(wt.path, 'caf\u00e9/\u00e9t\u00e9.txt'), 'utf8')).toBe('unicode path\n');
    expect(statSync(join(wt.path, 'bin/run.sh')).mode & 0o111).not.toBe(0);
    expect(statSync(join(wt.path, 'README.md')).mode & 0o111).toBe(0);
    expect(lstatSync(join(wt.path, 'link-to-readme')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(wt.path, 'link-to-readme'))).toBe('README.md');
    // Native git trusts our index: it compares equal to the tree and status did not need to rewrite it.
    expect(runGit(wt.path, 'diff-index', '--cached', 'HEAD')).toBe('');
    r.git('fsck', '--strict', '--no-dangling');
  });

  it('writes stat data git accepts: `git status` leaves the index untouched and `git diff-files` is empty', async () => {
    const r = await repo(FILES);
    const { wt } = await checkout(r);
    const indexFile = join(wt.adminDir, 'index');
    const before = readFileSync(indexFile);
    // diff-files compares stat data only (no refresh): any mismatch would list the file.
    expect(runGit(wt.path, 'diff-files', '--name-only')).toBe('');
    expect(status(wt.path)).toBe('');
    expect(readFileSync(indexFile).equals(before)).toBe(true);
    expect(runGit(wt.path, 'ls-files', '-s')).toBe(r.git('ls-files', '-s'));
  });

  it('checks out a branch when asked, and refuses one that is checked out elsewhere or points elsewhere', async () => {
    const r = await repo(FILES);
    r.git('branch', 'feature');
    const { g, wt, commit } = await checkout(r, { branch: 'feature' });
    expect(readFileSync(join(wt.adminDir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/feature\n');
    expect(r.git('worktree', 'list', '--porcelain')).toContain(`worktree ${wt.path}\nHEAD ${commit}\nbranch refs/heads/feature`);
    expect(runGit(wt.path, 'branch', '--show-current')).toBe('feature');
    expect(status(wt.path)).toBe('');
    await expect(addWorktree(g, { path: wtPath(), commit, branch: 'feature' })).rejects.toMatchObject({ kind: 'in-use' });
    await expect(addWorktree(g, { path: wtPath(), commit, branch: 'main' })).rejects.toMatchObject({ kind: 'in-use' });
    r.git('commit', '-q', '--allow-empty', '-m', 'moves main');
    r.git('branch', 'other', 'HEAD');
    await expect(addWorktree(g, { path: wtPath(), commit, branch: 'other' })).rejects.toMatchObject({ kind: 'invalid-argument' });
  });

  it('refuses a folder that is not empty, and gives each worktree its own admin id', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const busy = wtPath('busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'x'), 'x');
    await expect(addWorktree(g, { path: busy, commit: r.head() })).rejects.toMatchObject({ kind: 'in-use' });
    const a = await addWorktree(g, { path: wtPath('same'), commit: r.head() });
    const b = await addWorktree(g, { path: wtPath('same'), commit: r.head() });
    expect(a.id).toBe('same');
    expect(b.id).toBe('same1');
    expect(status(b.path)).toBe('');
  });

  it('checks out submodule entries as empty folders that git status treats as clean', async () => {
    const r = await repo(FILES);
    r.git('update-index', '--add', '--cacheinfo', `160000,${r.head()},vendor/lib`);
    r.git('commit', '-q', '-m', 'gitlink');
    const { wt } = await checkout(r);
    expect(readdirSync(join(wt.path, 'vendor/lib'))).toEqual([]);
    expect(status(wt.path)).toBe('');
  });

  it('works when the repo was opened from inside a native linked worktree of a packed repo', async () => {
    const r = await repo(FILES, { packed: true });
    const native = wtPath('native');
    r.git('worktree', 'add', '-q', '-b', 'native-branch', native);
    runGit(native, 'commit', '-q', '--allow-empty', '-m', 'only in native worktree');
    const g = await openRepo(join(native, 'src'));
    const commit = runGit(native, 'rev-parse', 'HEAD');
    const wt = await addWorktree(g, { path: wtPath(), commit });
    expect(wt.adminDir).toBe(join(r.dir, '.git/worktrees', wt.id));
    expect(runGit(wt.path, 'rev-parse', 'HEAD')).toBe(commit);
    expect(status(wt.path)).toBe('');
    const listed = r.git('worktree', 'list', '--porcelain');
    expect(listed).toContain(`worktree ${native}`);
    expect(listed).toContain(`worktree ${wt.path}`);
  });
});

describe('listWorktrees / removeWorktree', () => {
  it('lists linked worktrees (ours and native) with head, branch and whether they still exist', async () => {
    const r = await repo(FILES);
    r.git('branch', 'feature');
    const native = wtPath('native');
    r.git('worktree', 'add', '-q', '--detach', native);
    const { g, wt, commit } = await checkout(r, { branch: 'feature' });
    const list = await listWorktrees(g);
    expect(list).toHaveLength(2);
    expect(list).toContainEqual({ path: wt.path, id: wt.id, head: commit, branch: 'refs/heads/feature', exists: true, locked: false });
    expect(list).toContainEqual({ path: native, id: 'native', head: commit, branch: null, exists: true, locked: false });
    rmSync(native, { recursive: true });
    expect((await listWorktrees(g)).find((w) => w.id === 'native')?.exists).toBe(false);
  });

  it('branchCheckedOut names the checkout that has a branch, main or linked', async () => {
    const r = await repo(FILES);
    r.git('branch', 'feature');
    r.git('branch', 'free');
    const { g, wt } = await checkout(r, { branch: 'feature' });
    expect(await branchCheckedOut(g, 'refs/heads/main')).toBe(r.dir);
    expect(await branchCheckedOut(g, 'refs/heads/feature')).toBe(wt.path);
    expect(await branchCheckedOut(g, 'refs/heads/free')).toBeNull();
  });

  it('removes a worktree (by object, id or path) so git no longer lists it and prune has nothing to do', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const made = await Promise.all([0, 1, 2].map(async (i) => addWorktree(g, { path: wtPath(`w${i}`), commit: r.head() })));
    const [w0, w1, w2] = made as [Worktree, Worktree, Worktree];
    writeFileSync(join(w0.path, 'untracked.txt'), 'dirty');
    await removeWorktree(g, w0);
    await removeWorktree(g, w1.id);
    await removeWorktree(g, w2.path);
    for (const w of made) {
      expect(existsSync(w.path)).toBe(false);
      expect(existsSync(w.adminDir)).toBe(false);
    }
    expect(r.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(r.git('worktree', 'prune', '-n', '-v')).toBe('');
    expect(await listWorktrees(g)).toEqual([]);
  });

  it('refuses a locked worktree, and one whose .git file points elsewhere', async () => {
    const r = await repo(FILES);
    const { g, wt } = await checkout(r);
    r.git('worktree', 'lock', '--reason', 'keep', wt.path);
    await expect(removeWorktree(g, wt)).rejects.toMatchObject({ kind: 'in-use' });
    r.git('worktree', 'unlock', wt.path);
    writeFileSync(join(wt.path, '.git'), 'gitdir: /somewhere/else\n');
    await expect(removeWorktree(g, wt)).rejects.toMatchObject({ kind: 'in-use' });
    expect(existsSync(join(wt.path, 'README.md'))).toBe(true);
  });

  it('native `git worktree remove` and `git worktree prune` handle worktrees scion made', async () => {
    const r = await repo(FILES);
    const { g, wt } = await checkout(r);
    r.git('worktree', 'remove', wt.path);
    expect(existsSync(wt.path)).toBe(false);
    const second = await addWorktree(g, { path: wtPath(), commit: r.head() });
    expect(r.git('worktree', 'prune', '-n')).toBe('');
    rmSync(second.path, { recursive: true });
    r.git('worktree', 'prune');
    expect(existsSync(second.adminDir)).toBe(false);
  });
});

describe('worktreeChanges', () => {
  it('reports modified, mode-changed, new and deleted files; skips ignored ones, .git and submodules', async () => {
    const r = await repo({
      ...FILES,
      '.gitignore': 'dist/\n*.log\n!keep.log\n/top-only.txt\n',
      'src/.gitignore': 'generated/\n*.tmp\n',
    });
    // Tracked although *.log ignores it: changes to it still count.
    writeFileSync(join(r.dir, 'src/tracked.log'), 'tracked even though ignored\n');
    r.git('add', '-f', 'src/tracked.log');
    r.git('commit', '-q', '-m', 'tracked log');
    const { g, wt, commit } = await checkout(r);
    const base = await listTree(g, await treeOfCommit(g, commit));
    writeFileSync(join(wt.path, 'src/a.ts'), 'export const a = 2;\n');
    chmodSync(join(wt.path, 'src/b.ts'), 0o755);
    unlinkSync(join(wt.path, 'docs/guide.md'));
    unlinkSync(join(wt.path, 'link-to-readme'));
    symlinkSync('src/a.ts', join(wt.path, 'link-to-readme'));
    writeFileSync(join(wt.path, 'src/tracked.log'), 'changed\n');
    // Rewritten with the same bytes: stat differs, content does not.
    writeFileSync(join(wt.path, 'README.md'), '# readme\n');
    const added = { 'new.ts': 'new\n', 'src/deep/new/file.ts': 'deep\n', 'keep.log': 'kept\n', 'sub/top-only.txt': 'not at top\n' };
    for (const [p, c] of Object.entries(added)) {
      mkdirSync(join(wt.path, p, '..'), { recursive: true });
      writeFileSync(join(wt.path, p), c);
    }
    runGit(wt.path, 'init', '-q', 'nested-repo');
    for (const p of ['dist/out.js', 'debug.log', 'top-only.txt', 'src/generated/x.ts', 'src/x.tmp', 'nested-repo/file']) {
      mkdirSync(join(wt.path, p, '..'), { recursive: true });
      writeFileSync(join(wt.path, p), 'ignored\n');
    }
    const changes = await worktreeChanges(g, wt, base);
    const summary = Object.fromEntries([...changes].map(([p, s]) => [p, s === null ? null : `${s.mode} ${Buffer.from(s.bytes).toString()}`]));
    expect(summary).toEqual({
      'src/a.ts': '100644 export const a = 2;\n',
      'src/b.ts': '100755 export const b = 1;\n',
      'docs/guide.md': null,
      'link-to-readme': '120000 src/a.ts',
      'src/tracked.log': '100644 changed\n',
      'new.ts': '100644 new\n',
      'src/deep/new/file.ts': '100644 deep\n',
      'keep.log': '100644 kept\n',
      'sub/top-only.txt': '100644 not at top\n',
    });
    // The same set native git reports (nested-repo shows as one untracked entry there, and is not ours to commit).
    const native = status(wt.path)
      .split('\n')
      .map((l) => l.slice(3))
      .filter((p) => p !== 'nested-repo/');
    expect(native.sort()).toEqual([...changes.keys()].sort());
  });

  it('finds a change made within the same instant as the checkout (racily clean entries are hashed)', async () => {
    const r = await repo(FILES);
    const { g, wt, commit } = await checkout(r);
    const file = join(wt.path, 'src/a.ts');
    const st = statSync(file);
    // Same size, same mtime: only the content tells.
    writeFileSync(file, 'export const a = 9;\n');
    utimesSync(file, st.atime, st.mtime);
    const changes = await worktreeChanges(g, wt, await listTree(g, await treeOfCommit(g, commit)));
    expect([...changes.keys()]).toEqual(['src/a.ts']);
  });
});

describe('setWorktreeHead', () => {
  it('after committing worktree changes at object level: HEAD on the branch, `git status` clean', async () => {
    const r = await repo(FILES, { packed: true });
    const { g, wt, commit } = await checkout(r);
    const base = await listTree(g, await treeOfCommit(g, commit));
    writeFileSync(join(wt.path, 'src/a.ts'), 'export const a = 2;\n');
    writeFileSync(join(wt.path, 'added.ts'), 'added\n');
    unlinkSync(join(wt.path, 'docs/guide.md'));
    const changes = await worktreeChanges(g, wt, base);
    const treeChanges = new Map<string, TreeChange>();
    for (const [p, s] of changes) treeChanges.set(p, s === null ? null : { oid: await writeBlob(g, s.bytes), mode: s.mode });
    const tree = await writeTreeWith(g, await treeOfCommit(g, commit), treeChanges);
    const sha = await writeCommit(g, { tree, parents: [commit], message: 'job', author: { name: 'scion', email: 's@l' } });
    await updateRef(g, 'refs/heads/scion/job', sha, null);
    await setWorktreeHead(g, wt, { branch: 'scion/job', commit: sha, entries: await listTree(g, tree) });
    expect(status(wt.path)).toBe('');
    expect(runGit(wt.path, 'diff-files', '--name-only')).toBe('');
    expect(runGit(wt.path, 'branch', '--show-current')).toBe('scion/job');
    expect(runGit(wt.path, 'log', '--format=%s', '-1')).toBe('job');
    expect(r.git('worktree', 'list', '--porcelain')).toContain(`worktree ${wt.path}\nHEAD ${sha}\nbranch refs/heads/scion/job`);
    // The user's checkout is untouched.
    expect(status(r.dir)).toBe('');
    expect(r.head()).toBe(commit);
    r.git('fsck', '--strict', '--no-dangling');
  });

  it('brings onto disk what an object-level commit changed, and removes what it deleted', async () => {
    const r = await repo(FILES);
    const { g, wt, commit } = await checkout(r);
    const tree = await writeTreeWith(
      g,
      await treeOfCommit(g, commit),
      new Map<string, TreeChange>([
        ['src/a.ts', { oid: await writeBlob(g, Buffer.from('edited in objects\n')), mode: '100755' }],
        ['src/nested/c.ts', null],
        ['brand/new.ts', { oid: await writeBlob(g, Buffer.from('new\n')), mode: '100644' }],
        ['README.md', { oid: await writeBlob(g, Buffer.from('src')), mode: '120000' }],
      ]),
    );
    const sha = await writeCommit(g, { tree, parents: [commit], message: 'objects', author: { name: 'scion', email: 's@l' } });
    await setWorktreeHead(g, wt, { commit: sha, entries: await listTree(g, tree) });
    expect(readFileSync(join(wt.path, 'src/a.ts'), 'utf8')).toBe('edited in objects\n');
    expect(statSync(join(wt.path, 'src/a.ts')).mode & 0o100).not.toBe(0);
    expect(readFileSync(join(wt.path, 'brand/new.ts'), 'utf8')).toBe('new\n');
    expect(readlinkSync(join(wt.path, 'README.md'))).toBe('src');
    expect(existsSync(join(wt.path, 'src/nested'))).toBe(false);
    expect(runGit(wt.path, 'rev-parse', 'HEAD')).toBe(sha);
    expect(r.git('worktree', 'list', '--porcelain')).toContain(`HEAD ${sha}\ndetached`);
    expect(status(wt.path)).toBe('');
  });

  it('leaves a file the commit does not cover alone, so git status still shows it', async () => {
    const r = await repo(FILES);
    const { g, wt, commit } = await checkout(r);
    writeFileSync(join(wt.path, 'src/b.ts'), 'local edit, not committed\n');
    const blob = await writeBlob(g, Buffer.from('x\n'));
    const tree = await writeTreeWith(g, await treeOfCommit(g, commit), new Map([['src/a.ts', { oid: blob, mode: '100644' }]]));
    const sha = await writeCommit(g, { tree, parents: [commit], message: 'm', author: { name: 'a', email: 'a@b' } });
    await setWorktreeHead(g, wt, { commit: sha, entries: await listTree(g, tree) });
    expect(status(wt.path)).toBe(' M src/b.ts');
    expect(readFileSync(join(wt.path, 'src/b.ts'), 'utf8')).toBe('local edit, not committed\n');
  });

  it('keeps local edits when every index entry is racily clean (files as new as the index)', async () => {
    const r = await repo(FILES);
    const { g, wt, commit } = await checkout(r);
    writeFileSync(join(wt.path, 'src/b.ts'), 'export const b = 2;\n');
    writeFileSync(join(wt.path, 'docs/guide.md'), 'edited\n');
    // An index older than every file: its stat data can no longer vouch for any of them.
    utimesSync(join(wt.adminDir, 'index'), 1_000_000, 1_000_000);
    const tree = await writeTreeWith(
      g,
      await treeOfCommit(g, commit),
      new Map<string, TreeChange>([
        ['src/a.ts', { oid: await writeBlob(g, Buffer.from('x\n')), mode: '100644' }],
        ['docs/guide.md', null],
      ]),
    );
    const sha = await writeCommit(g, { tree, parents: [commit], message: 'm', author: { name: 'a', email: 'a@b' } });
    await setWorktreeHead(g, wt, { commit: sha, entries: await listTree(g, tree) });
    expect(readFileSync(join(wt.path, 'src/b.ts'), 'utf8')).toBe('export const b = 2;\n');
    expect(readFileSync(join(wt.path, 'docs/guide.md'), 'utf8')).toBe('edited\n');
    expect(status(wt.path).split('\n').sort()).toEqual([' M src/b.ts', '?? docs/guide.md']);
  });
});
