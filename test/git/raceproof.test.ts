// A folder native git removes between scion's mkdir and the file made inside it (git gc's
// prune-packed and pack-refs remove empty folders) is made again, and the file is created.
import { closeSync, linkSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raceproofCreate } from '../../src/git/raceproof.js';

describe('raceproofCreate', () => {
  it('makes the folder again when it vanished before the create, as often as a gc loop removes it', () => {
    const root = mkdtempSync(join(tmpdir(), 'scion-raceproof-'));
    const dir = join(root, 'refs', 'heads', 'scion');
    mkdirSync(dir, { recursive: true });
    const source = join(root, 'owner');
    writeFileSync(source, 'abc\n');
    let removed = 0;
    raceproofCreate(dir, () => {
      // A concurrent `git pack-refs` removes the empty folder just before each of the first 3 tries.
      if (removed < 3) {
        rmdirSync(dir);
        removed++;
      }
      linkSync(source, join(dir, 'x.lock'));
    });
    expect(removed).toBe(3);
    expect(readFileSync(join(dir, 'x.lock'), 'utf8')).toBe('abc\n');
  });

  it('gives up with the ENOENT after a bounded number of tries, and passes other errors through at once', () => {
    const root = mkdtempSync(join(tmpdir(), 'scion-raceproof-'));
    const dir = join(root, 'objects', 'ab');
    let tries = 0;
    expect(() =>
      raceproofCreate(dir, () => {
        tries++;
        rmSync(dir, { recursive: true, force: true });
        closeSync(openSync(join(dir, 'tmp'), 'wx'));
      }),
    ).toThrow(/ENOENT/);
    expect(tries).toBe(9);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'taken'), '');
    let calls = 0;
    expect(() =>
      raceproofCreate(dir, () => {
        calls++;
        closeSync(openSync(join(dir, 'taken'), 'wx'));
      }),
    ).toThrow(/EEXIST/);
    expect(calls).toBe(1);
  });
});
