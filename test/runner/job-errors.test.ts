// What one job meets fails that job, not the run: a damaged object only one job reads, a job's
// branch held by a checkout elsewhere. The other jobs go on, the report is written with the failed
// job's kind, and the CLI exits 1. Judged through the CLI and native git.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();

const RECIPE = `name: one
jobs:
  - each: "pkgs/*"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
`;

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scion-job-errors-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function jobs(file: string): Map<string, JobReport> {
  return new Map((JSON.parse(readFileSync(file, 'utf8')) as RunReport).jobs.map((j) => [j.name, j]));
}

describe('an error one job meets', () => {
  it('a damaged object only one job reads: that job fails with kind environment, the others commit, the report is written', async () => {
    const r = await repo({ 'pkgs/p0/index.ts': 'legacy(p0);\n', 'pkgs/p1/index.ts': 'legacy(p1);\n', 'pkgs/p2/index.ts': 'legacy(p2);\n' });
    // The loose object of p1's file, made unreadable.
    const oid = r.git('rev-parse', 'HEAD:pkgs/p1/index.ts');
    const object = join(r.dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
    chmodSync(object, 0o644);
    writeFileSync(object, 'not zlib data');
    const file = join(scratch(), 'report.json');

    const res = await scion(['run', recipeFile(RECIPE), '--repo', r.dir, '--concurrency', '1', '--report', file], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code, res.stderr).toBe(1);
    const report = jobs(file);
    expect(report.get('p1')).toMatchObject({ status: 'failed', head: null, errors: [{ kind: 'environment', message: expect.stringContaining(oid) }] });
    for (const j of ['p0', 'p2']) {
      expect(report.get(j)?.status).toBe('changed');
      expect(r.git('show', `scion/one/${j}:pkgs/${j}/index.ts`)).toBe(`modern(${j});`);
    }
    expect(r.git('branch', '--list', 'scion/one/p1')).toBe('');
  });

  it("a job whose branch is checked out elsewhere cannot keep its worktree there: that job fails with kind locked, the others don't", async () => {
    const r = await repo({ 'pkgs/p0/index.ts': 'legacy(p0);\n', 'pkgs/p1/index.ts': 'legacy(p1);\n' });
    const first = await scion(['run', recipeFile(RECIPE), '--repo', r.dir], { cwd: r.dir });
    expect(first.code, first.stderr).toBe(0);
    // Someone works on p1's branch in a worktree of their own.
    const theirs = join(scratch(), 'theirs');
    r.git('worktree', 'add', '-q', theirs, 'scion/one/p1');
    const file = join(scratch(), 'report.json');

    const res = await scion(['run', recipeFile(RECIPE), '--repo', r.dir, '--concurrency', '1', '--keep-worktrees', '--report', file], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code, res.stderr).toBe(1);
    const report = jobs(file);
    expect(report.get('p1')).toMatchObject({ status: 'failed', errors: [{ kind: 'locked', message: expect.stringContaining(theirs) }] });
    expect(report.get('p0')).toMatchObject({ status: 'unchanged', worktree: expect.any(String) });
    expect(r.git('-C', theirs, 'status', '--porcelain')).toBe('');
    expect(r.git('-C', theirs, 'symbolic-ref', 'HEAD')).toBe('refs/heads/scion/one/p1');
    r.git('fsck', '--strict');
  });
});
