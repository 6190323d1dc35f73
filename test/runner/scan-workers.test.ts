// SCION_SCAN_WORKERS through the CLI: a whole-tree `replace` over more blobs than the main thread
// reads alone, with worker threads asked for and with none, leaves the same branch (and the progress
// never says a worker was dropped); a value that is not 0–8 is a usage mistake found before any
// repository, also of a campaign, is touched. (Whether a worker gets to read anything depends on how
// soon it starts: the main thread reads while none is ready, so the scan is the same either way.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { reposAfterEach, cleanupAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const RECIPE = recipeFile('name: many\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(", replace_all: true }\n');

/** 4,500 distinct blobs (past the 4,000 below which the main thread reads them all), every 50th calling legacyLog. */
function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4500; i++) files[`d${i % 45}/f${i}.js`] = `export const v${i} = ${i};\n${i % 50 === 0 ? `legacyLog(${i});\n` : ''}`;
  return files;
}

describe('SCION_SCAN_WORKERS', () => {
  it('with 2 worker threads asked for and with none: the same branch, no worker dropped', async () => {
    const r = await repo(manyFiles(), { packed: true });
    const heads: string[] = [];
    for (const workers of ['2', '0']) {
      const res = await scion(['run', RECIPE, '--repo', r.dir, '--force'], { cwd: r.dir, env: { SCION_SCAN_WORKERS: workers } });
      expect(res.stderr + res.stdout).not.toContain('blob scan:');
      expect(res.code).toBe(0);
      heads.push(r.git('rev-parse', 'scion/many^{tree}'));
    }
    expect(heads[0]).toBe(heads[1]);
    expect(r.git('diff', '--name-only', 'main', 'scion/many').split('\n')).toHaveLength(90);
    expect(r.git('show', 'scion/many:d0/f0.js')).toBe('export const v0 = 0;\nlog(0);');
    r.git('fsck', '--strict');
  }, 120_000);

  it('not a whole number from 0 to 8: exit 2 naming the variable, before any repository is touched', async () => {
    const r = await repo({ 'a.js': 'legacyLog(1);\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-list-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const list = join(dir, 'repos.txt');
    writeFileSync(list, `${r.dir}\n`);
    for (const [value, where] of [
      ['many', ['--repo', r.dir]],
      ['9', ['--repo', r.dir]],
      ['-1', ['--repos', list]],
    ] as const) {
      const res = await scion(['run', RECIPE, ...where], { cwd: r.dir, env: { SCION_SCAN_WORKERS: value } });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`SCION_SCAN_WORKERS is "${value}"`);
      expect(res.stdout).not.toContain('many');
      expect(r.git('branch', '--list', 'scion/*')).toBe('');
    }
  }, 60_000);
});
