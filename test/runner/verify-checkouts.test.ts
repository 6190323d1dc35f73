// Verify without a checkout per job, through the CLI and judged by native git: jobs over one base
// share worktrees reset between them (one full checkout at --concurrency 1), each job's verify sees
// exactly its own change and nothing another job or command left; a job that changed nothing runs no
// verify and gets no files on disk; a rerun whose every command replays from the step cache makes no
// worktree at all. Commands count their runs in a file outside the repository.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const JOBS = ['p0', 'p1', 'p2', 'p3'];

async function setup(): Promise<{ r: TestRepo; out: string }> {
  const files: Record<string, string> = { '.gitignore': 'build/\n', 'README.md': '# r\n', 'pkgs/p0/old.ts': 'old\n', 'pkgs/p4/index.ts': 'modern();\n' };
  for (const j of JOBS) files[`pkgs/${j}/index.ts`] = `legacy(${j});\n`;
  const r = await repo(files);
  const out = mkdtempSync(join(tmpdir(), 'scion-counter-'));
  cleanups.push(() => rmSync(out, { recursive: true, force: true }));
  return { r, out };
}

/**
 * Fails unless the worktree it runs in is a linked worktree native git lists, at the base, holding
 * the base tree plus exactly this job's change: no file another job changed, no build output (ignored)
 * or untracked file a command left. Then it leaves such things behind itself.
 */
function verifyCommand(out: string, base: string): string {
  return [
    `echo "$SCION_JOB" >> ${out}/runs`,
    'git worktree list --porcelain | grep -qx "worktree $(pwd -P)"',
    `test "$(git rev-parse HEAD)" = ${base}`,
    'test "$(git status --porcelain --ignored --untracked-files=all)" = " M pkgs/$SCION_JOB/index.ts"',
    'mkdir -p build && echo out > build/$SCION_JOB.js && echo scratch > scratch.txt && echo more >> README.md',
  ].join(' && ');
}

function lines(stderr: string, text: string): string[] {
  return stderr.split('\n').filter((l) => l.includes(text));
}

function runs(out: string): string[] {
  const f = join(out, 'runs');
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : [];
}

function report(file: string): Map<string, JobReport> {
  return new Map((JSON.parse(readFileSync(file, 'utf8')) as RunReport).jobs.map((j) => [j.name, j]));
}

