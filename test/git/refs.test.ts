import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIdentity, isValidRefName, openRepo, readRef, updateRef } from '../../src/git/index.js';
import { type TestRepo } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

/** A repo with two commits: `first` (the initial one) and `second` on main. */
async function twoCommits(packed = false): Promise<{ r: TestRepo; first: string; second: string }> {
  const r = await repo({ 'a.txt': 'a\n' });
  const first = r.head();
  r.git('commit', '-q', '--allow-empty', '-m', 'second');
  if (packed) r.git('pack-refs', '--all');
  return { r, first, second: r.head() };
}

describe('readRef', () => {
  it('reads loose and packed refs, follows symbolic refs, and gives null for unknown ones', async () => {
    const { r, first, second } = await twoCommits();
    r.git('branch', 'loose', first);
    r.git('branch', 'packed', first);
    r.git('pack-refs', '--all');
    r.git('update-ref', 'refs/heads/loose', second);
    r.git('symbolic-ref', 'refs/heads/alias', 'refs/heads/loose');
    const g = await openRepo(r.dir);
    expect(existsSync(join(r.dir, '.git/refs/heads/packed'))).toBe(false);
    expect(await readRef(g, 'refs/heads/packed')).toBe(first);
    expect(await readRef(g, 'refs/heads/loose')).toBe(second);
    expect(await readRef(g, 'refs/heads/alias')).toBe(second);
    expect(await readRef(g, 'HEAD')).toBe(second);
    expect(await readRef(g, 'refs/heads/none')).toBeNull();
  });
});

