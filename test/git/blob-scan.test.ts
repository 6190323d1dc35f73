// Scanning many blobs (git/blob-scan.ts): in pack order on worker threads, answered in the caller's
// order. Whatever the tree holds (deltas, a REF_DELTA whose base is in another pack, loose objects,
// UTF-16, binary files, LFS pointers, CRLF, one blob at several paths), the answers are those of
// reading each blob on the main thread; a pack `git repack -a -d` replaces mid-scan, damaged bytes,
// a dying worker and an interrupt each end as a plain read would, or as an error, never a hang.
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isGitError,
  listTree,
  openRepo,
  probeBlob,
  resolveCommit,
  scanBlobs,
  treeOfCommit,
  type BlobProbe,
  type OpenRepoOptions,
  type ScanBlobsOptions,
  type ScannedBlob,
} from '../../src/git/index.js';
import { repoState } from '../../src/git/repo.js';
import { reposAfterEach } from '../support/cleanups.js';
import { writeRepoFiles, type TestRepo } from '../support/git-repo.js';
import { refDeltaPack } from '../support/packs.js';

const repo = reposAfterEach();

const NEEDLE = 'legacyLog(';
const LFS = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
const PROBE: BlobProbe = {
  needles: [Buffer.from(NEEDLE, 'utf8'), Buffer.from(NEEDLE, 'utf16le')],
  small: { prefix: Buffer.from('version https://git-lfs.github.com/spec/v1', 'latin1'), below: 1024 },
};

const KINDS = ['text', 'needle', 'utf16', 'utf16-needle', 'binary', 'binary-needle', 'lfs', 'crlf-needle', 'empty', 'big', 'big-needle'] as const;
type Kind = (typeof KINDS)[number];

/** A file of `kind`, different for every `seed`. */
function content(kind: Kind, seed: number): Buffer {
  const line = (i: number) => `line ${i} of file ${seed}: some words that repeat, as code does\n`;
  const text = (n: number) => Array.from({ length: n }, (_, i) => line(i)).join('');
  switch (kind) {
    case 'text':
      return Buffer.from(text(5 + (seed % 40)));
    case 'needle':
      return Buffer.from(`${text(seed % 30)}${NEEDLE}${seed});\n${text(3)}`);
    case 'utf16':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`caf\u00e9 ${text(4)}`, 'utf16le')]);
    case 'utf16-needle':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${text(3)}${NEEDLE}1)\n`, 'utf16le')]);
    case 'binary':
      return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, seed & 255]), Buffer.from(text(2))]);
    case 'binary-needle':
      return Buffer.concat([Buffer.from(`x\0${seed}`), Buffer.from(NEEDLE)]);
    case 'lfs':
      return Buffer.from(`${LFS}# ${seed}\n`);
    case 'crlf-needle':
      return Buffer.from(`${text(2)}${NEEDLE}2);\n`.replaceAll('\n', '\r\n'));
    case 'empty':
      return Buffer.alloc(0);
    case 'big':
      return Buffer.from(text(3000 + seed));
    case 'big-needle':
      return Buffer.from(`${text(4000 + seed)}${NEEDLE}3);\n`);
  }
}

/** The answer a plain read gives: the bytes when the probe wants them, and git's binary test. */
function expected(bytes: Buffer): { bytes: Buffer | null; binary: boolean } {
  const found = probeBlob(bytes, PROBE);
  // The probe's own test, said independently: a needle's bytes, or a small LFS pointer.
  const wanted =
    bytes.includes(Buffer.from(NEEDLE)) ||
    bytes.includes(Buffer.from(NEEDLE, 'utf16le')) ||
    (bytes.length < 1024 && bytes.toString('latin1').startsWith(LFS.slice(0, 40)));
  expect(found.match).toBe(wanted);
  return { bytes: found.match ? bytes : null, binary: found.binary };
}

