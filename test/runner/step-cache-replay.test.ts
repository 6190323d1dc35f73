// Replaying a `run` step from the step cache writes what a first write may write, and nothing else.
// Through the CLI: an entry edited to write or delete through a tracked symlink touches nothing outside
// the repository; it is ignored with a line naming the cache, and the command runs for real instead.
// A replayed symlink stays a symlink (mode 120000), as the command left it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function run(dir: string, recipe: string, runs: string): Promise<{ code: number; job: JobReport; stderr: string }> {
  const res = await scion(['run', recipe, '--repo', dir, '--json'], { cwd: dir, env: { RUNS: runs } });
  expect(res.stderr).not.toContain('internal error');
  return { code: res.code, job: (JSON.parse(res.stdout) as RunReport).jobs[0]!, stderr: res.stderr };
}

const entries = (dir: string): string[] => readdirSync(join(dir, '.git', 'scion', 'step-cache')).filter((n) => n.endsWith('.json'));

describe('step cache replay', () => {
  it('never writes or deletes through a tracked symlink: an entry edited that way is ignored and the command runs', async () => {
    const outside = tempDir('scion-outside-');
    writeFileSync(join(outside, 'victim.txt'), 'keep me\n');
    const r = await repo({ 'src/a.ts': 'a\n', 'src/lnk': { content: outside, mode: 'symlink' } });
    const runs = join(tempDir('scion-runs-'), 'runs.txt');
    const recipe = recipeFile(`name: gen\nsteps:\n  - run: "echo gen > src/gen.ts; echo ran >> \\"$RUNS\\""\n`);
    const first = await run(r.dir, recipe, runs);
    expect(first.code).toBe(0);
    expect(first.job.files.map((f) => f.path)).toEqual(['src/gen.ts']);

    // Edit the recorded entry: its write now goes through src/lnk, and it deletes a file there too.
    const [name] = entries(r.dir);
    const file = join(r.dir, '.git', 'scion', 'step-cache', name!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { changes: { path: string; oid?: string; mode?: string; deleted?: true }[] };
    expect(entry.changes.map((c) => c.path)).toEqual(['src/gen.ts']);
    entry.changes = [
      { ...entry.changes[0]!, path: 'src/lnk/pwn.txt' },
      { path: 'src/lnk/victim.txt', deleted: true },
    ];
    writeFileSync(file, JSON.stringify(entry));

    const second = await run(r.dir, recipe, runs);
    expect(readdirSync(outside)).toEqual(['victim.txt']);
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('keep me\n');
    // Ignored, said so naming the cache, and the command ran for real: same result as the first run.
    expect(second.stderr).toMatch(/step cache entry .*step-cache.*ignored/);
    expect(readFileSync(runs, 'utf8')).toBe('ran\nran\n');
    expect(second.code).toBe(0);
    expect(second.job.status).toBe('unchanged');
  });

  it('an entry that is not what scion writes (bad path, mode, blob id or shape) is ignored, never fatal', async () => {
    const r = await repo({ 'src/a.ts': 'a\n' });
    const runs = join(tempDir('scion-runs-'), 'runs.txt');
    const recipe = recipeFile(`name: gen\nsteps:\n  - run: "echo gen > src/gen.ts; echo ran >> \\"$RUNS\\""\n`);
    expect((await run(r.dir, recipe, runs)).code).toBe(0);
    const [name] = entries(r.dir);
    const file = join(r.dir, '.git', 'scion', 'step-cache', name!);
    const good = JSON.parse(readFileSync(file, 'utf8')) as { changes: Record<string, unknown>[] };
    const change = good.changes[0]!;
    const bad: unknown[] = [
      { ...good, changes: [{ ...change, path: '../escape.txt' }] },
      { ...good, changes: [{ ...change, path: '.git/hooks/post-checkout' }] },
      { ...good, changes: [{ ...change, mode: '160000' }] },
      { ...good, changes: [{ ...change, mode: 42 }] },
      { ...good, changes: [{ ...change, oid: '../../../../etc/passwd' }] },
      { ...good, changes: [{ path: 7 }] },
      { ...good, changes: 'all of them' },
      { ...good, changes: [null] },
    ];
    for (const [i, entry] of bad.entries()) {
      writeFileSync(file, JSON.stringify(entry));
      const res = await run(r.dir, recipe, runs);
      expect(res.code, JSON.stringify(entry)).toBe(0);
      expect(res.job.status).toBe('unchanged');
      expect(res.stderr).toMatch(/step cache entry .*step-cache.*ignored/);
      expect(readFileSync(runs, 'utf8').split('\n').length - 1).toBe(i + 2);
    }
    expect(readdirSync(join(r.dir, '..')).filter((n) => n === 'escape.txt')).toEqual([]);
  });

  it('keeps modes: a symlink the command made or retargeted is replayed as a symlink', async () => {
    const r = await repo({
      'src/a.ts': 'a\n',
      'src/b.ts': 'b\n',
      'src/link': { content: 'a.ts', mode: 'symlink' },
      'bin/tool': { content: '#!/bin/sh\n', mode: 'exec' },
    });
    const runs = join(tempDir('scion-runs-'), 'runs.txt');
    const recipe = recipeFile(`name: links
steps:
  - run: "ln -sfn b.ts src/link && ln -s a.ts src/new-link && printf '#!/bin/sh\\\\necho 2\\\\n' > bin/tool; echo ran >> \\"$RUNS\\""
`);
    const first = await run(r.dir, recipe, runs);
    expect(first.code).toBe(0);
    const tree = () => r.git('ls-tree', '-r', first.job.branch, 'src/link', 'src/new-link', 'bin/tool').replace(/ [0-9a-f]{40}\t/g, ' ');
    expect(tree()).toBe('100755 blob bin/tool\n120000 blob src/link\n120000 blob src/new-link');
    expect(r.git('show', `${first.job.branch}:src/link`)).toBe('b.ts');

    const second = await run(r.dir, recipe, runs);
    // Replayed (the command did not run again) to the very same tree: the branch is left as it was.
    expect(readFileSync(runs, 'utf8')).toBe('ran\n');
    expect(second.job.status).toBe('unchanged');
    expect(tree()).toBe('100755 blob bin/tool\n120000 blob src/link\n120000 blob src/new-link');
  });

  it('a deletion and a new folder in place of a symlink replay without following the old link', async () => {
    const outside = tempDir('scion-outside-');
    mkdirSync(join(outside, 'sub'));
    const r = await repo({ 'src/a.ts': 'a\n', 'src/lnk': { content: outside, mode: 'symlink' } });
    const runs = join(tempDir('scion-runs-'), 'runs.txt');
    const recipe = recipeFile(`name: unlink\nsteps:\n  - run: "rm src/lnk && mkdir src/lnk && echo x > src/lnk/x.ts; echo ran >> \\"$RUNS\\""\n`);
    const first = await run(r.dir, recipe, runs);
    expect(first.code).toBe(0);
    expect(first.job.files.map((f) => f.path).sort()).toEqual(['src/lnk', 'src/lnk/x.ts']);
    const second = await run(r.dir, recipe, runs);
    expect(second.code).toBe(0);
    expect(second.job.status).toBe('unchanged');
    expect(readFileSync(runs, 'utf8')).toBe('ran\n');
    expect(readdirSync(outside)).toEqual(['sub']);
  });
});
