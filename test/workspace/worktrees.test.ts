// Jobs with files on disk: run steps, verify, kept worktrees, `scion worktrees`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitEnv, gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

async function repo() {
  const r = await gitRepo({ 'src/a.ts': 'const a = 1;\n', 'src/b.ts': 'const b = 2;\n', '.gitignore': 'build/\n' });
  cleanups.push(r.cleanup);
  return r;
}

describe('worktrees', () => {
  it('commits what a run step changed; the worktree is gone afterwards', async () => {
    const r = await repo();
    const recipe = recipeFile(`name: fmt
steps:
  - replace: { old_string: "const a", new_string: "let a" }
  - run: "sed -i 's/const b/var b/' src/b.ts && mkdir -p build && echo junk > build/out.txt && echo new > src/new.ts"
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.files.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/new.ts']);
    expect(job.worktree).toBeNull();
    expect(r.git('show', 'scion/fmt:src/b.ts')).toBe('var b = 2;');
    expect(r.git('show', 'scion/fmt:src/new.ts')).toBe('new');
    expect(r.git('ls-tree', '-r', '--name-only', 'scion/fmt')).not.toContain('build/');
    expect(r.git('worktree', 'list', '--porcelain')).not.toContain('scion-fmt');
    r.git('worktree', 'prune');
    r.git('fsck', '--strict');
  });

  it('--keep-worktrees leaves a clean worktree at the branch head that native git lists; --prune removes it', async () => {
    const r = await repo();
    const recipe = recipeFile('name: keep\nsteps:\n  - replace: { old_string: "const a", new_string: "let a" }\n');
    const res = await scion(['run', recipe, '--repo', r.dir, '--json', '--keep-worktrees'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    const wt = job.worktree!;
    expect(wt).toBeTruthy();
    expect(r.git('worktree', 'list', '--porcelain')).toContain(`worktree ${wt}\nHEAD ${job.head}\nbranch refs/heads/scion/keep`);
    expect(r.git('-C', wt, 'status', '--porcelain')).toBe('');
    expect(r.git('-C', wt, 'rev-parse', 'HEAD')).toBe(job.head);

    const listed = await scion(['worktrees', '--repo', r.dir], { cwd: r.dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(wt);
    expect(listed.stdout).toContain('finished');

    // A rerun replaces the kept worktree rather than tripping over it.
    const again = await scion(['run', recipe, '--repo', r.dir, '--json', '--keep-worktrees'], { cwd: r.dir });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as RunReport).jobs[0]!.status).toBe('unchanged');

    const pruned = await scion(['worktrees', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(pruned.code).toBe(0);
    expect(existsSync(wt)).toBe(false);
    expect(r.git('worktree', 'list', '--porcelain')).not.toContain(wt);
    r.git('fsck', '--strict');
  });

  it('a failing verify fails the job with command-failed at index steps.length', async () => {
    const r = await repo();
    const recipe = recipeFile(`name: verified
steps:
  - replace: { old_string: "const a", new_string: "let a" }
verify:
  - run: "grep -q 'let a' src/a.ts"
  - run: "echo checking >&2; exit 3"
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(1);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('failed');
    expect(job.errors).toHaveLength(1);
    expect(job.errors[0]).toMatchObject({ step: 2, kind: 'command-failed' });
    expect(job.errors[0]!.message).toContain('exit 3');
    expect(job.errors[0]!.message).toContain('checking');
  });

  it('a run step in a dry run works on a scratch copy and leaves .git alone', async () => {
    const r = await repo();
    const recipe = recipeFile('name: dry\nsteps:\n  - run: "echo more >> src/a.ts"\n');
    const refsBefore = r.git('for-each-ref');
    const res = await scion(['plan', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.files.map((f) => [f.path, f.added])).toEqual([['src/a.ts', 1]]);
    expect(r.git('for-each-ref')).toBe(refsBefore);
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
  });

  it('a worktree holds the whole base tree whatever files select; commands outside the selection are put back', async () => {
    const r = await gitRepo({
      'package.json': '{"name":"root"}\n',
      'tsconfig.json': '{}\n',
      'packages/web/src/a.ts': 'const a = 1;\n',
      'packages/web/README.md': 'web\n',
      'docs/guide.md': 'guide\n',
    });
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: whole
files: { include: ["packages/*/src/**"] }
steps:
  - replace: { old_string: "const a", new_string: "let a" }
  - run: "echo more >> docs/guide.md && echo lock > package-lock.json && echo 'export {}' > packages/web/src/new.ts"
verify:
  - run: "test -f package.json && test -f tsconfig.json && test -f docs/guide.md"
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json', '--keep-worktrees'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(0);
    const job = (JSON.parse(res.stdout) as RunReport).jobs[0]!;
    expect(job.status).toBe('changed');
    expect(job.files.map((f) => f.path)).toEqual(['packages/web/src/a.ts', 'packages/web/src/new.ts']);
    expect(job.skipped).toEqual([
      { step: 1, file: 'docs/guide.md', reason: 'outside-selection' },
      { step: 1, file: 'package-lock.json', reason: 'outside-selection' },
    ]);
    expect(r.git('diff', '--name-status', 'main', 'scion/whole')).toBe('M\tpackages/web/src/a.ts\nA\tpackages/web/src/new.ts');
    const wt = job.worktree!;
    expect(r.git('-C', wt, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(r.git('-C', wt, 'ls-files')).toBe(r.git('ls-tree', '-r', '--name-only', 'scion/whole'));
    // `git commit -a` in the kept worktree has nothing to commit: no staged deletions.
    expect(r.git('-C', wt, 'diff', '--cached', '--name-status', 'HEAD')).toBe('');
    r.git('worktree', 'remove', wt);
    r.git('fsck', '--strict');
  });

  it('job names that differ only in punctuation or case get worktrees of their own', async () => {
    // `each` takes directory names as they are, so job names may hold any character a folder may.
    const names = ['A-b', 'a+b', 'a-b', 'a.b', 'a=b', 'a@b', 'a_b'];
    const r = await gitRepo(Object.fromEntries(names.map((n) => [`pkgs/${n}/job.txt`, 'none\n'])));
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: names
jobs:
  - each: "pkgs/*"
steps:
  - run: 'echo "$SCION_JOB" > "pkgs/$SCION_JOB/job.txt"'
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json', '--keep-worktrees'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(0);
    const jobs = (JSON.parse(res.stdout) as RunReport).jobs;
    expect(jobs.map((j) => [j.name, j.status])).toEqual(names.map((n) => [n, 'changed']));
    expect(new Set(jobs.map((j) => j.worktree)).size).toBe(names.length);
    for (const j of jobs) {
      expect(r.git('show', `${j.branch}:pkgs/${j.name}/job.txt`)).toBe(j.name);
      expect(r.git('-C', j.worktree!, 'status', '--porcelain')).toBe('');
    }
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(names.length + 1);
    await scion(['worktrees', '--prune', '--repo', r.dir], { cwd: r.dir });
    expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
    r.git('fsck', '--strict');
  });

  it('run and verify commands both get SCION_RECIPE, SCION_JOB and SCION_DRY_RUN beside their own env', async () => {
    const r = await gitRepo({ 'a.txt': 'a\n' });
    cleanups.push(r.cleanup);
    const recipe = recipeFile(`name: env-names
steps:
  - run: { command: 'echo "$SCION_RECIPE $SCION_JOB $SCION_DRY_RUN $OWN" > a.txt', env: { OWN: step } }
verify:
  - run: 'test "$SCION_RECIPE $SCION_JOB $SCION_DRY_RUN" = "env-names env-names $WANT"'
`);
    const run = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: { WANT: '0' } });
    expect(run.code).toBe(0);
    expect(r.git('show', 'scion/env-names:a.txt')).toBe('env-names env-names 0 step');
    const plan = await scion(['plan', recipe, '--repo', r.dir, '--json', '--no-cache'], { cwd: r.dir, env: { WANT: '1' } });
    expect((JSON.parse(plan.stdout) as RunReport).jobs.map((j) => j.status)).toEqual(['changed']);
    // The same command with the wrong expectation fails: the check above can fail.
    const wrong = await scion(['plan', recipe, '--repo', r.dir, '--json', '--no-cache'], { cwd: r.dir, env: { WANT: '0' } });
    expect((JSON.parse(wrong.stdout) as RunReport).jobs.map((j) => j.status)).toEqual(['failed']);
  });

  it('files a run step writes are committed as `git add` stores them (core.autocrlf, .gitattributes)', async () => {
    const r = await gitRepo({
      'src/a.ts': 'a\n',
      'legacy.md': 'old\r\n',
      '.gitattributes': '*.txt text\n*.bin -text\n*.crlf eol=crlf\nauto/* text=auto\nraw/** binary\n',
    });
    cleanups.push(r.cleanup);
    r.git('config', 'core.autocrlf', 'true');
    const command = [
      "printf 'a\\r\\nb\\r\\n' > src/a.ts",
      "printf 'x\\r\\n' > x.txt",
      "printf 'y\\r\\n' > y.bin",
      "printf 'z\\r\\n' > z.crlf",
      "printf 'n\\000\\r\\n' > src/nul.dat",
      "printf 'lone\\rcr\\r\\n' > src/lone.c",
      "printf 'l\\r\\nm\\r\\n' > legacy.md",
      'mkdir -p auto raw',
      "printf 'q\\r\\n' > auto/q.c",
      "printf 'r\\r\\n' > raw/r.c",
    ].join(' && ');
    const recipe = recipeFile(`name: crlf\nsteps:\n  - run: ${JSON.stringify(command)}\n`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(0);

    // The judge: the same command in a native worktree, then `git add -A`.
    const native = join(r.dir, '..', `${basename(r.dir)}-native`);
    cleanups.push(() => rm(native, { recursive: true, force: true }));
    r.git('worktree', 'add', '-q', '--detach', native, 'main');
    execFileSync('/bin/sh', ['-c', command], { cwd: native });
    r.git('-C', native, 'add', '-A');
    const staged = r
      .git('-C', native, 'ls-files', '-s')
      .split('\n')
      .map((l) => l.replace(/^(\d+) (\w+) \d+\t/, '$1 $2 '));
    const committed = r
      .git('ls-tree', '-r', 'scion/crlf')
      .split('\n')
      .map((l) => l.replace(/^(\d+) blob (\w+)\t/, '$1 $2 '));
    expect(committed).toEqual(staged);
    // Spot checks of the rules themselves.
    const blob = (spec: string) => execFileSync('git', ['cat-file', '-p', spec], { cwd: r.dir, env: gitEnv(), encoding: 'latin1' });
    expect(blob('scion/crlf:src/a.ts')).toBe('a\nb\n');
    expect(blob('scion/crlf:x.txt')).toBe('x\n');
    expect(blob('scion/crlf:z.crlf')).toBe('z\n');
    expect(blob('scion/crlf:y.bin')).toBe('y\r\n');
    expect(blob('scion/crlf:src/lone.c')).toBe('lone\rcr\r\n');
    expect(blob('scion/crlf:legacy.md')).toBe('l\r\nm\r\n');
    expect(blob('scion/crlf:raw/r.c')).toBe('r\r\n');
    r.git('fsck', '--strict');
  });
});
