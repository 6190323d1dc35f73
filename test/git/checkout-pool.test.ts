// Checkouts through the worker write pool (write-pool.ts): the same files, modes, index and stat
// data as the single-thread path, and a write error ends as the fs error it was, with no worker left.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkoutEntries } from '../../src/git/checkout.js';
import { addWorktree, treeOfCommit, listTree, openRepo, setWorktreeHead, type TreeEntry } from '../../src/git/index.js';
import { writePool } from '../../src/git/write-pool.js';
import { runGit, type RepoFile } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();
const dirs: string[] = [];
const saved = { ...writePool };
beforeAll(() => {
  // Every checkout of more than one file goes through the pool, in small batches over 3 workers.
  Object.assign(writePool, { minFiles: 1, batchFiles: 3, workers: 3, maxPendingBytes: 4096 });
});
afterAll(() => Object.assign(writePool, saved));
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'scion-pool-'));
  dirs.push(d);
  return d;
};

function files(): Record<string, RepoFile> {
  const out: Record<string, RepoFile> = {
    'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 'exec' },
    'link-to-readme': { content: 'README.md', mode: 'symlink' },
    'README.md': '# readme\n',
    'empty.txt': '',
  };
  for (let i = 0; i < 60; i++) out[`src/m${i % 7}/f${i}.ts`] = `export const v${i} = ${i};\n`.repeat(1 + (i % 50) * 40);
  return out;
}

describe('checkout through the write pool', () => {
  it('writes every file with its mode; git status trusts the index (stat data from the workers)', async () => {
    const r = await repo(files(), { packed: true });
    const g = await openRepo(r.dir);
    const path = join(tempDir(), 'wt');
    await addWorktree(g, { path, commit: r.head() });
    expect(runGit(path, 'status', '--porcelain', '-uall')).toBe('');
    // No file had to be hashed again: the index's stat data matches what is on disk.
    expect(runGit(path, 'diff-files', '--name-only')).toBe('');
    expect(readFileSync(join(path, 'src/m3/f10.ts'), 'utf8')).toBe('export const v10 = 10;\n'.repeat(401));
    expect(statSync(join(path, 'bin/run.sh')).mode & 0o111).not.toBe(0);
    expect(statSync(join(path, 'README.md')).mode & 0o111).toBe(0);
  });

  it('replacing files (a worktree moved to another commit) goes through the pool too', async () => {
    const r = await repo(files(), { packed: true });
    const g = await openRepo(r.dir);
    const first = r.head();
    const path = join(tempDir(), 'wt');
    const wt = await addWorktree(g, { path, commit: first });
    r.git('rm', '-q', '-r', 'src/m1');
    writeFileSync(join(r.dir, 'src/m1'), 'now a file\n');
    writeFileSync(join(r.dir, 'src/m2/f2.ts'), 'changed\n');
    r.git('add', '-A');
    r.git('commit', '-q', '-m', 'second');
    const second = r.head();
    await setWorktreeHead(g, wt, { commit: second, entries: await listTree(g, await treeOfCommit(g, second)) });
    expect(runGit(path, 'status', '--porcelain', '-uall')).toBe('');
    expect(readFileSync(join(path, 'src/m1'), 'utf8')).toBe('now a file\n');
  });

  it('a write that fails ends as the fs error (code and path), after the workers stop', async () => {
    const r = await repo(files(), { packed: true });
    const g = await openRepo(r.dir);
    const entries: TreeEntry[] = await listTree(g, await treeOfCommit(g, r.head()));
    const root = tempDir();
    // A file already there: open(…, 'wx') fails with EEXIST in a worker.
    const victim = entries.find((e) => e.path === 'src/m4/f11.ts')!;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(root, 'src/m4'), { recursive: true });
    writeFileSync(join(root, victim.path), 'in the way\n');
    await expect(checkoutEntries(g, root, entries)).rejects.toMatchObject({ code: 'EEXIST', path: join(root, victim.path) });
    expect(readFileSync(join(root, victim.path), 'utf8')).toBe('in the way\n');
  });
});
