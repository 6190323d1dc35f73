import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isGitError, hashBlob, ObjectBatch, openRepo, readBlob, writeBlob } from '../../src/git/index.js';
import { gitEnv, type TestRepo } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

/** Every blob reachable from any ref, with native git's idea of its content. */
function allBlobs(r: TestRepo): string[] {
  return r
    .git('rev-list', '--objects', '--all')
    .split('\n')
    .map((l) => l.split(' ')[0] as string)
    .filter((oid) => oid && r.git('cat-file', '-t', oid) === 'blob');
}

function catBlob(r: TestRepo, oid: string): Buffer {
  return execFileSync('git', ['cat-file', 'blob', oid], { cwd: r.dir, env: gitEnv() });
}

/** 12 revisions of similar files, so `git gc` stores most blobs as deltas on each other. */
async function historyRepo(): Promise<TestRepo> {
  const r = await repo({ 'a.txt': 'start\n' });
  let text = '';
  for (let i = 0; i < 40; i++) text += `line ${i} of a file that changes a little in every commit\n`;
  for (let rev = 0; rev < 12; rev++) {
    text = text.replace(`line ${rev * 3}`, `LINE ${rev * 3} (rev ${rev})`);
    writeFileSync(join(r.dir, 'big.txt'), text);
    writeFileSync(join(r.dir, `f${rev % 3}.txt`), `${text}\n${rev}`);
    r.git('add', '-A');
    r.git('commit', '-q', '-m', `rev ${rev}`);
  }
  return r;
}

describe('hashBlob', () => {
  it('gives the oid `git hash-object` gives, for text, binary and empty content', async () => {
    const r = await repo({});
    for (const content of [Buffer.from('hello\n'), Buffer.from([0, 255, 1, 2, 10, 13]), Buffer.alloc(0)]) {
      writeFileSync(join(r.dir, 'x'), content);
      expect(hashBlob(content)).toBe(r.git('hash-object', 'x'));
    }
  });
});

