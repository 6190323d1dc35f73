// Deleting refs and pointing HEAD under git's lock protocol, judged by native git: for-each-ref,
// reflog, packed-refs' bytes, fsck --strict; a lock another process holds changes nothing.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deleteRef, deleteRefIfAt, listBranches, openRepo, setSymbolicRef } from '../../src/git/index.js';
import { reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';

const repo = reposAfterEach();

/** A repository with `main` and two more commits on branches; `pack` runs `git pack-refs --all` first. */
async function branches(pack: boolean): Promise<{ r: TestRepo; first: string; second: string }> {
  const r = await repo({ 'a.txt': 'a\n' });
  const first = r.head();
  r.git('commit', '-q', '--allow-empty', '-m', 'second');
  const second = r.head();
  r.git('branch', 'scion/deep/job', first);
  r.git('branch', 'keep', first);
  r.git('tag', '-a', '-m', 'annotated', 'v1', first);
  if (pack) r.git('pack-refs', '--all');
  return { r, first, second };
}

/** Every ref native git sees, with its value. */
const refsOf = (r: TestRepo) => r.git('for-each-ref', '--format=%(refname) %(objectname)');
const packedOf = (r: TestRepo) => readFileSync(join(r.dir, '.git/packed-refs'), 'utf8');

describe('deleteRef', () => {
  it('deletes a loose ref with its reflog, and the folders it leaves empty (never refs/heads)', async () => {
    const { r, first } = await branches(false);
    expect(r.git('reflog', 'exists', 'refs/heads/scion/deep/job')).toBe('');
    await deleteRef(await openRepo(r.dir), 'refs/heads/scion/deep/job', first);
    expect(refsOf(r)).not.toContain('refs/heads/scion/');
    expect(() => r.git('reflog', 'exists', 'refs/heads/scion/deep/job')).toThrow();
    expect(existsSync(join(r.dir, '.git/refs/heads/scion'))).toBe(false);
    expect(existsSync(join(r.dir, '.git/logs/refs/heads/scion'))).toBe(false);
    expect(existsSync(join(r.dir, '.git/refs/heads'))).toBe(true);
    expect(existsSync(join(r.dir, '.git/refs/heads/scion/deep/job.lock'))).toBe(false);
    r.git('fsck', '--strict');
    // The name is free again for native git.
    r.git('branch', 'scion/deep/job');
  });

  it('deletes a packed ref by rewriting packed-refs without its line (and a tag its peeled line), every other line kept', async () => {
    const { r, first } = await branches(true);
    const before = packedOf(r);
    const g = await openRepo(r.dir);
    await deleteRef(g, 'refs/heads/scion/deep/job', first);
    expect(packedOf(r)).toBe(before.replace(`${first} refs/heads/scion/deep/job\n`, ''));
    const tag = r.git('rev-parse', 'v1');
    await deleteRef(g, 'refs/tags/v1', tag);
    expect(packedOf(r)).toBe(before.replace(`${first} refs/heads/scion/deep/job\n`, '').replace(`${tag} refs/tags/v1\n^${first}\n`, ''));
    expect(refsOf(r)).toBe([`refs/heads/keep ${first}`, `refs/heads/main ${r.head()}`].join('\n'));
    expect(existsSync(join(r.dir, '.git/packed-refs.lock'))).toBe(false);
    expect(existsSync(join(r.dir, '.git/packed-refs.new'))).toBe(false);
    // The folder made to hold the lock of a ref that was only packed goes too.
    expect(existsSync(join(r.dir, '.git/refs/heads/scion'))).toBe(false);
    r.git('fsck', '--strict');
  });

  it('deletes a ref that is both packed and loose: neither value is left behind', async () => {
    const { r, first, second } = await branches(true);
    r.git('update-ref', 'refs/heads/keep', second);
    await deleteRef(await openRepo(r.dir), 'refs/heads/keep', second);
    expect(refsOf(r)).not.toContain('refs/heads/keep');
    expect(packedOf(r)).not.toContain('refs/heads/keep');
    expect(() => r.git('rev-parse', '--verify', '-q', 'refs/heads/keep')).toThrow();
    expect(r.git('rev-parse', 'scion/deep/job')).toBe(first);
    r.git('fsck', '--strict');
  });

  it('refuses with ref-moved, changing nothing, when the ref holds another value or is gone', async () => {
    for (const pack of [false, true]) {
      const { r, first, second } = await branches(pack);
      const g = await openRepo(r.dir);
      const refs = refsOf(r);
      const packed = pack ? packedOf(r) : null;
      const err = await deleteRef(g, 'refs/heads/keep', second).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ kind: 'ref-moved', data: { ref: 'refs/heads/keep', expected: second, actual: first } });
      const gone = expect.objectContaining({ kind: 'ref-moved', data: expect.objectContaining({ actual: null }) });
      await expect(deleteRef(g, 'refs/heads/none', first)).rejects.toThrow(gone);
      expect(await deleteRefIfAt(g, 'refs/heads/keep', second)).toBe(false);
      expect(refsOf(r)).toBe(refs);
      if (packed !== null) expect(packedOf(r)).toBe(packed);
      expect(r.git('reflog', 'exists', 'refs/heads/keep')).toBe('');
      expect(existsSync(join(r.dir, '.git/refs/heads/keep.lock'))).toBe(false);
      expect(existsSync(join(r.dir, '.git/packed-refs.lock'))).toBe(false);
      expect(await deleteRefIfAt(g, 'refs/heads/keep', first)).toBe(true);
      r.git('fsck', '--strict');
    }
  });

  it('fails with locked, changing nothing, while another process holds <ref>.lock or packed-refs.lock; works once it is gone', async () => {
    for (const lockName of ['refs/heads/keep.lock', 'packed-refs.lock']) {
      const { r, second } = await branches(true);
      r.git('update-ref', 'refs/heads/keep', second); // loose over packed: both files must stay
      const g = await openRepo(r.dir);
      const lock = join(r.dir, '.git', lockName);
      // What a native git holds while it changes the ref (or packs refs): an empty lock file.
      writeFileSync(lock, '');
      const refs = refsOf(r);
      const packed = packedOf(r);
      let err: unknown = null;
      try {
        await deleteRef(g, 'refs/heads/keep', second);
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ kind: 'locked', data: { lock } });
      expect(refsOf(r)).toBe(refs);
      expect(packedOf(r)).toBe(packed);
      expect(existsSync(join(r.dir, '.git/refs/heads/keep'))).toBe(true);
      expect(r.git('reflog', 'exists', 'refs/heads/keep')).toBe('');
      // The other process's lock is left in place; ours (the other one) is released.
      expect(existsSync(lock)).toBe(true);
      const other = lockName === 'packed-refs.lock' ? 'refs/heads/keep.lock' : 'packed-refs.lock';
      expect(existsSync(join(r.dir, '.git', other))).toBe(false);
      unlinkSync(lock);
      await deleteRef(g, 'refs/heads/keep', second);
      expect(refsOf(r)).not.toContain('refs/heads/keep');
      r.git('fsck', '--strict');
    }
  });

  it('waits for a lock another process holds for a moment, as long as git would (core.packedRefsTimeout), then deletes', async () => {
    for (const [lockName, setting] of [
      ['refs/heads/keep.lock', 'core.filesRefLockTimeout'],
      ['packed-refs.lock', 'core.packedRefsTimeout'],
    ] as const) {
      const { r, first } = await branches(true);
      r.git('config', setting, '20000');
      const lock = join(r.dir, '.git', lockName);
      writeFileSync(lock, '');
      // Released by its holder while scion waits (the lock is there when deleteRef first tries it).
      const deleting = deleteRef(await openRepo(r.dir), 'refs/heads/keep', first);
      let waited = false;
      setTimeout(() => {
        // The ref is still there while the lock is held: deleteRef is waiting, not done.
        waited = refsOf(r).includes('refs/heads/keep');
        unlinkSync(lock);
      }, 300);
      await deleting;
      expect(waited).toBe(true);
      expect(refsOf(r)).not.toContain('refs/heads/keep');
      expect(existsSync(lock)).toBe(false);
      r.git('fsck', '--strict');
    }
  });

  it('stops waiting when the signal fires: kind locked, nothing changed, the lock left to its holder', async () => {
    const { r, first, second } = await branches(false);
    r.git('config', 'core.filesRefLockTimeout', '-1');
    const lock = join(r.dir, '.git/refs/heads/keep.lock');
    writeFileSync(lock, '');
    const stop = new AbortController();
    const g = await openRepo(r.dir);
    const { updateRef } = await import('../../src/git/index.js');
    const updating = updateRef(g, 'refs/heads/keep', second, first, { signal: stop.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    setTimeout(() => stop.abort(), 200);
    expect(await updating).toMatchObject({ kind: 'locked', data: { lock } });
    expect(r.git('rev-parse', 'keep')).toBe(first);
    expect(existsSync(lock)).toBe(true);
  });

  it('holds off a native git transaction on the same ref: kind locked while `git update-ref --stdin` has prepared it', async () => {
    const { r, first, second } = await branches(false);
    const g = await openRepo(r.dir);
    const { spawn } = await import('node:child_process');
    const { gitEnv } = await import('../support/git-repo.js');
    const git = spawn('git', ['update-ref', '--stdin'], { cwd: r.dir, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const prepared = new Promise<void>((resolve) => git.stdout.on('data', (d: Buffer) => d.toString().includes('prepare') && resolve()));
    git.stdin.write(`start\nupdate refs/heads/keep ${second} ${first}\nprepare\n`);
    await prepared;
    await expect(deleteRef(g, 'refs/heads/keep', first)).rejects.toThrow(expect.objectContaining({ kind: 'locked' }));
    git.stdin.end('commit\n');
    await new Promise((resolve) => git.on('close', resolve));
    expect(r.git('rev-parse', 'keep')).toBe(second);
    r.git('fsck', '--strict');
  });

  it('replaces a packed-refs.new a killed writer left, and refuses a symbolic ref', async () => {
    const { r, first } = await branches(true);
    writeFileSync(join(r.dir, '.git/packed-refs.new'), 'half written');
    const g = await openRepo(r.dir);
    await deleteRef(g, 'refs/heads/keep', first);
    expect(existsSync(join(r.dir, '.git/packed-refs.new'))).toBe(false);
    expect(packedOf(r)).not.toContain('refs/heads/keep');
    r.git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    await expect(deleteRef(g, 'refs/heads/alias', r.head())).rejects.toThrow(expect.objectContaining({ kind: 'bad-ref' }));
    expect(r.git('symbolic-ref', 'refs/heads/alias')).toBe('refs/heads/main');
    r.git('fsck', '--strict');
  });
});

describe('listBranches and setSymbolicRef', () => {
  it('lists loose and packed branches as native git does, without lock files', async () => {
    const { r } = await branches(true);
    r.git('branch', 'loose/one');
    writeFileSync(join(r.dir, '.git/refs/heads/other.lock'), '');
    expect(listBranches(await openRepo(r.dir))).toEqual(r.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n'));
  });

  it('points HEAD at another branch under HEAD.lock, and fails with locked while it is held', async () => {
    const { r } = await branches(false);
    const g = await openRepo(r.dir);
    await setSymbolicRef(g, 'HEAD', 'refs/heads/keep');
    expect(r.git('symbolic-ref', 'HEAD')).toBe('refs/heads/keep');
    writeFileSync(join(r.dir, '.git/HEAD.lock'), '');
    await expect(setSymbolicRef(g, 'HEAD', 'refs/heads/main')).rejects.toThrow(expect.objectContaining({ kind: 'locked' }));
    expect(r.git('symbolic-ref', 'HEAD')).toBe('refs/heads/keep');
    await expect(setSymbolicRef(g, 'HEAD', 'refs/heads/a..b')).rejects.toThrow(expect.objectContaining({ kind: 'bad-ref' }));
    r.git('fsck', '--strict');
  });
});
