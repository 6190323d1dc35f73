// `replace` over a tree big enough that its blobs are scanned on worker threads (git/blob-scan.ts):
// the job changes, skips and fails the same files as when every blob is read on the main thread, and
// exactly the files native `git grep` finds, less those scion must not edit.
import { describe, expect, it } from 'vitest';
import type { BlobScanSettings } from '../../src/git/index.js';
import type { JobReport } from '../../src/model/types.js';
import { loadRecipe } from '../../src/recipe/index.js';
import { runRecipes } from '../../src/runner/run-recipes.js';
import { gitRepo, type RepoFile } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

const LFS =
  'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n# legacyLog(\n';

function tree(binaryMatch: boolean): Record<string, RepoFile> {
  const files: Record<string, RepoFile> = {};
  for (let i = 0; i < 300; i++) {
    const body = `export const v${i} = ${i};\n`.repeat(1 + (i % 7));
    files[`pkg${i % 6}/src/f${i}.js`] = i % 9 === 0 ? `${body}legacyLog(${i});\n` : body;
  }
  files['pkg0/lfs.bin'] = LFS;
  files['pkg1/img.png'] = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x6c, 0x65]);
  files['pkg2/nul.js'] = new Uint8Array([...Buffer.from(binaryMatch ? 'legacyLog(\0' : 'legacy\0'), 0x0a]);
  files['pkg3/utf16.txt'] = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\r\nlegacyLog(1)\r\n', 'utf16le')]);
  files['pkg3/utf16-plain.txt'] = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('nothing here\n', 'utf16le')]);
  files['pkg4/crlf.js'] = 'a();\r\nlegacyLog(2);\r\n';
  files['pkg5/copy.js'] = files['pkg0/src/f0.js'] as string;
  return files;
}

/** The recipe's one job over a fresh repository, its blobs scanned as `scan` says. */
async function run(scan: Partial<BlobScanSettings>, binaryMatch = false): Promise<{ job: JobReport; git: (...a: string[]) => string }> {
  const r = await gitRepo(tree(binaryMatch), { packed: true });
  cleanups.push(r.cleanup);
  const loaded = await loadRecipe(recipeFile('name: scan\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(", replace_all: true }\n'));
  if (!loaded.ok) throw new Error('the recipe does not load');
  const report = await runRecipes([{ file: loaded.file, recipe: loaded.recipe }], { repo: r.dir }, { env: { PATH: process.env['PATH'] }, git: { scan } });
  expect(report.jobs).toHaveLength(1);
  const job = report.jobs[0]!;
  expect(job.status).toBe(binaryMatch ? 'failed' : 'changed');
  return { job, git: r.git };
}

const outcome = (job: JobReport) => ({
  status: job.status,
  files: job.files.map((f) => [f.path, f.added, f.removed]),
  skipped: job.skipped,
  errors: job.errors.map((e) => [e.file, e.kind]),
});

describe('replace over a scanned tree', () => {
  it('changes and skips the same files on worker threads as on the main thread, and what git grep finds', async () => {
    let started = 0;
    // Workers whatever the machine's cores and load, for a tree this small.
    const scanned = await run({ workers: 2, minBlobs: 0, onWorker: () => started++ });
    expect(started).toBeGreaterThan(0);
    const { job, git } = scanned;
    const grep = git('grep', '-l', '-F', '-e', 'legacyLog(', 'HEAD')
      .split('\n')
      .map((l) => l.replace(/^HEAD:/, ''));
    // git grep reads the UTF-16 file as bytes (no match); scion decodes it and edits it.
    const editable = grep.filter((p) => p !== 'pkg0/lfs.bin');
    expect(job.files.map((f) => f.path).sort()).toEqual([...editable, 'pkg3/utf16.txt'].sort());
    expect(job.errors).toEqual([]);
    expect(job.skipped).toEqual([
      { step: 0, file: 'pkg0/lfs.bin', reason: 'lfs-pointer' },
      { step: 0, file: 'pkg1/img.png', reason: 'binary' },
      { step: 0, file: 'pkg2/nul.js', reason: 'binary' },
    ]);
    expect(Buffer.from(git('show', 'scion/scan:pkg4/crlf.js'), 'latin1').toString()).toBe('a();\r\nlog(2);');
    git('fsck', '--strict');

    started = 0;
    const plain = await run({ workers: 0, onWorker: () => started++ });
    expect(started).toBe(0);
    expect(outcome(plain.job)).toEqual(outcome(job));
  });

  it('fails on a binary file that holds the match, on worker threads as on the main thread', async () => {
    let started = 0;
    const scanned = await run({ workers: 2, minBlobs: 0, onWorker: () => started++ }, true);
    expect(started).toBeGreaterThan(0);
    expect(scanned.job.errors.map((e) => [e.file, e.kind])).toEqual([['pkg2/nul.js', 'binary']]);
    expect(outcome((await run({ workers: 0 }, true)).job)).toEqual(outcome(scanned.job));
  });
});
