// Writing a job's objects as a kept pack (git/pack-write.ts) where the filesystem refuses hard links
// (FAT, some network and FUSE mounts): the files are renamed into place instead, and a name that is
// taken is still never written over. The refusal is the one thing injected; every other file
// operation is the real one, and git reads what was written.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashObject } from '../../src/git/index.js';
import { writeKeptPack } from '../../src/git/pack-write.js';
import type { RawObject } from '../../src/git/pack.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

/** A `link` that fails as a filesystem without hard links does. */
const refuse = (code: string) => (): never => {
  throw Object.assign(new Error(`${code}: operation not supported, link`), { code });
};

function objects(): Map<string, RawObject> {
  const out = new Map<string, RawObject>();
  for (const text of ['one\n', 'two\n', 'three\n']) {
    const data = Buffer.from(text);
    out.set(hashObject('blob', data), { type: 'blob', data });
  }
  return out;
}

describe('writeKeptPack without hard links', () => {
  it.each(['EPERM', 'ENOTSUP', 'EXDEV', 'ENOSYS', 'EMLINK'])('renames the files into place when link fails with %s', async (code) => {
    const r = await repo({ 'a.txt': 'a\n' });
    const objectsDir = join(r.dir, '.git/objects');
    const objs = objects();
    const written = writeKeptPack(objectsDir, objs, 'test', { link: refuse(code) });
    const packDir = join(objectsDir, 'pack');
    // The .keep, the .pack and the .idx, and no temporary file left behind.
    expect(readdirSync(packDir).sort()).toEqual(['.idx', '.keep', '.pack'].map((ext) => written.idxPath.replace(/.*\//, '').replace(/\.idx$/, ext)).sort());
    expect(readFileSync(written.keepPath, 'utf8')).toMatch(/: test\n$/);
    r.git('verify-pack', written.idxPath);
    for (const [oid, obj] of objs) expect(r.git('cat-file', '-p', oid)).toBe(obj.data.toString().trimEnd());
  });

  it('never writes over a pack of the same name: the same objects go under another name, the first pack untouched', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const objectsDir = join(r.dir, '.git/objects');
    const first = writeKeptPack(objectsDir, objects(), 'first', { link: refuse('EPERM') });
    const before = { pack: statSync(first.idxPath.replace(/idx$/, 'pack')), idx: statSync(first.idxPath), keep: readFileSync(first.keepPath, 'utf8') };
    const second = writeKeptPack(objectsDir, objects(), 'second', { link: refuse('EPERM') });
    expect(second.idxPath).not.toBe(first.idxPath);
    expect(statSync(first.idxPath.replace(/idx$/, 'pack')).ino).toBe(before.pack.ino);
    expect(statSync(first.idxPath).ino).toBe(before.idx.ino);
    expect(readFileSync(first.keepPath, 'utf8')).toBe(before.keep);
    r.git('verify-pack', first.idxPath);
    r.git('verify-pack', second.idxPath);
    expect(readdirSync(join(objectsDir, 'pack')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  });

  it('still refuses a taken name when only the .pack is there (a pack whose .idx never came)', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const objectsDir = join(r.dir, '.git/objects');
    // With hard links: the first pack's name, then its .idx and .keep removed, leaving the .pack alone.
    const first = writeKeptPack(objectsDir, objects(), 'first');
    const packPath = first.idxPath.replace(/idx$/, 'pack');
    const bytes = readFileSync(packPath);
    rmSync(first.idxPath);
    rmSync(first.keepPath);
    const second = writeKeptPack(objectsDir, objects(), 'second', { link: refuse('ENOTSUP') });
    expect(second.idxPath).not.toBe(first.idxPath);
    expect(readFileSync(packPath)).toEqual(bytes);
    r.git('verify-pack', second.idxPath);
  });
});
