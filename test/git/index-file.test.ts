import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseIndex, serializeIndex } from '../../src/git/index-file.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';

const repos: TestRepo[] = [];
afterEach(async () => {
  for (const r of repos.splice(0)) await r.cleanup();
});

const FILES = {
  'a.txt': 'a\n',
  'a-b.txt': 'dash\n',
  'a/b/c.txt': 'nested\n',
  'x.sh': { content: '#!/bin/sh\n', mode: 'exec' as const },
  ln: { content: 'a.txt', mode: 'symlink' as const },
  [`long/${'n'.repeat(120)}/file.txt`]: 'long path\n',
  'caf\u00e9.txt': 'unicode\n',
};

/** "mode oid path" lines as `git ls-files -s` prints them (stage 0 only). */
function lsFiles(r: TestRepo): string[] {
  return r
    .git('-c', 'core.quotePath=false', 'ls-files', '-s')
    .split('\n')
    .map((l) => {
      const [meta, path] = l.split('\t') as [string, string];
      const [mode, oid] = meta.split(' ');
      return `${mode} ${oid} ${path}`;
    });
}

describe('index file', () => {
  it.each([2, 3, 4])('reads the version %i index git writes: paths, oids, modes and stat data', async (version) => {
    const r = await gitRepo(FILES);
    repos.push(r);
    r.git('update-index', '--index-version', String(version));
    if (version === 3) {
      // Extended flags: an intent-to-add entry forces version 3 entries with a second flags word.
      writeFileSync(join(r.dir, 'new.txt'), 'intent\n');
      r.git('add', '-N', 'new.txt');
    }
    const buf = readFileSync(join(r.dir, '.git/index'));
    expect(buf.readUInt32BE(4)).toBe(version);
    const entries = parseIndex(buf);
    expect(entries).not.toBeNull();
    expect(entries?.map((e) => `${e.mode.toString(8)} ${e.oid} ${e.path}`)).toEqual(lsFiles(r));
    // Stat data as git itself reports it.
    const debug = r.git('ls-files', '--debug', 'a/b/c.txt');
    const mtime = /mtime: (\d+):(\d+)/.exec(debug);
    const size = /size: (\d+)/.exec(debug);
    const c = entries?.find((e) => e.path === 'a/b/c.txt');
    expect([c?.stat.mtimeSec, c?.stat.mtimeNsec, c?.stat.size]).toEqual([Number(mtime?.[1]), Number(mtime?.[2]), Number(size?.[1])]);
  });

  it('writes a version 2 index git reads back identically (same bytes as git for the same entries)', async () => {
    const r = await gitRepo(FILES);
    repos.push(r);
    const buf = readFileSync(join(r.dir, '.git/index'));
    const entries = parseIndex(buf);
    expect(entries).not.toBeNull();
    const ours = serializeIndex(entries ?? []);
    // git adds extensions (TREE) after the entries; the entries and header must match byte for byte.
    const entriesEnd = ours.length - 20;
    expect(ours.subarray(0, entriesEnd).equals(buf.subarray(0, entriesEnd))).toBe(true);
  });
});
