// Ctrl-C while a job's files go to disk: the checkout stops between files instead of writing the
// whole tree first, the half-made worktree is removed (native git lists none, scion's folder is
// empty), the report is written with the job `interrupted`, and the CLI exits 130. A rerun is not
// blocked by anything the interrupted one left. Through a real process and real SIGINT.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { gitEnv, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { waitFor } from '../support/processes.js';
import { spawnScion } from '../support/spawn-cli.js';
import { execFileSync } from 'node:child_process';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const FILES = 16_000;

/**
 * A branch `big` whose tree holds FILES small files beside the base's own (made with plumbing in an
 * index of its own: the user's checkout is not touched). Returns its commit.
 */
function bigBranch(r: TestRepo, dir: string): string {
  const env = { ...gitEnv(), GIT_INDEX_FILE: join(dir, 'index') };
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: r.dir, env, encoding: 'utf8', input, maxBuffer: 1 << 28 }).trim();
  git(['read-tree', 'HEAD']);
  const blob = git(['hash-object', '-w', '--stdin'], 'export const x = 1;\n');
  const lines = Array.from({ length: FILES }, (_, i) => `100644 ${blob}\tgen/d${Math.floor(i / 100)}/f${i}.ts`);
  git(['update-index', '--index-info'], `${lines.join('\n')}\n`);
  const commit = git(['commit-tree', git(['write-tree']), '-p', 'HEAD', '-m', 'big']);
  r.git('branch', 'big', commit);
  return commit;
}

/** How many files are under `dir` (0 while it does not exist). */
function filesUnder(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
  } catch {
    return 0;
  }
}

describe('interrupting a checkout', () => {
  it('SIGINT during the first checkout stops it part way: worktree removed, report written, exit 130', async () => {
    const r = await repo({ 'src/a.ts': 'legacy();\n' });
    const dir = mkdtempSync(join(tmpdir(), 'scion-int-checkout-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    bigBranch(r, dir);
    const recipe = recipeFile(`name: big
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: 'touch ${dir}/verified'
`);
    const file = join(dir, 'report.json');
    const run = spawnScion(['run', recipe, '--repo', r.dir, '--base', 'big', '--no-cache', '--report', file], { cwd: r.dir });
    await run.waitFor(`checking out ${(FILES + 1).toLocaleString('en-US')} files`);
    // Interrupted once files are being written (not while the folders are made).
    const folders = join(r.dir, '.git', 'scion-worktrees');
    await waitFor(() => filesUnder(folders) >= 200);
    run.child.kill('SIGINT');
    const done = await run.done;

    expect(done.stderr).not.toContain('internal error');
    expect(done.code, done.stderr).toBe(130);
    // The checkout said where it stopped: part way through the tree.
    const stopped = /The checkout into \S+ was stopped after (\d+) of (\d+) files\. The worktree was removed\./.exec(done.stderr);
    expect(stopped, done.stderr).not.toBeNull();
    expect(Number(stopped![2])).toBe(FILES + 1);
    expect(Number(stopped![1])).toBeGreaterThanOrEqual(200);
    expect(Number(stopped![1])).toBeLessThan(FILES + 1);
    expect(existsSync(join(dir, 'verified'))).toBe(false);
    const report = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
    expect(report.jobs.map((j) => [j.status, j.errors.map((e) => e.kind), j.head, j.worktree])).toEqual([['failed', ['interrupted'], null, null]]);
    // Nothing left: no worktree git lists, no folder, no job lock; the user's checkout as it was.
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    expect(existsSync(folders) ? readdirSync(folders) : []).toEqual([]);
    expect(readdirSync(join(r.dir, '.git', 'scion', 'locks'))).toEqual([]);
    expect(r.git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe('');

    const again = await scion(['run', recipe, '--repo', r.dir, '--base', 'big', '--no-cache'], { cwd: r.dir });
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(dir, 'verified'))).toBe(true);
    expect(r.git('show', 'scion/big:src/a.ts')).toBe('modern();');
    r.git('fsck', '--strict');
  }, 120_000);
});