describe('readBlob', () => {
  it('reads loose blobs byte for byte', async () => {
    const bin = Buffer.from([0, 1, 2, 200, 255, 10]);
    const r = await repo({ 'a.txt': 'alpha\n', 'bin.dat': bin });
    const g = await openRepo(r.dir);
    expect(Buffer.from(await readBlob(g, r.git('rev-parse', 'HEAD:a.txt'))).toString()).toBe('alpha\n');
    expect(Buffer.from(await readBlob(g, r.git('rev-parse', 'HEAD:bin.dat')))).toEqual(bin);
  });

  it('reads every blob of a gc-packed history (delta chains) exactly as git cat-file does', async () => {
    const r = await historyRepo();
    r.git('gc', '-q', '--aggressive');
    expect(readdirSync(join(r.dir, '.git/objects/pack')).some((f) => f.endsWith('.pack'))).toBe(true);
    // The pack must really hold deltas, or this test would not test delta resolution.
    const verify = r.git(
      'verify-pack',
      '-v',
      ...readdirSync(join(r.dir, '.git/objects/pack'))
        .filter((f) => f.endsWith('.idx'))
        .map((f) => `.git/objects/pack/${f}`),
    );
    expect(verify).toMatch(/chain length = [2-9]/);
    const g = await openRepo(r.dir);
    const blobs = allBlobs(r);
    expect(blobs.length).toBeGreaterThan(20);
    for (const oid of blobs) expect(Buffer.from(await readBlob(g, oid))).toEqual(catBlob(r, oid));
  });

  it('reads packs made of REF_DELTA entries (as fetched packs may be)', async () => {
    const r = await historyRepo();
    // Without --delta-base-offset, pack-objects writes REF_DELTA; then drop everything else.
    const list = execFileSync('git', ['rev-list', '--objects', '--all'], { cwd: r.dir, env: gitEnv() });
    execFileSync('git', ['pack-objects', '-q', '--window=50', '--depth=20', '.git/objects/pack/pack'], { cwd: r.dir, env: gitEnv(), input: list });
    r.git('prune-packed');
    expect(r.git('count-objects', '-v')).toMatch(/^count: 0$/m);
    const g = await openRepo(r.dir);
    for (const oid of allBlobs(r)) expect(Buffer.from(await readBlob(g, oid))).toEqual(catBlob(r, oid));
  });

  it('finds objects through objects/info/alternates', async () => {
    const source = await repo({ 'shared.txt': 'from the source repo\n' }, { packed: true });
    const clone = mkdtempSync(join(tmpdir(), 'scion-alt-'));
    try {
      execFileSync('git', ['clone', '-q', '--shared', source.dir, clone], { env: gitEnv() });
      const g = await openRepo(clone);
      const oid = source.git('rev-parse', 'HEAD:shared.txt');
      expect(readdirSync(join(clone, '.git/objects')).includes('info')).toBe(true);
      expect(Buffer.from(await readBlob(g, oid)).toString()).toBe('from the source repo\n');
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('sees a pack written after the repo was opened (a concurrent gc)', async () => {
    const r = await repo({ 'a.txt': 'a\n' }, { packed: true });
    const g = await openRepo(r.dir);
    await readBlob(g, r.git('rev-parse', 'HEAD:a.txt'));
    writeFileSync(join(r.dir, 'b.txt'), 'new after open\n');
    r.git('add', 'b.txt');
    r.git('commit', '-q', '-m', 'b');
    r.git('gc', '-q');
    expect(Buffer.from(await readBlob(g, r.git('rev-parse', 'HEAD:b.txt'))).toString()).toBe('new after open\n');
  });

  it('reads through a pack that `git repack -a -d` replaced after its .idx was read', async () => {
    const r = await repo({ 'a.txt': 'a\n' }, { packed: true });
    const g = await openRepo(r.dir);
    const a = r.git('rev-parse', 'HEAD:a.txt');
    // Finds the blob in the pack's .idx (writing it is a no-op) without reading the pack itself.
    expect(await writeBlob(g, Buffer.from('a\n'))).toBe(a);
    const before = readdirSync(join(r.dir, '.git/objects/pack')).filter((n) => n.endsWith('.pack'));
    writeFileSync(join(r.dir, 'b.txt'), 'b\n');
    r.git('add', 'b.txt');
    r.git('commit', '-q', '-m', 'b');
    r.git('repack', '-a', '-d', '-q');
    const after = readdirSync(join(r.dir, '.git/objects/pack')).filter((n) => n.endsWith('.pack'));
    expect(after.some((n) => before.includes(n))).toBe(false);
    expect(Buffer.from(await readBlob(g, a)).toString()).toBe('a\n');
  });

  it('throws missing-object for an unknown oid and refuses a non-blob', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const g = await openRepo(r.dir);
    await expect(readBlob(g, 'f'.repeat(40))).rejects.toMatchObject({ kind: 'missing-object' });
    await expect(readBlob(g, r.git('rev-parse', 'HEAD^{tree}'))).rejects.toSatisfy(isGitError);
  });

  it('reports a damaged loose object as corrupt instead of returning garbage', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const oid = r.git('rev-parse', 'HEAD:a.txt');
    const path = join(r.dir, '.git/objects', oid.slice(0, 2), oid.slice(2));
    unlinkSync(path);
    writeFileSync(path, 'not zlib');
    const g = await openRepo(r.dir);
    await expect(readBlob(g, oid)).rejects.toMatchObject({ kind: 'corrupt' });
  });
});

describe('ObjectBatch', () => {
  it("writes a job's objects as one kept pack that git reads and fsck accepts; release drops the .keep", async () => {
    const r = await repo({ 'a.txt': 'a\n', 'd/b.txt': 'b\n' }, { packed: true });
    const g = await openRepo(r.dir);
    const batch = new ObjectBatch(g);
    const blob = batch.blob(Buffer.from('new b\n'));
    const tree = await batch.tree(r.git('rev-parse', 'HEAD^{tree}'), new Map([['d/b.txt', { oid: blob, mode: '100644' }]]));
    const who = { name: 'T', email: 't@x', timestamp: 1700000000, timezoneOffset: 0 };
    const commit = batch.commit({ tree, parents: [r.head()], message: 'm\n', author: who });
    // Nothing on disk before persist.
    expect(r.git('count-objects', '-v')).toMatch(/^count: 0$/m);
    batch.persist('test');
    const packDir = join(r.dir, '.git/objects/pack');
    const keeps = readdirSync(packDir).filter((n) => n.endsWith('.keep'));
    expect(keeps).toHaveLength(1);
    r.git('verify-pack', join(packDir, keeps[0]!.replace(/keep$/, 'idx')));
    // A prune and a full repack leave a kept pack alone, even though nothing reaches its objects yet.
    r.git('gc', '-q', '--prune=now');
    expect(r.git('cat-file', '-t', commit)).toBe('commit');
    r.git('update-ref', 'refs/heads/x', commit);
    batch.release();
    expect(readdirSync(packDir).filter((n) => n.endsWith('.keep'))).toEqual([]);
    expect(r.git('show', 'x:d/b.txt')).toBe('new b');
    r.git('fsck', '--strict', '--no-dangling');
  });
});

describe('writeBlob', () => {
  it('writes a loose object git reads back and fsck accepts; writing it again is a no-op', async () => {
    const r = await repo({ 'a.txt': 'a\n' }, { packed: true });
    const g = await openRepo(r.dir);
    const bytes = Buffer.from('a brand new blob\n\u00e9\n');
    const oid = await writeBlob(g, bytes);
    expect(oid).toBe(hashBlob(bytes));
    expect(catBlob(r, oid)).toEqual(bytes);
    expect(await writeBlob(g, bytes)).toBe(oid);
    expect(r.git('count-objects')).toMatch(/^1 objects/);
    r.git('fsck', '--strict', '--no-dangling');
  });

  it('does not write a blob the pack already has', async () => {
    const r = await repo({ 'a.txt': 'packed content\n' }, { packed: true });
    const g = await openRepo(r.dir);
    expect(await writeBlob(g, Buffer.from('packed content\n'))).toBe(r.git('rev-parse', 'HEAD:a.txt'));
    expect(r.git('count-objects')).toMatch(/^0 objects/);
  });
});
