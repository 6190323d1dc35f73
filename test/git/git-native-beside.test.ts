// Native git beside scion: `git repack -a -d` and `git gc --prune=now` run in a loop while
// scion runs again and again in the same repository. Every run must succeed and leave a repository
// `git fsck --strict` accepts. Two such loops run at once. Folders native git removes when empty
// (objects/xx/ by `git prune-packed`, refs/heads/<folder>/ by `git pack-refs`) vanished between
// scion's mkdir and its file: the object's temp file, then the branch's lock (one run in ten). And
// `git worktree prune` beside jobs that make worktrees (.git/worktrees removed when empty).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitEnv } from '../support/git-repo.js';
import { reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();

/** Runs `script` in a shell loop until stopped; resolves with how many rounds it completed. */
function loop(cwd: string, script: string): { stop: () => Promise<number> } {
  const child = spawn('sh', ['-c', `n=0; trap 'echo $n; exit 0' TERM; while :; do ${script}; n=$((n+1)); done`], {
    cwd,
    env: gitEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const done = new Promise<void>((res) => child.on('exit', () => res()));
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await done;
      return Number(out.trim() || 0);
    },
  };
}

const files: Record<string, string> = {};
for (let k = 0; k < 60; k++) files[`src/d${k % 12}/f${k}.txt`] = `file ${k}\nvalue: old\n`;

describe('native git beside scion', () => {
  it('repack -a -d and gc --prune=now in a loop: every run succeeds, fsck --strict stays clean', async () => {
    const r = await repo(files, { packed: true });
    const gcs = [loop(r.dir, 'git repack -a -d -q; git prune-packed; git gc -q --prune=now'), loop(r.dir, 'git gc -q --prune=now')];
    try {
      for (let i = 0; i < 16; i++) {
        // New content every round, so every run writes new loose objects under objects/xx/.
        const recipe = recipeFile(`name: beside
branch: scion/beside-${i}
files: { include: ["src/**"] }
steps:
  - replace: { old_string: "value: old", new_string: "value: round ${i}", replace_all: true }
  - write: { file: src/new-${i}.txt, content: "round ${i}\\n" }
`);
        const report = join(r.dir, '..', `beside-${i}-${Date.now()}.json`);
        const res = await scion(['run', recipe, '--repo', r.dir, '--report', report], { cwd: r.dir });
        expect(res.stderr, `run ${i}`).not.toContain('internal error');
        const job = (JSON.parse(readFileSync(report, 'utf8')) as RunReport).jobs[0]!;
        expect(res.code, `run ${i}: ${res.stderr}${JSON.stringify(job.errors)}`).toBe(0);
        expect(job.status).toBe('changed');
        expect(r.git('show', `scion/beside-${i}:src/new-${i}.txt`)).toBe(`round ${i}`);
      }
    } finally {
      const rounds = await Promise.all(gcs.map((gc) => gc.stop()));
      expect(Math.min(...rounds)).toBeGreaterThan(0);
    }
    r.git('fsck', '--strict', '--no-dangling');
    for (let i = 0; i < 16; i++) expect(r.git('show', `scion/beside-${i}:src/d0/f0.txt`)).toBe(`file 0\nvalue: round ${i}`);
  });

  it('git worktree prune in a loop beside worktree jobs: every run succeeds, no worktree is left', async () => {
    // `git worktree prune` removes .git/worktrees when it is empty, and an admin folder that has no
    // gitdir file nor locked marker yet: between scion's mkdirs and its first file.
    const r = await repo(files);
    const prunes = [loop(r.dir, 'git worktree prune'), loop(r.dir, 'git worktree prune')];
    try {
      for (let i = 0; i < 6; i++) {
        const recipe = recipeFile(`name: disk-${i}
jobs:
  - each: "src/*"
steps:
  - run: "printf '%s' ${i} > src/$SCION_JOB/ran.txt"
`);
        const res = await scion(['run', recipe, '--repo', r.dir, '--json', '--concurrency', '2'], { cwd: r.dir });
        expect(res.stderr, `run ${i}`).not.toContain('internal error');
        const report = JSON.parse(res.stdout) as RunReport;
        const failed = report.jobs.filter((j) => j.status !== 'changed').map((j) => `${j.name}: ${JSON.stringify(j.errors)}`);
        expect({ run: i, code: res.code, failed }).toEqual({ run: i, code: 0, failed: [] });
        expect(report.jobs).toHaveLength(12);
        expect(r.git('show', `scion/disk-${i}/d7:src/d7/ran.txt`)).toBe(String(i));
      }
    } finally {
      const rounds = await Promise.all(prunes.map((p) => p.stop()));
      expect(Math.min(...rounds)).toBeGreaterThan(0);
    }
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    r.git('fsck', '--strict', '--no-dangling');
  }, 120_000);
});
