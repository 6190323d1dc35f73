// The step cache on a real repository: keys, blobs in git's object store, atomic entries, eviction.
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo, closeRepo, type Repo } from '../../src/git/index.js';
import { keyedEnv, StepCache, stepCacheDir, stepKey, type KeyParts } from '../../src/runner/step-cache.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';

const makeRepo = reposAfterEach();
const cleanups = cleanupAfterEach();

async function setup(): Promise<{ t: TestRepo; repo: Repo; dir: string }> {
  const t = await makeRepo({ 'src/a.ts': 'a\n', 'run.sh': { content: '#!/bin/sh\n', mode: 'exec' } });
  const repo = await openRepo(t.dir);
  cleanups.push(() => closeRepo(repo));
  return { t, repo, dir: stepCacheDir(repo.commonDir) };
}

const PARTS: KeyParts = {
  kind: 'run',
  command: 'npm run codegen',
  env: { PATH: '/usr/bin', GEN: '1' },
  baseTree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  inputs: new Map([['src/a.ts', { oid: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', mode: '100644' }]]),
};

const OK = { status: 0, signal: null, output: 'generated 1 file\n' };

describe('step cache keys', () => {
  it('change with the command, the keyed environment, the base tree and each input file, and nothing else', () => {
    const k = stepKey(PARTS);
    expect(stepKey({ ...PARTS, inputs: new Map(PARTS.inputs) })).toBe(k);
    const variants: KeyParts[] = [
      { ...PARTS, kind: 'verify' },
      { ...PARTS, command: 'npm run codegen ' },
      { ...PARTS, env: { ...PARTS.env, GEN: '2' } },
      { ...PARTS, env: { PATH: '/usr/local/bin', GEN: '1' } },
      { ...PARTS, baseTree: 'a'.repeat(40) },
      { ...PARTS, inputs: new Map([['src/a.ts', { oid: 'b'.repeat(40), mode: '100644' }]]) },
      { ...PARTS, inputs: new Map([['src/a.ts', { oid: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', mode: '100755' }]]) },
      { ...PARTS, inputs: new Map([['src/a.ts', null]]) },
      { ...PARTS, inputs: new Map() },
    ];
    const keys = new Set([k, ...variants.map(stepKey)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('take the step’s own variables, SCION_* and the toolchain’s; never CI run ids, HOME or tokens', () => {
    const env = { PATH: '/bin', LANG: 'C', HOME: '/root', GITHUB_RUN_ID: '123', ANTHROPIC_API_KEY: 'sk', SCION_RECIPE: 'r', NODE_OPTIONS: undefined };
    expect(keyedEnv(env, { GEN: '1', PATH: '/opt/bin' })).toEqual({ PATH: '/opt/bin', LANG: 'C', SCION_RECIPE: 'r', GEN: '1' });
    const nightly = { ...env, GITHUB_RUN_ID: '124', HOME: '/home/ci', ANTHROPIC_API_KEY: 'sk2' };
    expect(stepKey({ ...PARTS, env: keyedEnv(nightly) })).toBe(stepKey({ ...PARTS, env: keyedEnv(env) }));
  });
});

describe('StepCache', () => {
  it('records changes as blobs in git’s object store and replays them; the repository stays sound', async () => {
    const { t, repo, dir } = await setup();
    const cache = new StepCache({ repo, dir, readOnly: false, noRead: false });
    const key = stepKey(PARTS);
    expect(await cache.get(key)).toBeNull();
    await cache.put(key, 'run', PARTS.command, OK, [
      { path: 'src/gen.ts', bytes: Buffer.from('export const gen = 1;\n'), mode: '100644' },
      { path: 'bin/tool', bytes: Buffer.from('#!/bin/sh\necho\n'), mode: '100755' },
      { path: 'src/a.ts', deleted: true },
    ]);
    expect(readdirSync(dir)).toEqual([`${key}.json`]);

    const hit = await cache.get(key);
    expect(hit).not.toBeNull();
    expect(hit!.entry).toMatchObject({ kind: 'run', command: 'npm run codegen', status: 0, output: 'generated 1 file\n' });
    expect(hit!.entry.changes.map((c) => c.path)).toEqual(['bin/tool', 'src/a.ts', 'src/gen.ts']);
    expect(Buffer.from(hit!.files.get('src/gen.ts')!.bytes).toString()).toBe('export const gen = 1;\n');
    expect(hit!.files.get('bin/tool')!.mode).toBe('100755');
    expect(hit!.files.get('src/a.ts')).toBeNull();
    const gen = hit!.entry.changes.find((c) => c.path === 'src/gen.ts')! as { oid: string };
    expect(t.git('cat-file', '-p', gen.oid)).toBe('export const gen = 1;');
    t.git('fsck', '--strict');
  });

  it('--no-cache reads nothing but records; a dry run records nothing', async () => {
    const { repo, dir } = await setup();
    const key = stepKey(PARTS);
    const dry = new StepCache({ repo, dir, readOnly: true, noRead: false });
    await dry.put(key, 'run', PARTS.command, OK, [{ path: 'x', bytes: Buffer.from('x'), mode: '100644' }]);
    expect(existsSync(dir)).toBe(false);
    const noCache = new StepCache({ repo, dir, readOnly: false, noRead: true });
    await noCache.put(key, 'run', PARTS.command, OK, []);
    expect(await noCache.get(key)).toBeNull();
    expect(await new StepCache({ repo, dir, readOnly: false, noRead: false }).get(key)).not.toBeNull();
  });

  it('misses when a recorded blob was pruned, or the entry is torn', async () => {
    const { t, repo, dir } = await setup();
    const cache = new StepCache({ repo, dir, readOnly: false, noRead: false });
    const key = stepKey(PARTS);
    await cache.put(key, 'run', PARTS.command, OK, [{ path: 'new.txt', bytes: Buffer.from('only here\n'), mode: '100644' }]);
    const oid = (await cache.get(key))!.entry.changes[0]! as { oid: string };
    expect(t.git('cat-file', '-t', oid.oid)).toBe('blob');
    rmSync(join(t.dir, '.git', 'objects', oid.oid.slice(0, 2), oid.oid.slice(2)));
    const fresh = await openRepo(t.dir);
    cleanups.push(() => closeRepo(fresh));
    expect(await new StepCache({ repo: fresh, dir, readOnly: false, noRead: false }).get(key)).toBeNull();

    const other = stepKey({ ...PARTS, command: 'other' });
    await cache.put(other, 'run', 'other', OK, []);
    writeFileSync(join(dir, `${other}.json`), '{"version":1,"chan');
    expect(await cache.get(other)).toBeNull();
  });

  it('evicts the least recently used entries past maxBytes', async () => {
    const { repo, dir } = await setup();
    const big = { ...OK, output: 'x'.repeat(1000) };
    const cache = new StepCache({ repo, dir, readOnly: false, noRead: false, maxBytes: 2500 });
    const keys = ['a', 'b', 'c'].map((c) => stepKey({ ...PARTS, command: c }));
    await cache.put(keys[0]!, 'run', 'a', big, []);
    await cache.put(keys[1]!, 'run', 'b', big, []);
    // Make the order explicit: a is older than b, then a is used (get touches it) and so b is oldest.
    utimesSync(join(dir, `${keys[0]}.json`), new Date(1_000_000), new Date(1_000_000));
    utimesSync(join(dir, `${keys[1]}.json`), new Date(2_000_000), new Date(2_000_000));
    expect(await cache.get(keys[0]!)).not.toBeNull();
    await cache.put(keys[2]!, 'run', 'c', big, []);
    expect(readdirSync(dir).sort()).toEqual([`${keys[0]}.json`, `${keys[2]}.json`].sort());
  });

  it('is safe under two runs writing and reading the same entries at once', async () => {
    const { repo, dir } = await setup();
    const a = new StepCache({ repo, dir, readOnly: false, noRead: false, maxBytes: 4000 });
    const b = new StepCache({ repo, dir, readOnly: false, noRead: false, maxBytes: 4000 });
    const keys = Array.from({ length: 8 }, (_, i) => stepKey({ ...PARTS, command: `c${i}` }));
    const results = await Promise.all(
      keys.flatMap((k, i) => [
        a.put(k, 'run', `c${i}`, { ...OK, output: 'a'.repeat(600) }, [{ path: 'f', bytes: Buffer.from(`a${i}`), mode: '100644' }]),
        b.put(k, 'run', `c${i}`, { ...OK, output: 'b'.repeat(600) }, [{ path: 'f', bytes: Buffer.from(`b${i}`), mode: '100644' }]),
        a.get(k),
        b.get(k),
      ]),
    );
    for (const r of results) {
      if (r === undefined || r === null) continue;
      // Whatever was read is one run's whole entry: its output and its blob agree.
      const who = r.entry.output[0]!;
      expect(r.entry.output).toBe(who.repeat(600));
      expect(Buffer.from(r.files.get('f')!.bytes).toString()).toBe(`${who}${r.entry.command.slice(1)}`);
    }
    const names = readdirSync(dir);
    expect(names.filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    expect(names.length).toBeLessThanOrEqual(keys.length);
  });
});
