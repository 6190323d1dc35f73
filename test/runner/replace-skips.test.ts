// `replace` over a selection holding a binary file, an LFS pointer, a submodule and a symlink: what
// does not hold the match, or what scion never edits, is skipped with a reason; a binary file that
// holds the match is still an error.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();
const LFS =
  'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n# legacyLog(\n';

async function setup() {
  const r = await gitRepo({
    'src/a.js': 'legacyLog(1);\n',
    'src/img.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x6c, 0x65]),
    'src/nul.js': new Uint8Array([...Buffer.from('legacy\0'), 0x0a]),
    'src/lfs.bin': LFS,
    'src/link.js': { content: 'legacyLog(.js', mode: 'symlink' },
  });
  cleanups.push(r.cleanup);
  r.git('update-index', '--add', '--cacheinfo', `160000,${r.head()},src/sub`);
  r.git('commit', '-qm', 'a submodule');
  return r;
}

describe('replace skips what it must not or need not edit', () => {
  it('binary without the match, LFS pointer, submodule and symlink are skipped with a reason; the job changes the rest', async () => {
    const r = await setup();
    const recipe = recipeFile('name: sk\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n    expect: { min: 1 }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('changed');
    expect(job.errors).toEqual([]);
    expect(job.files.map((f) => f.path)).toEqual(['src/a.js']);
    expect([...job.skipped].sort((a, b) => (a.file < b.file ? -1 : 1))).toEqual([
      { step: 0, file: 'src/img.png', reason: 'binary' },
      { step: 0, file: 'src/lfs.bin', reason: 'lfs-pointer' },
      { step: 0, file: 'src/link.js', reason: 'symlink' },
      { step: 0, file: 'src/nul.js', reason: 'binary' },
      { step: 0, file: 'src/sub', reason: 'submodule' },
    ]);
    expect(r.git('show', 'scion/sk:src/lfs.bin')).toBe(LFS.trimEnd());
    r.git('fsck', '--strict');
  });

  it('a binary file that holds the match stays an error', async () => {
    const r = await setup();
    const recipe = recipeFile('name: bin\nsteps:\n  - replace: { old_string: "legacy", new_string: "modern" }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([['src/nul.js', 'binary']]);
  });

  it('invalid-result carries the seed code 10', async () => {
    const r = await gitRepo({ 'c.json': '{ "a": 1 }\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile('name: js\nsteps:\n  - replace: { old_string: "\\"a\\": 1", new_string: "\\"a\\": 1," }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.errors.map((e) => [e.kind, e.code])).toEqual([['invalid-result', 10]]);
  });
});
