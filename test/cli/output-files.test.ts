// Files the CLI writes: renamed into place from a temporary file beside them, so a refusal
// leaves the old file whole; a refusal by the machine is kind `environment` — one sentence naming
// the path and the fix, exit 1, never "internal error".
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');
const root = process.getuid?.() === 0;

/** A folder the CLI may not write into: a read-only tmpfs as root (root ignores modes), else mode 0555. */
function unwritableDir(): { dir: string; errno: string } {
  const dir = mkdtempSync(join(tmpdir(), 'scion-ro-'));
  if (!root) {
    chmodSync(dir, 0o555);
    cleanups.push(() => chmodSync(dir, 0o755));
    return { dir, errno: 'EACCES' };
  }
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', dir]);
  cleanups.push(() => void execFileSync('umount', [dir]));
  return { dir, errno: 'EROFS' };
}

describe('output files', () => {
  it('are replaced whole: no temporary file is left beside them', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-out-'));
    writeFileSync(join(dir, 'report.json'), 'old');
    const res = await scion(
      ['plan', RECIPE, '--repo', r.dir, '--report', join(dir, 'report.json'), '--pr-body', join(dir, 'sub/pr.md'), '--html', join(dir, 'r.html')],
      { cwd: r.dir },
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ version: 1 });
    expect(readdirSync(dir).sort()).toEqual(['r.html', 'report.json', 'sub']);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['pr.md']);
  });

  it('a folder the machine refuses: kind environment in one sentence with the path, exit 1', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const { dir, errno } = unwritableDir();
    const target = join(dir, 'report.json');
    const res = await scion(['run', RECIPE, '--repo', r.dir, '--report', target], { cwd: r.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`scion: Cannot write ${target} (${errno}): `);
    expect(res.stderr).not.toContain('internal error');
    expect(res.stderr).not.toContain('bug');
  });

  it('a path through a file: kind environment, not a bug', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-out-'));
    writeFileSync(join(dir, 'file'), 'x');
    const res = await scion(['plan', RECIPE, '--repo', r.dir, '--html', join(dir, 'file', 'r.html')], { cwd: r.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Cannot write \S+\/file\/r\.html \((ENOTDIR|EEXIST)\): a part of the path is a file, not a folder/);
    expect(res.stderr).not.toContain('internal error');
  });

  it.runIf(root)('a full disk (ENOSPC, tmpfs): the old report stays whole', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    cleanups.push(() => void execFileSync('umount', [dir]));
    writeFileSync(join(dir, 'report.json'), 'the previous report');
    try {
      writeFileSync(join(dir, 'filler'), Buffer.alloc(1 << 20));
    } catch {
      // ENOSPC: the disk is full now.
    }
    mkdirSync(join(dir, 'x'), { recursive: true });
    const res = await scion(['plan', RECIPE, '--repo', r.dir, '--report', join(dir, 'report.json')], { cwd: r.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Cannot write ${join(dir, 'report.json')} (ENOSPC): the disk is full`);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('the previous report');
    expect(readdirSync(dir).sort()).toEqual(['filler', 'report.json', 'x']);
  });
});
