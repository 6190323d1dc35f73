// resetWorktree: a worktree a job's commands changed in every way is put back at its tree, judged by
// native git (status with ignored and untracked files, diff-files on stat data alone), and only what
// differed was written.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addWorktree, listTree, openRepo, resetWorktree, treeOfCommit } from '../../src/git/index.js';
import { runGit, type RepoFile } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const FILES: Record<string, RepoFile> = {
  '.gitignore': 'build/\n*.log\n',
  'README.md': '# readme\n',
  'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 'exec' },
  link: { content: 'README.md', mode: 'symlink' },
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 1;\n',
  'src/deep/c.ts': 'export const c = 1;\n',
  'docs/guide.md': 'guide\n',
};

/** Everything git sees: changed, untracked and ignored files alike. */
function everything(dir: string): string {
  return runGit(dir, 'status', '--porcelain', '--ignored', '--untracked-files=all');
}

describe('resetWorktree', () => {
  it('puts back every tracked file and removes everything else, ignored output and nested repositories included', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const dir = mkdtempSync(join(tmpdir(), 'scion-reset-'));
    dirs.push(dir);
    const entries = await listTree(g, await treeOfCommit(g, r.head()));
    const wt = await addWorktree(g, { path: join(dir, 'wt'), commit: r.head(), entries });
    const at = (p: string) => join(wt.path, p);
    // What commands of a job might leave.
    writeFileSync(at('src/a.ts'), 'export const a = 2;\n');
    chmodSync(at('bin/run.sh'), 0o644);
    unlinkSync(at('src/b.ts'));
    unlinkSync(at('link'));
    writeFileSync(at('link'), 'a file now');
    rmSync(at('src/deep'), { recursive: true });
    writeFileSync(at('src/deep'), 'a file where a folder was');
    rmSync(at('docs/guide.md'));
    mkdirSync(at('docs/guide.md'));
    writeFileSync(at('docs/guide.md/inner'), 'a folder where a file was');
    mkdirSync(at('build/out'), { recursive: true });
    writeFileSync(at('build/out/bundle.js'), 'ignored output');
    writeFileSync(at('debug.log'), 'ignored too');
    writeFileSync(at('notes.txt'), 'untracked');
    mkdirSync(at('vendor/lib/.git'), { recursive: true });
    writeFileSync(at('vendor/lib/x.js'), 'a nested repository');
    symlinkSync('/etc', at('escape'));
    expect(everything(wt.path)).not.toBe('');

    const counts = await resetWorktree(g, wt, entries);
    expect(everything(wt.path)).toBe('');
    // The index's stat data matches the disk: diff-files compares stat data only.
    expect(runGit(wt.path, 'diff-files', '--name-only')).toBe('');
    expect(runGit(wt.path, 'diff-index', '--cached', 'HEAD')).toBe('');
    expect(statSync(at('bin/run.sh')).mode & 0o111).not.toBe(0);
    expect(existsSync('/etc/passwd')).toBe(true);
    // src/a.ts, bin/run.sh, src/b.ts, link, src/deep/c.ts, docs/guide.md; README.md and .gitignore untouched.
    expect(counts.written).toBe(6);
    // build, debug.log, notes.txt, vendor, escape (src/deep and docs/guide.md were replaced in place).
    expect(counts.removed).toBe(7);
    expect(r.git('worktree', 'list', '--porcelain')).toContain(`worktree ${wt.path}\nHEAD ${r.head()}\ndetached`);
    r.git('fsck', '--strict');
  });

  it('writes nothing when nothing changed, and leaves the files it kept alone', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const dir = mkdtempSync(join(tmpdir(), 'scion-reset-'));
    dirs.push(dir);
    const entries = await listTree(g, await treeOfCommit(g, r.head()));
    const wt = await addWorktree(g, { path: join(dir, 'wt'), commit: r.head(), entries });
    const inode = statSync(join(wt.path, 'src/a.ts')).ino;
    const counts = await resetWorktree(g, wt, entries);
    expect(counts).toEqual({ written: 0, removed: 0 });
    expect(statSync(join(wt.path, 'src/a.ts')).ino).toBe(inode);
    expect(readFileSync(join(wt.path, '.git'), 'utf8')).toBe(`gitdir: ${wt.adminDir}\n`);
    expect(everything(wt.path)).toBe('');
  });

  it('stops at an abort signal with kind interrupted: a checkout leaves no folder and no admin folder', async () => {
    const r = await repo(FILES);
    const g = await openRepo(r.dir);
    const dir = mkdtempSync(join(tmpdir(), 'scion-reset-'));
    dirs.push(dir);
    const entries = await listTree(g, await treeOfCommit(g, r.head()));
    const stop = new AbortController();
    stop.abort();
    await expect(addWorktree(g, { path: join(dir, 'wt'), commit: r.head(), entries, signal: stop.signal })).rejects.toMatchObject({ kind: 'interrupted' });
    expect(existsSync(join(dir, 'wt'))).toBe(false);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    const admin = join(r.dir, '.git', 'worktrees');
    expect(existsSync(admin) ? readdirSync(admin) : []).toEqual([]);

    const wt = await addWorktree(g, { path: join(dir, 'wt'), commit: r.head(), entries });
    writeFileSync(join(wt.path, 'src/a.ts'), 'changed\n');
    await expect(resetWorktree(g, wt, entries, { signal: stop.signal })).rejects.toMatchObject({ kind: 'interrupted' });
  });

  it('a submodule stays an empty folder: whatever a command put inside, in its place or removed it for, is undone', async () => {
    const r = await repo(FILES);
    // A gitlink at vendor/sub (a commit of another repository; never fetched, as in a fresh clone).
    r.git('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/sub`);
    r.git('commit', '-q', '-m', 'submodule');
    const g = await openRepo(r.dir);
    const dir = mkdtempSync(join(tmpdir(), 'scion-reset-'));
    dirs.push(dir);
    const entries = await listTree(g, await treeOfCommit(g, r.head()));
    const wt = await addWorktree(g, { path: join(dir, 'wt'), commit: r.head(), entries });
    const sub = join(wt.path, 'vendor/sub');
    expect(readdirSync(sub)).toEqual([]);
    expect(everything(wt.path)).toBe('');
    const cases: Record<string, () => void> = {
      'checked out inside': () => {
        mkdirSync(join(sub, '.git'), { recursive: true });
        writeFileSync(join(sub, '.git', 'HEAD'), 'ref: refs/heads/main\n');
        writeFileSync(join(sub, 'lib.js'), 'a submodule checkout\n');
      },
      removed: () => rmSync(sub, { recursive: true }),
      'a file in its place': () => {
        rmSync(sub, { recursive: true });
        writeFileSync(sub, 'not a folder\n');
      },
    };
    for (const [name, mess] of Object.entries(cases)) {
      mess();
      await resetWorktree(g, wt, entries);
      expect([name, everything(wt.path)]).toEqual([name, '']);
      expect([name, readdirSync(sub)]).toEqual([name, []]);
      expect(runGit(wt.path, 'diff-files', '--name-only')).toBe('');
      expect(runGit(wt.path, 'ls-files', '--stage', 'vendor/sub')).toBe(`160000 ${'1'.repeat(40)} 0\tvendor/sub`);
    }
  });

  it('under core.autocrlf and .gitattributes eol: files a command rewrote with CRLF are put back as the tree has them', async () => {
    const r = await repo({
      ...FILES,
      '.gitattributes': '*.txt text eol=crlf\n*.dat binary\n',
      'notes.txt': 'one\ntwo\n',
      'data.dat': new Uint8Array([0x61, 0x0d, 0x0a, 0x62, 0x0a]),
    });
    r.git('config', 'core.autocrlf', 'true');
    const g = await openRepo(r.dir);
    const dir = mkdtempSync(join(tmpdir(), 'scion-reset-'));
    dirs.push(dir);
    const entries = await listTree(g, await treeOfCommit(g, r.head()));
    const wt = await addWorktree(g, { path: join(dir, 'wt'), commit: r.head(), entries });
    const at = (p: string) => join(wt.path, p);
    expect(everything(wt.path)).toBe('');
    // What a formatter run by a command might write: the same text with CRLF, and real changes.
    writeFileSync(at('notes.txt'), 'one\r\ntwo\r\n');
    writeFileSync(at('README.md'), '# readme\r\n');
    writeFileSync(at('src/a.ts'), 'export const a = 2;\r\n');
    writeFileSync(at('data.dat'), new Uint8Array([0x61, 0x0a, 0x62, 0x0a]));
    writeFileSync(at('new.txt'), 'untracked\r\n');

    await resetWorktree(g, wt, entries);
    expect(everything(wt.path)).toBe('');
    expect(runGit(wt.path, 'diff-files', '--name-only')).toBe('');
    expect(runGit(wt.path, 'diff-index', '--cached', 'HEAD')).toBe('');
    // Each file holds its blob's bytes (a binary file's CRLF kept, not normalised).
    for (const e of entries.filter((x) => x.mode === '100644')) {
      expect([e.path, runGit(wt.path, 'hash-object', '--no-filters', e.path)]).toEqual([e.path, e.oid]);
    }
    expect(readFileSync(at('data.dat'))).toEqual(Buffer.from([0x61, 0x0d, 0x0a, 0x62, 0x0a]));
  });
});
