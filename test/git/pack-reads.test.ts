// Reading packs at offsets (issue J): packs over the whole-pack limit are read object by object
// through an open handle; REF_DELTA bases may live in another pack; a pack `git repack -a -d`
// deletes while it is open stays readable; damaged bytes end as kind `corrupt`, never a crash.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGitError, openRepo, readBlob } from '../../src/git/index.js';
import { ByteLru } from '../../src/git/lru.js';
import { Pack, packReading, type RawObject } from '../../src/git/pack.js';
import { indexBytes, objectHeader } from '../../src/git/pack-write.js';
import { reposAfterEach } from '../support/cleanups.js';
import { gitEnv, type TestRepo } from '../support/git-repo.js';

const repo = reposAfterEach();
const saved = packReading.wholePackLimit;
beforeEach(() => {
  // Every pack in these tests is "over the limit": read at offsets.
  packReading.wholePackLimit = 0;
});
afterEach(() => {
  packReading.wholePackLimit = saved;
});

async function historyRepo(): Promise<TestRepo> {
  const r = await repo({ 'a.txt': 'start\n' });
  let text = '';
  for (let i = 0; i < 40; i++) text += `line ${i} of a file that changes a little in every commit\n`;
  for (let rev = 0; rev < 10; rev++) {
    text = text.replace(`line ${rev * 3}`, `LINE ${rev * 3} (rev ${rev})`);
    writeFileSync(join(r.dir, 'big.txt'), text);
    writeFileSync(join(r.dir, `f${rev % 3}.txt`), `${text}\n${rev}`);
    r.git('add', '-A');
    r.git('commit', '-q', '-m', `rev ${rev}`);
  }
  r.git('gc', '-q', '--aggressive');
  return r;
}

function blobs(r: TestRepo): string[] {
  return r
    .git('cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)')
    .split('\n')
    .filter((l) => l.endsWith(' blob'))
    .map((l) => l.slice(0, 40));
}

const idxOf = (r: TestRepo): string =>
  join(
    r.dir,
    '.git/objects/pack',
    readdirSync(join(r.dir, '.git/objects/pack')).find((n) => n.endsWith('.idx'))!,
  );