function noWorktreeLeft(r: TestRepo): void {
  expect(r.git('worktree', 'list', '--porcelain').split('\n\n')).toHaveLength(1);
  const folders = join(r.dir, '.git', 'scion-worktrees');
  expect(existsSync(folders) ? readdirSync(folders) : []).toEqual([]);
  expect(r.git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe('');
}

describe('verify over many jobs of one base', () => {
  it('one full checkout for the run, each verify sees only its own change, an empty job runs no verify; an all-cached rerun makes no worktree', async () => {
    const { r, out } = await setup();
    const recipe = recipeFile(`name: vc
jobs:
  - each: "pkgs/*"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: '${verifyCommand(out, r.head())}'
`);
    const file = join(out, 'report.json');
    const first = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1', '--report', file], { cwd: r.dir });
    expect(first.stderr).not.toContain('internal error');
    expect(first.code, first.stderr).toBe(0);
    const jobs = report(file);
    expect(JOBS.map((j) => jobs.get(j)?.status)).toEqual(['changed', 'changed', 'changed', 'changed']);
    for (const j of JOBS) expect(r.git('diff', '--name-only', 'main', `scion/vc/${j}`)).toBe(`pkgs/${j}/index.ts`);
    // The empty job: no verify run, no checkout, and the report says why.
    expect(jobs.get('p4')).toMatchObject({ status: 'empty', verifySkipped: 'no-change', head: null });
    expect(runs(out)).toEqual(JOBS);
    expect(lines(first.stderr, 'vc/p4: checking out')).toEqual([]);
    expect(lines(first.stderr, 'vc/p4: verify was not run: the job changed nothing')).toHaveLength(1);
    // One checkout of the whole base tree (8 files); the other jobs reuse that worktree, reset.
    expect(lines(first.stderr, 'checking out')).toEqual([expect.stringMatching(/vc\/p0: checking out 8 files$/)]);
    expect(lines(first.stderr, 'reusing a worktree of the base')).toHaveLength(3);
    noWorktreeLeft(r);
    r.git('fsck', '--strict');

    // The rerun: every verify replays from the step cache. No worktree is made, not even for a moment:
    // making one would create git's admin folder and scion's folder again.
    rmSync(join(r.dir, '.git', 'worktrees'), { recursive: true, force: true });
    rmSync(join(r.dir, '.git', 'scion-worktrees'), { recursive: true, force: true });
    const again = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1', '--report', file], { cwd: r.dir });
    expect(again.code, again.stderr).toBe(0);
    expect([...report(file).values()].map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'empty']);
    expect(lines(again.stderr, 'checking out')).toEqual([]);
    expect(lines(again.stderr, 'result from the step cache: not run')).toHaveLength(4);
    expect(runs(out)).toEqual(JOBS);
    expect(existsSync(join(r.dir, '.git', 'worktrees'))).toBe(false);
    expect(existsSync(join(r.dir, '.git', 'scion-worktrees'))).toBe(false);
    r.git('fsck', '--strict');
  });

  it('--concurrency 2: at most one worktree per job running at once, each verify still sees only its own change', async () => {
    const { r, out } = await setup();
    const recipe = recipeFile(`name: two
jobs:
  - each: "pkgs/p[0-3]"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: '${verifyCommand(out, r.head())}'
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '2'], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect([...runs(out)].sort()).toEqual(JOBS);
    const checkouts = lines(res.stderr, 'checking out').length;
    expect(checkouts).toBeGreaterThanOrEqual(1);
    expect(checkouts).toBeLessThanOrEqual(2);
    expect(lines(res.stderr, 'reusing a worktree of the base')).toHaveLength(4 - checkouts);
    noWorktreeLeft(r);
    r.git('fsck', '--strict');
  });

  it('a run step that must run gets the files on disk once, verify reuses them; a rerun replays both without any', async () => {
    const { r, out } = await setup();
    const recipe = recipeFile(`name: gen
jobs:
  - each: "pkgs/p[0-3]"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
  - run: 'echo "$SCION_JOB" >> ${out}/runs && grep -q modern pkgs/$SCION_JOB/index.ts && echo gen > pkgs/$SCION_JOB/gen.ts && mkdir -p build && touch build/x'
verify:
  - run: 'echo "verify $SCION_JOB" >> ${out}/runs && test -f pkgs/$SCION_JOB/gen.ts && test "$(ls pkgs/*/gen.ts)" = pkgs/$SCION_JOB/gen.ts'
`);
    const file = join(out, 'report.json');
    const first = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1', '--report', file], { cwd: r.dir });
    expect(first.code, first.stderr).toBe(0);
    expect(runs(out)).toEqual(JOBS.flatMap((j) => [j, `verify ${j}`]));
    expect(lines(first.stderr, 'checking out')).toHaveLength(1);
    for (const j of JOBS) expect(r.git('show', `scion/gen/${j}:pkgs/${j}/gen.ts`)).toBe('gen');
    noWorktreeLeft(r);

    const again = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1', '--report', file], { cwd: r.dir });
    expect(again.code, again.stderr).toBe(0);
    // The replayed run step gave the same tree: every branch is unchanged.
    expect([...report(file).values()].map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(lines(again.stderr, 'checking out')).toEqual([]);
    expect(runs(out)).toHaveLength(8);
    noWorktreeLeft(r);
    r.git('fsck', '--strict');
  });

  it('changes replayed at object level are on disk for the first command that must run', async () => {
    const { r, out } = await setup();
    const recipe = (second: string) =>
      recipeFile(`name: carry
jobs:
  - each: "pkgs/p0"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
  - run: 'echo step1 >> ${out}/runs && rm pkgs/p0/old.ts && echo made > pkgs/p0/made.ts'
  - run: 'echo step2 >> ${out}/runs && ${second}'
`);
    const first = await scion(['run', recipe('true'), '--repo', r.dir], { cwd: r.dir });
    expect(first.code, first.stderr).toBe(0);
    // Step 1 replays from the cache; step 2 is new, so the files go to disk for it, with the replace's and
    // step 1's changes on them: the edited file, the deleted one, the created one.
    const check = 'grep -q modern pkgs/p0/index.ts && test ! -e pkgs/p0/old.ts && test "$(cat pkgs/p0/made.ts)" = made && echo seen > pkgs/p0/seen.ts';
    const second = await scion(['run', recipe(check), '--repo', r.dir], { cwd: r.dir });
    expect(second.code, second.stderr).toBe(0);
    expect(runs(out)).toEqual(['step1', 'step2', 'step2']);
    expect(lines(second.stderr, 'checking out')).toHaveLength(1);
    expect(r.git('diff', '--name-status', 'main', 'scion/carry')).toBe('M\tpkgs/p0/index.ts\nA\tpkgs/p0/made.ts\nD\tpkgs/p0/old.ts\nA\tpkgs/p0/seen.ts');
    noWorktreeLeft(r);
  });

  it('a failing run step is undone whole, also when its files went to disk only for it', async () => {
    const { r } = await setup();
    const recipe = recipeFile(`name: undone
jobs:
  - each: "pkgs/p0"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
  - run: 'echo half > pkgs/p0/half.ts && echo more >> pkgs/p0/index.ts && exit 3'
`);
    const file = join(mkdtempSync(join(tmpdir(), 'scion-report-')), 'report.json');
    cleanups.push(() => rmSync(join(file, '..'), { recursive: true, force: true }));
    const res = await scion(['run', recipe, '--repo', r.dir, '--report', file], { cwd: r.dir });
    expect(res.code).toBe(1);
    expect(report(file).get('p0')).toMatchObject({ status: 'failed', errors: [{ step: 1, kind: 'command-failed' }] });
    expect(r.git('diff', '--name-only', 'main', 'scion/undone')).toBe('pkgs/p0/index.ts');
    expect(r.git('show', 'scion/undone:pkgs/p0/index.ts')).toBe('modern(p0);');
    noWorktreeLeft(r);
  });

  it('--keep-worktrees gives every job a worktree of its own, left clean at its branch head', async () => {
    const { r, out } = await setup();
    const recipe = recipeFile(`name: kept
jobs:
  - each: "pkgs/p[0-3]"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: '${verifyCommand(out, r.head())}'
`);
    const file = join(out, 'report.json');
    const res = await scion(['run', recipe, '--repo', r.dir, '--concurrency', '1', '--keep-worktrees', '--no-cache', '--report', file], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    expect(lines(res.stderr, 'checking out')).toHaveLength(4);
    const listed = r.git('worktree', 'list', '--porcelain');
    for (const job of report(file).values()) {
      expect(listed).toContain(`worktree ${job.worktree}\nHEAD ${job.head}\nbranch refs/heads/${job.branch}`);
      // Ignored build output a command made stays in a kept worktree; nothing else differs from the head.
      expect(r.git('-C', job.worktree!, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    }
    expect(listed.split('\n\n')).toHaveLength(5);
    r.git('fsck', '--strict');
  });

  it('an idle pooled worktree is clean under git status: at the head a job committed, at the base after a job that failed', async () => {
    const { r, out } = await setup();
    const older = r.git('rev-parse', 'HEAD');
    r.git('commit', '-q', '--allow-empty', '-m', 'second');
    const base = r.head();
    // Jobs over `base` share one worktree; jobs over `older` another, from which native git looks at
    // the first while it waits between jobs (at --concurrency 1 the run takes the recipes in order).
    const job = (name: string, pkg: string, verify: string) =>
      recipeFile(`name: ${name}
jobs:
  - each: "pkgs/${pkg}"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: '${verify}'
`);
    const inspect = (to: string) =>
      [
        `w="$(cat ${out}/idle)"`,
        `git -C "$w" status --porcelain --ignored --untracked-files=all > ${to}.status`,
        `git -C "$w" rev-parse HEAD > ${to}.head`,
        `{ git -C "$w" symbolic-ref -q HEAD || echo detached; } > ${to}.ref`,
      ].join(' && ');
    const look = (name: string) =>
      recipeFile(`name: ${name}
base: ${older}
jobs:
  - each: "pkgs/p3"
steps:
  - replace: { old_string: "legacy(", new_string: "modern(" }
verify:
  - run: '${inspect(`${out}/${name}`)}'
`);
    // Each job leaves build output, an untracked file and an edit of a tracked one behind.
    const mess = `pwd -P > ${out}/idle && mkdir -p build && echo out > build/x.js && echo scratch > scratch.txt && echo more >> README.md`;
    const recipes = [job('done', 'p0', mess), look('look1'), job('broken', 'p1', `${mess} && exit 3`), look('look2')];
    const res = await scion(['run', ...recipes, '--repo', r.dir, '--concurrency', '1'], { cwd: r.dir });
    expect(res.stderr).not.toContain('internal error');
    expect(res.code, res.stderr).toBe(1);
    expect(lines(res.stderr, 'reusing a worktree of the base')).toHaveLength(2);
    const seen = (name: string, what: string) => readFileSync(join(out, `${name}.${what}`), 'utf8').trim();
    // After the job that committed: at its branch head, detached, nothing else on disk.
    expect(seen('look1', 'status')).toBe('');
    expect(seen('look1', 'head')).toBe(r.git('rev-parse', 'scion/done'));
    expect(seen('look1', 'ref')).toBe('detached');
    // After the job whose verify failed: at the base.
    expect(seen('look2', 'status')).toBe('');
    expect(seen('look2', 'head')).toBe(base);
    expect(seen('look2', 'ref')).toBe('detached');
    noWorktreeLeft(r);
    r.git('fsck', '--strict');
  });
});
