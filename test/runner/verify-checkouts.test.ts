// Verify without a checkout per job, through the CLI and judged by native git: jobs over one base
// share worktrees reset between them (one full checkout at --concurrency 1), each job's verify sees
// exactly its own change and nothing another job or command left; a job that changed nothing runs no
// verify and gets no files on disk; a rerun whose every command replays from the step cache makes no
// worktree at all; a worktree waiting between jobs is clean. Commands count their runs in a file
// outside the repository.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import type { TestRepo } from '../support/git-repo.js';
import { nothingLeft, pkgFiles, pkgRecipe, runPkgs } from '../support/pkg-jobs.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const JOBS = ['p0', 'p1', 'p2', 'p3'];

async function setup(): Promise<{ r: TestRepo; out: string }> {
  const r = await repo(pkgFiles(JOBS, { 'README.md': '# r\n', 'pkgs/p0/old.ts': 'old\n', 'pkgs/p4/index.ts': 'modern();\n' }));
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

function runs(out: string): string[] {
  const f = join(out, 'runs');
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : [];
}

const ONE_AT_A_TIME = ['--concurrency', '1'];

describe('verify over many jobs of one base', () => {
  it('one full checkout for the run, each verify sees only its own change, an empty job runs no verify; an all-cached rerun makes no worktree', async () => {
    const { r, out } = await setup();
    const recipe = pkgRecipe('vc', { verify: [verifyCommand(out, r.head())] });
    const first = await runPkgs(r, recipe, ONE_AT_A_TIME);
    expect(first.code, first.stderr).toBe(0);
    expect(JOBS.map((j) => first.jobs.get(j)?.status)).toEqual(['changed', 'changed', 'changed', 'changed']);
    for (const j of JOBS) expect(r.git('diff', '--name-only', 'main', `scion/vc/${j}`)).toBe(`pkgs/${j}/index.ts`);
    // The empty job: no verify run, no checkout, and the report says why.
    expect(first.jobs.get('p4')).toMatchObject({ status: 'empty', verifySkipped: 'no-change', head: null });
    expect(runs(out)).toEqual(JOBS);
    expect(first.lines('vc/p4: checking out')).toEqual([]);
    expect(first.lines('vc/p4: verify was not run: the job changed nothing')).toHaveLength(1);
    // One checkout of the whole base tree (8 files); the other jobs reuse that worktree, reset.
    expect(first.lines('checking out')).toEqual([expect.stringMatching(/vc\/p0: checking out 8 files$/)]);
    expect(first.lines('reusing a worktree of the base')).toHaveLength(3);
    nothingLeft(r);
    r.git('fsck', '--strict');

    // The rerun: every verify replays from the step cache. No worktree is made, not even for a moment:
    // making one would create git's admin folder and scion's folder again.
    rmSync(join(r.dir, '.git', 'worktrees'), { recursive: true, force: true });
    rmSync(join(r.dir, '.git', 'scion-worktrees'), { recursive: true, force: true });
    const again = await runPkgs(r, recipe, ONE_AT_A_TIME);
    expect(again.code, again.stderr).toBe(0);
    expect([...again.jobs.values()].map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'empty']);
    expect(again.lines('checking out')).toEqual([]);
    expect(again.lines('result from the step cache: not run')).toHaveLength(4);
    expect(runs(out)).toEqual(JOBS);
    expect(existsSync(join(r.dir, '.git', 'worktrees'))).toBe(false);
    expect(existsSync(join(r.dir, '.git', 'scion-worktrees'))).toBe(false);
    r.git('fsck', '--strict');
  });

  it('--concurrency 2: at most one worktree per job running at once, each verify still sees only its own change', async () => {
    const { r, out } = await setup();
    const res = await runPkgs(r, pkgRecipe('two', { each: 'p[0-3]', verify: [verifyCommand(out, r.head())] }), ['--concurrency', '2']);
    expect(res.code, res.stderr).toBe(0);
    expect([...runs(out)].sort()).toEqual(JOBS);
    const checkouts = res.lines('checking out').length;
    expect(checkouts).toBeGreaterThanOrEqual(1);
    expect(checkouts).toBeLessThanOrEqual(2);
    expect(res.lines('reusing a worktree of the base')).toHaveLength(4 - checkouts);
    nothingLeft(r);
    r.git('fsck', '--strict');
  });

  it('a run step that must run gets the files on disk once, verify reuses them; a rerun replays both without any', async () => {
    const { r, out } = await setup();
    const recipe = pkgRecipe('gen', {
      each: 'p[0-3]',
      run: [
        `echo "$SCION_JOB" >> ${out}/runs && grep -q modern pkgs/$SCION_JOB/index.ts && echo gen > pkgs/$SCION_JOB/gen.ts && mkdir -p build && touch build/x`,
      ],
      verify: [`echo "verify $SCION_JOB" >> ${out}/runs && test -f pkgs/$SCION_JOB/gen.ts && test "$(ls pkgs/*/gen.ts)" = pkgs/$SCION_JOB/gen.ts`],
    });
    const first = await runPkgs(r, recipe, ONE_AT_A_TIME);
    expect(first.code, first.stderr).toBe(0);
    expect(runs(out)).toEqual(JOBS.flatMap((j) => [j, `verify ${j}`]));
    expect(first.lines('checking out')).toHaveLength(1);
    for (const j of JOBS) expect(r.git('show', `scion/gen/${j}:pkgs/${j}/gen.ts`)).toBe('gen');
    nothingLeft(r);

    const again = await runPkgs(r, recipe, ONE_AT_A_TIME);
    expect(again.code, again.stderr).toBe(0);
    // The replayed run step gave the same tree: every branch is unchanged.
    expect([...again.jobs.values()].map((j) => j.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(again.lines('checking out')).toEqual([]);
    expect(runs(out)).toHaveLength(8);
    nothingLeft(r);
    r.git('fsck', '--strict');
  });

  it('changes replayed at object level are on disk for the first command that must run', async () => {
    const { r, out } = await setup();
    const recipe = (second: string) =>
      pkgRecipe('carry', {
        each: 'p0',
        run: [`echo step1 >> ${out}/runs && rm pkgs/p0/old.ts && echo made > pkgs/p0/made.ts`, `echo step2 >> ${out}/runs && ${second}`],
      });
    const first = await runPkgs(r, recipe('true'));
    expect(first.code, first.stderr).toBe(0);
    // Step 1 replays from the cache; step 2 is new, so the files go to disk for it, with the replace's and
    // step 1's changes on them: the edited file, the deleted one, the created one.
    const check = 'grep -q modern pkgs/p0/index.ts && test ! -e pkgs/p0/old.ts && test "$(cat pkgs/p0/made.ts)" = made && echo seen > pkgs/p0/seen.ts';
    const second = await runPkgs(r, recipe(check));
    expect(second.code, second.stderr).toBe(0);
    expect(runs(out)).toEqual(['step1', 'step2', 'step2']);
    expect(second.lines('checking out')).toHaveLength(1);
    expect(r.git('diff', '--name-status', 'main', 'scion/carry')).toBe('M\tpkgs/p0/index.ts\nA\tpkgs/p0/made.ts\nD\tpkgs/p0/old.ts\nA\tpkgs/p0/seen.ts');
    nothingLeft(r);
  });

  it('a failing run step is undone whole, also when its files went to disk only for it', async () => {
    const { r } = await setup();
    const res = await runPkgs(r, pkgRecipe('undone', { each: 'p0', run: ['echo half > pkgs/p0/half.ts && echo more >> pkgs/p0/index.ts && exit 3'] }));
    expect(res.code).toBe(1);
    expect(res.jobs.get('p0')).toMatchObject({ status: 'failed', errors: [{ step: 1, kind: 'command-failed' }] });
    expect(r.git('diff', '--name-only', 'main', 'scion/undone')).toBe('pkgs/p0/index.ts');
    expect(r.git('show', 'scion/undone:pkgs/p0/index.ts')).toBe('modern(p0);');
    nothingLeft(r);
  });

  it('--keep-worktrees gives every job a worktree of its own, left clean at its branch head', async () => {
    const { r, out } = await setup();
    const recipe = pkgRecipe('kept', { each: 'p[0-3]', verify: [verifyCommand(out, r.head())] });
    const res = await runPkgs(r, recipe, [...ONE_AT_A_TIME, '--keep-worktrees', '--no-cache']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.lines('checking out')).toHaveLength(4);
    const listed = r.git('worktree', 'list', '--porcelain');
    for (const job of res.jobs.values()) {
      expect(listed).toContain(`worktree ${job.worktree}\nHEAD ${job.head}\nbranch refs/heads/${job.branch}`);
      // Ignored build output a command made stays in a kept worktree; nothing else differs from the head.
      expect(r.git('-C', job.worktree!, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    }
    expect(listed.split('\n\n')).toHaveLength(5);
    r.git('fsck', '--strict');
  });

  it('a waiting pooled worktree is clean under git status: at the head a job committed, at the base after a job that failed', async () => {
    const { r, out } = await setup();
    const older = r.git('rev-parse', 'HEAD');
    r.git('commit', '-q', '--allow-empty', '-m', 'second');
    const base = r.head();
    // Jobs over `base` share one worktree; jobs over `older` another, from which native git looks at
    // the first while it waits between jobs (at --concurrency 1 the run takes the recipes in order).
    // Each job over `base` leaves build output, an untracked file and an edit of a tracked one behind.
    const mess = `pwd -P > ${out}/idle && mkdir -p build && echo out > build/x.js && echo scratch > scratch.txt && echo more >> README.md`;
    const look = (name: string) => {
      const to = `${out}/${name}`;
      const inspect = [
        `w="$(cat ${out}/idle)"`,
        `git -C "$w" status --porcelain --untracked-files=all > ${to}.status`,
        `git -C "$w" status --porcelain --ignored --untracked-files=all > ${to}.all`,
        `git -C "$w" rev-parse HEAD > ${to}.head`,
        `{ git -C "$w" symbolic-ref -q HEAD || echo detached; } > ${to}.ref`,
      ];
      return pkgRecipe(name, { base: older, each: 'p3', verify: [inspect.join(' && ')] });
    };
    const recipes = [
      pkgRecipe('done', { each: 'p0', verify: [mess] }),
      look('look1'),
      pkgRecipe('broken', { each: 'p1', verify: [`${mess} && exit 3`] }),
      look('look2'),
    ];
    const res = await runPkgs(r, recipes, ONE_AT_A_TIME);
    expect(res.code, res.stderr).toBe(1);
    expect(res.lines('reusing a worktree of the base')).toHaveLength(2);
    const seen = (name: string, what: string) => readFileSync(join(out, `${name}.${what}`), 'utf8').trim();
    // After the job that committed: at its branch head, detached; only its ignored build output waits
    // for the next job's reset.
    expect(seen('look1', 'status')).toBe('');
    expect(seen('look1', 'all')).toBe('!! build/x.js');
    expect(seen('look1', 'head')).toBe(r.git('rev-parse', 'scion/done'));
    expect(seen('look1', 'ref')).toBe('detached');
    // After the job whose verify failed: at the base, nothing else on disk.
    expect(seen('look2', 'status')).toBe('');
    expect(seen('look2', 'all')).toBe('');
    expect(seen('look2', 'head')).toBe(base);
    expect(seen('look2', 'ref')).toBe('detached');
    nothingLeft(r);
    r.git('fsck', '--strict');
  });
});