/** Every answer of a scan of `oids`, in a repository opened with `opened` (how it reads packs), with the scan's `opts`. */
async function scanAll(
  r: TestRepo,
  oids: readonly string[],
  opts: ScanBlobsOptions,
  opened: OpenRepoOptions = {},
): Promise<{ bytes: Buffer | null; binary: boolean }[]> {
  const g = await openRepo(r.dir, opened);
  const out: { bytes: Buffer | null; binary: boolean }[] = [];
  for await (const got of scanBlobs(g, oids, PROBE, opts)) out.push({ bytes: got.bytes && Buffer.from(got.bytes), binary: got.binary });
  return out;
}

async function headBlobs(r: TestRepo): Promise<{ path: string; oid: string }[]> {
  const g = await openRepo(r.dir);
  const sha = await resolveCommit(g, 'HEAD');
  return (await listTree(g, await treeOfCommit(g, sha!))).map((e) => ({ path: e.path, oid: e.oid }));
}

describe('scanBlobs', () => {
  it('answers as plain reads do, in the caller order, whatever the tree holds and however it is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.nat(50)), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(39), { maxLength: 6 }),
        fc.record({ batch: fc.integer({ min: 1, max: 9 }), depth: fc.integer({ min: 1, max: 3 }), workers: fc.integer({ min: 1, max: 3 }) }),
        fc.boolean(),
        async (specs, dupOf, cut, onDisk) => {
          const files = new Map<string, Buffer>();
          specs.forEach(([kind, seed], i) => files.set(`d${i % 4}/f${i}.${kind}`, content(kind, seed)));
          // One blob at several paths.
          dupOf.forEach((k, i) => files.set(`dup/${i}`, [...files.values()][k % specs.length]!));
          const r = await repo(Object.fromEntries(files));
          // History, packed with deltas: the files change a little in two more commits.
          for (let rev = 0; rev < 2; rev++) {
            const changed: Record<string, Buffer> = {};
            [...files].forEach(([p, b], i) => {
              if ((i + rev) % 3 === 0 && !p.startsWith('dup/')) changed[p] = Buffer.concat([b, Buffer.from(`rev ${rev}\n`)]);
            });
            await writeRepoFiles(r.dir, changed);
            for (const [p, b] of Object.entries(changed)) files.set(p, b);
            r.git('add', '-A');
            r.git('commit', '-qm', `rev ${rev}`, '--allow-empty');
          }
          r.git('gc', '-q', '--aggressive');
          // A REF_DELTA whose base is in the other pack, and loose objects written after the pack.
          const [basePath, base] = [...files][0]!;
          const refOid = refDeltaPack(r.dir, r.git('rev-parse', `HEAD:${basePath}`), base, Buffer.from(`${NEEDLE}9);\n`));
          files.set('ref/delta.txt', Buffer.concat([base, Buffer.from(`${NEEDLE}9);\n`)]));
          r.git('update-index', '--add', '--cacheinfo', `100644,${refOid},ref/delta.txt`);
          await writeRepoFiles(r.dir, { 'loose/a.txt': `loose ${NEEDLE}1)\n`, 'loose/b.bin': Buffer.from('lo\0ose') });
          files.set('loose/a.txt', Buffer.from(`loose ${NEEDLE}1)\n`)).set('loose/b.bin', Buffer.from('lo\0ose'));
          r.git('add', 'loose');
          r.git('commit', '-qm', 'loose');

          const blobs = await headBlobs(r);
          expect(blobs.map((b) => b.path).sort()).toEqual([...files.keys()].sort());
          const want = blobs.map((b) => expected(files.get(b.path)!));
          // Packs read at offsets through a small window, indexes in pieces (then whole, to be shared).
          const opened: OpenRepoOptions = onDisk ? { packs: { wholePackLimit: 0, readAhead: 8192, wholeIndexLimit: 0 } } : {};
          let started = 0;
          const scan: ScanBlobsOptions = { ...cut, minBlobs: 0, onWorker: () => started++ };
          const oids = blobs.map((b) => b.oid);
          expect(await scanAll(r, oids, scan, opened)).toEqual(want);
          expect(started).toBeGreaterThan(0);
          // The same answers on the main thread alone, and in another order.
          expect(await scanAll(r, oids, { ...scan, workers: 0 }, opened)).toEqual(want);
          expect(await scanAll(r, [...oids].reverse(), scan, opened)).toEqual([...want].reverse());
        },
      ),
      { numRuns: 6 },
    );
  });

  describe('a pack `git repack -a -d` replaces during the scan', () => {
    async function packed() {
      const files: Record<string, string> = {};
      for (let i = 0; i < 60; i++) files[`f${i}.txt`] = `file ${i}\n${i % 4 === 0 ? NEEDLE : 'nothing'}\n`.repeat(20);
      const r = await repo(files, { packed: true });
      const open = () => openRepo(r.dir, { packs: { wholePackLimit: 0 }, scan: { minBlobs: 0, batch: 4, depth: 1, workers: 2 } });
      const repack = () => {
        writeFileSync(join(r.dir, 'new.txt'), 'after the repack\n');
        r.git('add', 'new.txt');
        r.git('commit', '-qm', 'new');
        const before = readdirSync(join(r.dir, '.git/objects/pack')).filter((n) => n.endsWith('.pack'));
        r.git('repack', '-a', '-d', '-q');
        expect(readdirSync(join(r.dir, '.git/objects/pack')).filter((n) => n.endsWith('.pack'))).not.toEqual(before);
      };
      return { r, files, blobs: await headBlobs(r), repack, open };
    }
    const answers = (got: readonly (ScannedBlob | void)[]) => got.map((a) => a && { bytes: a.bytes && Buffer.from(a.bytes), binary: a.binary });

    it('after the workers opened it: they read on from the removed file', async () => {
      const { files, blobs, repack, open } = await packed();
      const scan = scanBlobs(
        await open(),
        blobs.map((b) => b.oid),
        PROBE,
      );
      // The scan is planned, and the workers sent their first batches, on the first answer.
      const got = [(await scan.next()).value];
      repack();
      for await (const a of scan) got.push(a);
      expect(answers(got)).toEqual(blobs.map((b) => expected(Buffer.from(files[b.path]!))));
    });

    it('before the workers opened it: the main thread reads what they could not, in the new pack', async () => {
      const { files, blobs, repack, open } = await packed();
      const g = await open();
      // The store knows the pack by its .idx only; the scan is planned on it after it is gone.
      expect(repoState(g).store.has(blobs[0]!.oid)).toBe(true);
      repack();
      const got = [];
      for await (const a of scanBlobs(
        g,
        blobs.map((b) => b.oid),
        PROBE,
      ))
        got.push(a);
      expect(answers(got)).toEqual(blobs.map((b) => expected(Buffer.from(files[b.path]!))));
    });
  });

  it('damaged bytes end as kind corrupt at the same blob as a plain read, with workers or without', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`f${String(i).padStart(2, '0')}.txt`] = `file ${i}: ${'words and more words '.repeat(30 + i)}\n${NEEDLE}\n`;
    const r = await repo(files, { packed: true });
    const blobs = await headBlobs(r);
    const pack = readdirSync(join(r.dir, '.git/objects/pack')).find((n) => n.endsWith('.pack'))!;
    const path = join(r.dir, '.git/objects/pack', pack);
    const bytes = readFileSync(path);
    // Scribble over the second half of the pack's objects (headers and zlib streams), keep the trailer.
    for (let i = Math.floor(bytes.length / 2); i < bytes.length - 40; i += 61) bytes[i] = (bytes[i] as number) ^ 0x5a;
    chmodSync(path, 0o644);
    writeFileSync(path, bytes);
    /** How many blobs were answered before the scan threw, and what. */
    const outcome = async (workers: number): Promise<{ answered: number; kind: unknown }> => {
      const g = await openRepo(r.dir, { scan: { minBlobs: 0, batch: 3, workers } });
      let answered = 0;
      try {
        for await (const a of scanBlobs(
          g,
          blobs.map((b) => b.oid),
          PROBE,
        )) {
          expect(a.bytes?.toString()).toBe(files[blobs[answered]!.path]);
          answered++;
        }
        return { answered, kind: null };
      } catch (e) {
        expect(isGitError(e, 'corrupt')).toBe(true);
        return { answered, kind: (e as { kind: string }).kind };
      }
    };
    const plain = await outcome(0);
    expect(plain.kind).toBe('corrupt');
    expect(await outcome(2)).toEqual(plain);
  });

  describe('workers that die', () => {
    async function tree() {
      const files: Record<string, string> = {};
      for (let i = 0; i < 60; i++) files[`f${i}.txt`] = `file ${i}\n${i % 3 === 0 ? `${NEEDLE}${i});\n` : ''}`;
      const r = await repo(files, { packed: true });
      const blobs = await headBlobs(r);
      return { r, oids: blobs.map((b) => b.oid), want: blobs.map((b) => expected(Buffer.from(files[b.path]!))) };
    }
    const scan = { minBlobs: 0, batch: 2, depth: 1, workers: 2 };

    it('one that dies with a batch unanswered: that batch and the rest are read on the main thread, with the answers of a plain read', async () => {
      const { r, oids, want } = await tree();
      const dropped: string[] = [];
      let died!: () => void;
      const death = new Promise<void>((res) => (died = res));
      let killed = false;
      const onWorker = (w: Worker) => {
        // The first worker sent a batch dies then, without ever getting it: the scan waits for that batch.
        const post = w.postMessage.bind(w);
        w.postMessage = (m: unknown, transfer?: Parameters<Worker['postMessage']>[1]) => {
          if (killed || typeof m !== 'object' || m === null || !('oids' in m)) return post(m, transfer);
          killed = true;
          void w.terminate().then(() => died());
        };
      };
      const g = await openRepo(r.dir);
      const it = scanBlobs(g, oids, PROBE, { ...scan, onWorker, onWorkersDropped: (why) => dropped.push(why) });
      // The first answer starts the workers; the rest is asked for once one of them is gone.
      const got = [(await it.next()).value as ScannedBlob];
      await death;
      for await (const a of it) got.push(a);
      expect(got.map((a) => ({ bytes: a.bytes && Buffer.from(a.bytes), binary: a.binary }))).toEqual(want);
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatch(/a worker thread reading blobs of .* ended .*main thread/);
    });

    it('none that gets ready (a broken install): the scan is read on the main thread, and says so', async () => {
      const { r, oids, want } = await tree();
      const dropped: string[] = [];
      const exited: Promise<unknown>[] = [];
      const g = await openRepo(r.dir);
      const it = scanBlobs(g, oids, PROBE, {
        ...scan,
        // Each worker ends as soon as it is made, before its module is loaded.
        onWorker: (w) => {
          exited.push(new Promise((res) => w.once('exit', res)));
          void w.terminate();
        },
        onWorkersDropped: (why) => dropped.push(why),
      });
      // The first answer starts the workers; the rest is asked for once they are gone.
      const got = [(await it.next()).value as ScannedBlob];
      expect(exited).toHaveLength(2);
      await Promise.all(exited);
      for await (const a of it) got.push(a);
      expect(got.map((a) => ({ bytes: a.bytes && Buffer.from(a.bytes), binary: a.binary }))).toEqual(want);
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatch(/no worker thread reading blobs of .* could start/);
    });
  });

  it('an interrupt ends the scan early and terminates its workers', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`f${i}.txt`] = `file ${i}\n${'text '.repeat(200)}\n`;
    const r = await repo(files, { packed: true });
    const blobs = await headBlobs(r);
    const exited: Promise<number>[] = [];
    const onWorker = (w: Worker) => exited.push(new Promise<number>((res) => w.once('exit', res)));
    const g = await openRepo(r.dir, { scan: { minBlobs: 0, batch: 2, depth: 1, workers: 2, onWorker } });
    const stop = new AbortController();
    let answered = 0;
    for await (const a of scanBlobs(
      g,
      blobs.map((b) => b.oid),
      PROBE,
      { signal: stop.signal },
    )) {
      expect(a.bytes).toBeNull();
      if (++answered === 5) stop.abort();
    }
    expect(answered).toBe(5);
    expect(exited).toHaveLength(2);
    await Promise.all(exited);
  });
});