describe('positional pack reads', () => {
  it('reads every blob of a deltified pack at offsets, without loading the pack, as git cat-file does', async () => {
    const r = await historyRepo();
    const pack = Pack.open(idxOf(r), 0, new ByteLru<RawObject>(1 << 20, 1 << 18));
    const all = blobs(r);
    expect(all.length).toBeGreaterThan(10);
    for (const oid of all) {
      const obj = pack.readIndex(pack.indexOf(Buffer.from(oid, 'hex')), () => {
        throw new Error('no external bases here');
      });
      expect(obj.data).toEqual(execFileSync('git', ['cat-file', 'blob', oid], { cwd: r.dir, env: gitEnv() }));
    }
    expect(pack.whole).toBe(false);
    pack.close();
  });

  it('resolves a REF_DELTA whose base lives in another pack', async () => {
    const r = await repo({ 'a.txt': 'hello\n' }, { packed: true });
    const base = r.git('rev-parse', 'HEAD:a.txt');
    const target = Buffer.from('hello\nworld\n');
    // Delta: source size 6, target size 12, copy 6 bytes from offset 0, insert "world\n".
    const delta = Buffer.concat([Buffer.from([6, 12, 0x80 | 0x10, 6, 6]), Buffer.from('world\n')]);
    const head = objectHeader(7, delta.length);
    const body = Buffer.concat([Buffer.from(base, 'hex'), deflateSync(delta)]);
    const header = Buffer.alloc(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(1, 8);
    const packNoTrailer = Buffer.concat([header, head, body]);
    const sha = createHash('sha1').update(packNoTrailer).digest();
    const oid = createHash('sha1')
      .update(Buffer.concat([Buffer.from(`blob ${target.length}\0`), target]))
      .digest('hex');
    const idx = indexBytes([oid], new Map([[oid, 12]]), new Map([[oid, crc32(body, crc32(head))]]), sha);
    const name = join(r.dir, '.git/objects/pack', `pack-${sha.toString('hex')}`);
    writeFileSync(`${name}.pack`, Buffer.concat([packNoTrailer, sha]));
    writeFileSync(`${name}.idx`, idx);
    const g = await openRepo(r.dir);
    expect(Buffer.from(await readBlob(g, oid)).toString()).toBe('hello\nworld\n');
    // (Native git cannot judge this one: it resolves REF_DELTA bases only inside the same pack and
    // keeps thin packs only after `index-pack --fix-thin` appended their bases. The oid is the
    // hash of the expected content, so the bytes are right.)
  });

  it("reads an object whose zlib stream is longer than zlib itself would write it (another packer's stored blocks)", async () => {
    const r = await repo({ 'a.txt': 'hello\n' }, { packed: true });
    // 3000 bytes as one-byte stored blocks: a valid stream six times as long as its content, past
    // the bound a first read of the object takes (so the reader must read it again, whole).
    const loose = Buffer.from('a stream written one byte per block. '.repeat(81).slice(0, 3000));
    const blocks = [...loose].map((b) => Buffer.from([0x00, 0x01, 0x00, 0xfe, 0xff, b]));
    const adler = Buffer.alloc(4);
    adler.writeUInt32BE(adler32(loose));
    const stream = Buffer.concat([Buffer.from([0x78, 0x01]), ...blocks, Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]), adler]);
    const after = randomBytes(20000);
    const objects = [
      { data: loose, body: stream },
      { data: after, body: deflateSync(after) },
    ];
    const header = Buffer.alloc(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(objects.length, 8);
    const parts: Buffer[] = [header];
    const offsets = new Map<string, number>();
    const crcs = new Map<string, number>();
    let at = 12;
    for (const o of objects) {
      const oid = createHash('sha1')
        .update(Buffer.concat([Buffer.from(`blob ${o.data.length}\0`), o.data]))
        .digest('hex');
      const head = objectHeader(3, o.data.length);
      offsets.set(oid, at);
      crcs.set(oid, crc32(o.body, crc32(head)));
      parts.push(head, o.body);
      at += head.length + o.body.length;
    }
    const packNoTrailer = Buffer.concat(parts);
    const sha = createHash('sha1').update(packNoTrailer).digest();
    const oids = [...offsets.keys()].sort();
    const name = join(r.dir, '.git/objects/pack', `pack-${sha.toString('hex')}`);
    writeFileSync(`${name}.pack`, Buffer.concat([packNoTrailer, sha]));
    writeFileSync(`${name}.idx`, indexBytes(oids, offsets, crcs, sha));
    const g = await openRepo(r.dir);
    for (const [k, o] of objects.entries()) {
      const oid = [...offsets.keys()][k]!;
      expect(execFileSync('git', ['cat-file', 'blob', oid], { cwd: r.dir, env: gitEnv() })).toEqual(o.data);
      expect(Buffer.from(await readBlob(g, oid))).toEqual(o.data);
    }
  });

  it('keeps reading a pack `git repack -a -d` deleted while it was open, and finds the new pack', async () => {
    const r = await historyRepo();
    const g = await openRepo(r.dir);
    const all = blobs(r);
    await readBlob(g, all[0]!);
    writeFileSync(join(r.dir, 'new.txt'), 'after the repack\n');
    r.git('add', 'new.txt');
    r.git('commit', '-q', '-m', 'new');
    r.git('repack', '-a', '-d', '-q');
    for (const oid of all) expect(Buffer.from(await readBlob(g, oid))).toEqual(execFileSync('git', ['cat-file', 'blob', oid], { cwd: r.dir, env: gitEnv() }));
    expect(Buffer.from(await readBlob(g, r.git('rev-parse', 'HEAD:new.txt'))).toString()).toBe('after the repack\n');
  });

  it('a damaged pack gives kind corrupt for what it damaged, never another error', async () => {
    const r = await historyRepo();
    const idx = idxOf(r);
    const packPath = idx.replace(/idx$/, 'pack');
    const all = blobs(r);
    const bytes = readFileSync(packPath);
    // Scribble over the middle of the pack (object headers and zlib streams alike), keep the trailer.
    for (let i = 200; i < bytes.length - 40; i += 97) bytes[i] = (bytes[i] as number) ^ 0x5a;
    execFileSync('chmod', ['u+w', packPath]);
    writeFileSync(packPath, bytes);
    const g = await openRepo(r.dir);
    let corrupt = 0;
    for (const oid of all) {
      try {
        await readBlob(g, oid);
      } catch (e) {
        expect(isGitError(e, 'corrupt')).toBe(true);
        corrupt++;
      }
    }
    expect(corrupt).toBeGreaterThan(0);
  });
});

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
