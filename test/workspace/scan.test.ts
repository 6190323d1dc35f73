// A workspace's scan: base blobs go to the git layer's scan (worker threads), files the job changed
// are tested in memory, each as it is when the caller reaches it; the answers are those of reading
// every path with `read`, in the order given.
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { listTree, openRepo, probeBlob, resolveCommit, treeOfCommit, type BlobProbe } from '../../src/git/index.js';
import { ObjectWorkspace } from '../../src/workspace/objects.js';
import type { ScannedFile } from '../../src/workspace/types.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

const PROBE: BlobProbe = { needles: [Buffer.from('needle')] };

describe('ObjectWorkspace.scan', () => {
  it('answers for base blobs and changed files as `read` does, a change made mid-scan included', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`d${i % 3}/f${String(i).padStart(2, '0')}.txt`] = i % 5 === 0 ? `needle ${i}\n` : `plain ${i}\n`;
    const r = await repo(files, { packed: true });
    let started = 0;
    const g = await openRepo(r.dir, { scan: { minBlobs: 0, batch: 3, workers: 2, onWorker: () => started++ } });
    const entries = await listTree(g, await treeOfCommit(g, (await resolveCommit(g, 'HEAD'))!));
    const ws = new ObjectWorkspace(g, new Map(entries.map((e) => [e.path, e])));
    await ws.write('d0/f00.txt', Buffer.from('changed, no match now\n'));
    await ws.write('d1/f01.txt', Buffer.from('changed: needle\n'));
    await ws.write('new/one.txt', Buffer.from('a new needle\n'));
    expect((await ws.place('d2/f02.txt', null)).ok).toBe(true);

    // Every path, a removed one and one that never was among them.
    const paths = [...ws.paths(), 'd2/f02.txt', 'nowhere.txt'];
    const late = 'd2/f35.txt';
    const got: [string, string | null, boolean][] = [];
    for await (const f of ws.scan(paths, PROBE)) {
      got.push([f.path, f.bytes && Buffer.from(f.bytes).toString(), f.binary]);
      // The caller changes a file the scan has not reached yet: its answer is the new content.
      if (f.path === 'd0/f03.txt') await ws.write(late, Buffer.from('late needle\n'));
    }
    expect(started).toBeGreaterThan(0);
    const want: [string, string | null, boolean][] = [];
    for (const p of paths) {
      const bytes = await ws.read(p);
      if (bytes === null) continue;
      const found = probeBlob(bytes, PROBE);
      want.push([p, found.match ? Buffer.from(bytes).toString() : null, found.binary]);
    }
    expect(got).toEqual(want);
    expect(got.find(([p]) => p === late)?.[1]).toBe('late needle\n');
    expect(got.map(([p]) => p)).not.toContain('d2/f02.txt');
  });
});

describe('ObjectWorkspace.scan without worker threads', () => {
  it('answers as `read` does when its workers cannot start, and says so on its log', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`f${String(i).padStart(2, '0')}.txt`] = i % 5 === 0 ? `needle ${i}\n` : `plain ${i}\n`;
    const r = await repo(files, { packed: true });
    const exited: Promise<unknown>[] = [];
    // Each worker ends as soon as it is made, as in an install whose worker module is missing.
    const onWorker = (w: Worker) => {
      exited.push(new Promise((res) => w.once('exit', res)));
      void w.terminate();
    };
    const g = await openRepo(r.dir, { scan: { minBlobs: 0, batch: 3, workers: 2, onWorker } });
    const entries = await listTree(g, await treeOfCommit(g, (await resolveCommit(g, 'HEAD'))!));
    const said: string[] = [];
    const ws = new ObjectWorkspace(g, new Map(entries.map((e) => [e.path, e])), { log: (m) => said.push(m) });
    const paths = ws.paths();
    const scan = ws.scan(paths, PROBE)[Symbol.asyncIterator]();
    // The first answer starts the workers; the rest is asked for once they are gone.
    const got = [(await scan.next()).value as ScannedFile];
    await Promise.all(exited);
    for (let next = await scan.next(); !next.done; next = await scan.next()) got.push(next.value);
    expect(got.map((f) => [f.path, f.bytes && Buffer.from(f.bytes).toString(), f.binary])).toEqual(
      paths.map((p) => [p, files[p]!.startsWith('needle') ? files[p] : null, false]),
    );
    expect(said).toEqual([expect.stringMatching(/^blob scan: no worker thread reading blobs of .* could start/)]);
  });
});