describe('updateRef', () => {
  it('creates a branch (expectedOld null) and moves it with compare-and-swap, loose or packed', async () => {
    for (const packed of [false, true]) {
      const { r, first, second } = await twoCommits(packed);
      const g = await openRepo(r.dir);
      await updateRef(g, 'refs/heads/scion/job', first, null);
      expect(r.git('rev-parse', 'scion/job')).toBe(first);
      await updateRef(g, 'refs/heads/scion/job', second, first);
      expect(r.git('rev-parse', 'scion/job')).toBe(second);
      // main is packed in the second round: CAS must see the packed value.
      await updateRef(g, 'refs/heads/main', first, second);
      expect(r.git('rev-parse', 'refs/heads/main')).toBe(first);
      expect(existsSync(join(r.dir, '.git/refs/heads/scion/job.lock'))).toBe(false);
      r.git('fsck', '--strict');
    }
  });

  it('fails with ref-moved, writing nothing, when another process moved the ref (native git update-ref)', async () => {
    const { r, first, second } = await twoCommits();
    const g = await openRepo(r.dir);
    await updateRef(g, 'refs/heads/job', first, null);
    // A native git moves the branch between our read and our write.
    r.git('update-ref', 'refs/heads/job', second);
    const err = await updateRef(g, 'refs/heads/job', first, first).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'ref-moved', data: { ref: 'refs/heads/job', expected: first, actual: second } });
    expect((err as Error).message).toMatch(/refs\/heads\/job moved/);
    expect(r.git('rev-parse', 'job')).toBe(second);
    // Creating a ref that already exists is a CAS failure too.
    await expect(updateRef(g, 'refs/heads/job', first, null)).rejects.toMatchObject({ kind: 'ref-moved' });
    expect(existsSync(join(r.dir, '.git/refs/heads/job.lock'))).toBe(false);
  });

  it('fails with locked, without writing, while <ref>.lock exists; works once it is gone', async () => {
    const { r, first, second } = await twoCommits();
    const g = await openRepo(r.dir);
    const lock = join(r.dir, '.git/refs/heads/main.lock');
    writeFileSync(lock, '');
    const err = await updateRef(g, 'refs/heads/main', first, second).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'locked' });
    expect((err as Error).message).toContain('main.lock');
    expect(r.git('rev-parse', 'main')).toBe(second);
    // The lock is somebody else's: we must not have removed it.
    expect(existsSync(lock)).toBe(true);
    unlinkSync(lock);
    await updateRef(g, 'refs/heads/main', first, second);
    expect(r.git('rev-parse', 'main')).toBe(first);
  });

  it('never touches HEAD (moving the checked-out branch changes the ref only) and refuses HEAD itself', async () => {
    const { r, first, second } = await twoCommits();
    const g = await openRepo(r.dir);
    const headFile = readFileSync(join(r.dir, '.git/HEAD'), 'utf8');
    await expect(updateRef(g, 'HEAD', first, second)).rejects.toMatchObject({ kind: 'bad-ref' });
    await updateRef(g, 'refs/heads/other', first, null);
    expect(readFileSync(join(r.dir, '.git/HEAD'), 'utf8')).toBe(headFile);
    expect(r.git('rev-parse', 'HEAD')).toBe(second);
  });

  it('refuses invalid names, names clashing with existing refs, unknown objects and non-commits on branches', async () => {
    const { r, first } = await twoCommits();
    r.git('branch', 'scion');
    r.git('branch', 'packedparent');
    r.git('branch', 'deep/child');
    r.git('pack-refs', '--all');
    const g = await openRepo(r.dir);
    for (const bad of ['refs/heads/a..b', 'refs/heads/x.lock', 'refs/heads/sp ace', 'refs/heads/', 'heads/main', 'refs/heads/.hidden', 'refs/heads/a@{1}']) {
      expect([bad, isValidRefName(bad)]).toEqual([bad, false]);
      await expect(updateRef(g, bad, first, null)).rejects.toMatchObject({ kind: 'bad-ref' });
    }
    expect(isValidRefName('refs/heads/scion/rename-logger/web')).toBe(true);
    r.git('branch', 'looseparent');
    await expect(updateRef(g, 'refs/heads/looseparent/job', first, null)).rejects.toMatchObject({ kind: 'bad-ref' });
    await expect(updateRef(g, 'refs/heads/packedparent/job', first, null)).rejects.toMatchObject({ kind: 'bad-ref' });
    await expect(updateRef(g, 'refs/heads/deep', first, null)).rejects.toMatchObject({ kind: 'bad-ref' });
    await expect(updateRef(g, 'refs/heads/x', 'c'.repeat(40), null)).rejects.toMatchObject({ kind: 'missing-object' });
    await expect(updateRef(g, 'refs/heads/x', r.git('rev-parse', 'HEAD^{tree}'), null)).rejects.toMatchObject({ kind: 'invalid-argument' });
    expect(r.git('for-each-ref', '--format=%(refname)', 'refs/heads/x')).toBe('');
  });

  it('appends a reflog entry git reflog shows when asked to', async () => {
    const { r, first, second } = await twoCommits();
    const g = await openRepo(r.dir);
    const who = { name: 'scion', email: 'scion@localhost', timestamp: 1_700_000_000, timezoneOffset: 0 };
    await updateRef(g, 'refs/heads/job', first, null, { log: { who, message: 'scion: create job' } });
    await updateRef(g, 'refs/heads/job', second, first, { log: { who, message: 'scion: rewrite\njob' } });
    expect(r.git('reflog', 'show', '--format=%H %gs', 'refs/heads/job')).toBe(`${second} scion: rewrite job\n${first} scion: create job`);
  });
});

describe('gitIdentity', () => {
  it('prefers the repository config, then the global config; null when neither names the user', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const home = join(r.dir, 'fake-home');
    mkdirSync(home);
    const g = await openRepo(r.dir);
    expect(await gitIdentity(g, { home })).toEqual({ name: 'Test User', email: 'test@example.com' });
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = "Global Person" ; comment\n\temail = global@example.com\n');
    r.git('config', '--unset', 'user.name');
    const g2 = await openRepo(r.dir);
    expect(await gitIdentity(g2, { home })).toEqual({ name: 'Global Person', email: 'test@example.com' });
    r.git('config', '--unset', 'user.email');
    expect(await gitIdentity(await openRepo(r.dir), { home })).toEqual({ name: 'Global Person', email: 'global@example.com' });
    expect(await gitIdentity(await openRepo(r.dir), { home: join(r.dir, 'empty-home') })).toBeNull();
  });
});
