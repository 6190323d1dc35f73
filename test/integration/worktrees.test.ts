// Jobs with files on disk: run steps, verify, kept worktrees, `scion worktrees`.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
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
});
