// The pack files a scion killed while writing its job's objects leaves (a .keep whose ref never
// moved, a pack cut short before its .idx, temporary files) are cleared by the next run, so no pack
// stays out of `git repack` forever. What a live scion holds, and a .keep that is not scion's, are
// left alone. A real process, killed with kill -9, then the CLI, judged with native git.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { exited, waitFor } from '../support/processes.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const WRITER = new URL('./hold-kept-pack.ts', import.meta.url).pathname;
const RECIPE = recipeFile('name: packs\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n');

const packFiles = (r: TestRepo) => readdirSync(join(r.dir, '.git', 'objects', 'pack')).sort();
const CUT = `pack-${'c'.repeat(40)}`;
/** The .keep files, temporary files and the cut pack: what the writer leaves beside whole packs. */
const scionsOwn = (r: TestRepo) => packFiles(r).filter((f) => f.endsWith('.keep') || f.startsWith('.tmp-') || f.startsWith(CUT));

/** The writer, once its files are on disk; and the blob it wrote. */
async function writer(r: TestRepo): Promise<{ child: ChildProcess; blob: string }> {
  const child = spawn(process.execPath, ['--import', TSX, WRITER, r.dir], { cwd: r.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => out.endsWith('\n') || child.exitCode !== null, 30_000);
  expect(out).toMatch(/^[0-9a-f]{40}\n$/);
  return { child, blob: out.trim() };
}

async function run(r: TestRepo): Promise<void> {
  const res = await scion(['run', RECIPE, '--repo', r.dir], { cwd: r.dir });
  expect(res.code, res.stderr).toBe(0);
}

describe('pack files of a scion killed while writing its objects', () => {
  it('are cleared by the next run: the kept pack is git gc’s again, the cut and temporary files are gone', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    // A .keep that is not scion's (a push received with `index-pack --keep`, a user's) stays.
    const theirs = 'pack-' + 'e'.repeat(40) + '.keep';
    writeFileSync(join(r.dir, '.git', 'objects', 'pack', theirs), 'receive-pack 123 on host\n');
    const { child, blob } = await writer(r);
    child.kill('SIGKILL');
    expect(await exited(child)).toBe('SIGKILL');
    // What the dead process left: two .keep files, a .pack without .idx, two temporary files.
    expect(scionsOwn(r).filter((f) => f !== theirs)).toHaveLength(5);

    await run(r);
    expect(scionsOwn(r)).toEqual([theirs]);
    // The pack that was whole stays, readable, and the next gc may drop what nothing reaches.
    expect(r.git('cat-file', '-t', blob)).toBe('blob');
    r.git('fsck', '--strict');
    r.git('gc', '-q', '--prune=now');
    expect(() => r.git('cat-file', '-e', blob)).toThrow();
    expect(r.git('show', 'scion/packs:src/a.ts')).toBe('let a = 1;');
  }, 60_000);

  it('of a live writer: left alone', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    const { child, blob } = await writer(r);
    const before = scionsOwn(r);
    expect(before).toHaveLength(5);
    await run(r);
    expect(scionsOwn(r)).toEqual(before);
    // Kept: a full repack and prune leave its objects alone.
    r.git('gc', '-q', '--prune=now');
    expect(r.git('cat-file', '-t', blob)).toBe('blob');
    child.kill('SIGKILL');
  }, 60_000);

  it('a pack of the same objects already there, unkept: the run writes its own under a new name, so a repack deleting the old one loses nothing', async () => {
    const r = await repo({ 'src/a.ts': 'const a = 1;\n' });
    // Fixed dates: the second run makes the very commit the first made, so the very same pack.
    const dates = { GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
    const again = async () => {
      const res = await scion(['run', RECIPE, '--repo', r.dir], { cwd: r.dir, env: dates });
      expect(res.code, res.stderr).toBe(0);
      return r.git('rev-parse', 'scion/packs');
    };
    const first = await again();
    // The branch goes (a person deleted it, a later run gave the job up): its pack is nobody's now.
    r.git('update-ref', '-d', 'refs/heads/scion/packs');
    const before = packFiles(r).filter((f) => f.endsWith('.pack') || f.endsWith('.idx'));
    expect(before).toHaveLength(2);
    expect(await again()).toBe(first);
    // A `git repack -a -d` that listed the old pack before this run wrote its own deletes it by name
    // when it is done: the branch must not depend on it.
    for (const f of before) rmSync(join(r.dir, '.git', 'objects', 'pack', f), { force: true });
    expect(r.git('cat-file', '-t', first)).toBe('commit');
    r.git('fsck', '--strict', '--no-dangling');
    expect(r.git('show', 'scion/packs:src/a.ts')).toBe('let a = 1;');
    expect(scionsOwn(r)).toEqual([]);
  }, 60_000);
});
