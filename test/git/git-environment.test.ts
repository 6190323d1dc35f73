// The environment is not a bug: a full disk, a read-only .git (by its modes, or a read-only mount),
// a repository owned by another user, one inside a folder the user may not enter and a partial
// clone's missing blobs each end in kind `environment` (path and fix in one sentence), the report is
// still written where there are jobs, and nothing says "internal error". Native git judges what is
// left behind.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitEnv, gitRepo, runGit } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { SCION_COMMAND } from '../support/spawn-cli.js';

const cleanups = cleanupAfterEach();
const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const NOBODY = 65534;

const RECIPE = `name: env
files: { include: ["src/**"] }
steps:
  - replace: { old_string: "old", new_string: "new", replace_all: true }
`;

/** Native git in a repository root does not own: it must be told the directory is safe. */
const gitAsRoot = (dir: string, ...args: string[]) => runGit(dir, '-c', 'safe.directory=*', ...args);

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'scion-env-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

async function repoIn(parent: string, files: Record<string, string>): Promise<string> {
  const r = await gitRepo(files);
  cleanups.push(r.cleanup);
  const dir = join(parent, 'repo');
  execFileSync('cp', ['-a', r.dir, dir]);
  return dir;
}

/** The one job of the report; a missing report fails with what scion printed (not a bare ENOENT). */
function readJob(report: string, stderr = ''): JobReport {
  if (!existsSync(report)) throw new Error(`scion wrote no report at ${report}; it said: ${stderr || '(nothing)'}`);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as RunReport;
  expect(parsed.jobs).toHaveLength(1);
  return parsed.jobs[0]!;
}

function expectEnvironment(job: JobReport, pattern: RegExp): void {
  expect(job.status).toBe('failed');
  expect(job.head).toBeNull();
  expect(job.errors).toHaveLength(1);
  expect(job.errors[0]!.kind).toBe('environment');
  expect(job.errors[0]!.message).toMatch(pattern);
}

const isolated = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const CLI = SCION_COMMAND;

/**
 * `scion ARGS` as the unprivileged user nobody. The checkout holding scion's sources may lie under a
 * folder only its owner may enter (a fresh clone in a `mktemp -d` folder, 0700): each folder above
 * the checkout that others may not enter is opened to them for search only (o+x, no listing, no
 * writing) while the test runs, and closed again after it.
 */
function asNobody(args: readonly string[], o: { cwd: string; home: string }) {
  for (let d = ROOT; ; d = dirname(d)) {
    const mode = statSync(d).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(d, mode | 0o001);
      cleanups.push(() => chmodSync(d, mode));
    }
    if (dirname(d) === d) break;
  }
  return spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...CLI, ...args], {
    cwd: o.cwd,
    env: { ...gitEnv(), HOME: o.home, NO_COLOR: '1' },
    encoding: 'utf8',
  });
}

/**
 * `scion ARGS` in a mount namespace of its own where `dir` is bind-mounted onto itself and remounted
 * read-only (`unshare -m`, as root): the file system itself refuses every write there, whoever asks.
 */
function withReadOnly(dir: string, args: readonly string[], cwd: string) {
  const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"';
  const env = { ...gitEnv(), ...isolated, NO_COLOR: '1' };
  const res = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', dir, ...CLI, ...args], { cwd, env, encoding: 'utf8' });
  if (res.status === null || /unshare failed|mount: .*(denied|not permitted)/.test(res.stderr)) {
    throw new Error(`unshare -m and a read-only bind mount are not permitted on this machine (run the tests as root): ${res.stderr}`);
  }
  return res;
}

describe('environment errors end a job, not the run', () => {
  it('a full disk (a 1 MiB tmpfs): kind environment naming the path, report written, repository intact', async () => {
    const mnt = tempDir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      // No mount here (an unprivileged container): the read-only test below covers the same path.
      throw new Error('mount -t tmpfs is not permitted on this machine; run the tests as root');
    }
    cleanups.push(() => {
      execFileSync('umount', [mnt]);
    });
    const dir = await repoIn(mnt, { 'src/a.txt': 'old\n', 'src/b.txt': 'old old\n' });
    const base = gitAsRoot(dir, 'rev-parse', 'HEAD');
    // Fill the disk to the last block.
    spawnSync('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
    const report = join(tempDir(), 'report.json');
    const res = await scion(['run', recipeFile(RECIPE), '--repo', dir, '--report', report], { cwd: dir, env: isolated });
    expect(res.stderr).not.toMatch(/internal error|This is a bug/);
    expect(res.code).toBe(1);
    const job = readJob(report, res.stderr);
    expectEnvironment(job, /disk is full/);
    expect(job.errors[0]!.message).toContain(join(dir, '.git'));
    rmSync(join(mnt, 'filler'));
    // Nothing half-written: no branch, no kept pack, no temp file; fsck is clean.
    expect(gitAsRoot(dir, 'branch', '--list', 'scion/*')).toBe('');
    expect(gitAsRoot(dir, 'rev-parse', 'HEAD')).toBe(base);
    expect(execFileSync('find', [join(dir, '.git/objects/pack'), '-name', '*.keep', '-o', '-name', '.tmp-*'], { encoding: 'utf8' })).toBe('');
    gitAsRoot(dir, 'fsck', '--strict', '--no-dangling');
  });

  it('a read-only .git (chmod -R a-w, scion run as an unprivileged user): kind environment', async () => {
    const parent = tempDir();
    chmodSync(parent, 0o755);
    const dir = await repoIn(parent, { 'src/a.txt': 'old\n' });
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
    execFileSync('chmod', ['-R', 'a-w', join(dir, '.git')]);
    const out = join(parent, 'out');
    mkdirSync(out);
    chownSync(out, NOBODY, NOBODY);
    const report = join(out, 'report.json');
    const recipe = join(out, 'recipe.yaml');
    writeFileSync(recipe, RECIPE);
    const res = asNobody(['run', recipe, '--repo', dir, '--report', report], { cwd: parent, home: out });
    expect(res.stderr).not.toMatch(/internal error|This is a bug/);
    expect(res.status, res.stderr).toBe(1);
    const job = readJob(report, res.stderr);
    expectEnvironment(job, /permission denied/);
    expect(job.errors[0]!.message).toContain(join(dir, '.git'));
    execFileSync('chmod', ['-R', 'u+w', join(dir, '.git')]);
    expect(gitAsRoot(dir, 'branch', '--list', 'scion/*')).toBe('');
    gitAsRoot(dir, 'fsck', '--strict', '--no-dangling');
  });

  for (const [name, before] of [
    ['a repository scion never ran in', () => undefined],
    [
      'one scion ran in before (its lock folders are there)',
      (dir: string) => {
        for (const d of ['locks', 'ref-locks']) mkdirSync(join(dir, '.git', 'scion', d), { recursive: true });
      },
    ],
  ] as const) {
    it(`a read-only .git (a bind mount remounted read-only, unshare -m), ${name}: kind environment naming .git, report written`, async () => {
      const parent = tempDir();
      const dir = await repoIn(parent, { 'src/a.txt': 'old\n', 'src/b.txt': 'old old\n' });
      before(dir);
      const out = tempDir();
      const report = join(out, 'report.json');
      const res = withReadOnly(join(dir, '.git'), ['run', recipeFile(RECIPE), '--repo', dir, '--report', report], out);
      expect(res.stderr).not.toMatch(/internal error|This is a bug/);
      expect(res.status, res.stderr).toBe(1);
      const job = readJob(report, res.stderr);
      expectEnvironment(job, /read-only/);
      expect(job.errors[0]!.message).toContain(join(dir, '.git'));
      expect(job.errors[0]!.message).toContain('(EROFS');
      // Outside the namespace the folder is writable again, and nothing was written into it.
      expect(gitAsRoot(dir, 'branch', '--list', 'scion/*')).toBe('');
      expect(gitAsRoot(dir, 'status', '--porcelain')).toBe('');
      gitAsRoot(dir, 'fsck', '--strict', '--no-dangling');
    });
  }

  it('a repository inside a folder the user may not enter: kind environment naming that folder, exit 1', async () => {
    const parent = tempDir();
    chmodSync(parent, 0o755);
    const locked = join(parent, 'private');
    mkdirSync(locked);
    const dir = await repoIn(locked, { 'src/a.txt': 'old\n' });
    chownSync(locked, NOBODY, NOBODY);
    chmodSync(locked, 0o700);
    const out = join(parent, 'out');
    mkdirSync(out);
    chownSync(out, NOBODY, NOBODY);
    const recipe = join(out, 'recipe.yaml');
    writeFileSync(recipe, RECIPE);
    // Root, but without the capabilities that let root ignore file modes: the folder's 0700 holds.
    const args = ['run', recipe, '--repo', dir, '--report', join(out, 'report.json')];
    const res = spawnSync('setpriv', ['--bounding-set=-dac_override,-dac_read_search', ...CLI, ...args], {
      cwd: out,
      env: { ...gitEnv(), NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(res.stderr).not.toMatch(/internal error|This is a bug|does not exist/);
    expect(res.status, res.stderr).toBe(1);
    expect(res.stderr).toContain(`Cannot read ${dir} (EACCES at ${locked}): permission denied`);
  });

  it('a repository owned by another user: refused as git refuses it (safe.directory), nothing written', async () => {
    const parent = tempDir();
    const dir = await repoIn(parent, { 'src/a.txt': 'old\n' });
    execFileSync('chown', ['-R', '12345:12345', dir]);
    const report = join(tempDir(), 'report.json');
    const res = await scion(['run', recipeFile(RECIPE), '--repo', dir, '--report', report], { cwd: dir, env: isolated });
    expect(res.stderr).not.toMatch(/internal error|This is a bug/);
    expect(res.code).toBe(1);
    const job = readJob(report, res.stderr);
    expectEnvironment(job, /owned by another user/);
    expect(job.errors[0]!.message).toContain(`git config --global --add safe.directory ${dir}`);
    // Native git refuses it too; scion left nothing behind, least of all files root owns.
    expect(spawnSync('git', ['status'], { cwd: dir, env: gitEnv(), encoding: 'utf8' }).stderr).toMatch(/dubious ownership/);
    expect(execFileSync('find', [dir, '-uid', '0'], { encoding: 'utf8' })).toBe('');
    expect(gitAsRoot(dir, 'branch', '--list', 'scion/*')).toBe('');

    // Named in the global config's safe.directory (or `*`), it is the user's call: scion runs.
    const global = join(tempDir(), 'gitconfig');
    for (const value of [dir, '*']) {
      writeFileSync(global, `[safe]\n\tdirectory = ${value}\n`);
      const ok = await scion(['run', recipeFile(RECIPE), '--repo', dir, '--dry-run'], {
        cwd: dir,
        env: { GIT_CONFIG_GLOBAL: global, GIT_CONFIG_NOSYSTEM: '1' },
      });
      expect(ok.code, ok.stderr).toBe(0);
    }
    // An empty value resets the list, as in git.
    writeFileSync(global, `[safe]\n\tdirectory = *\n\tdirectory =\n`);
    const reset = await scion(['run', recipeFile(RECIPE), '--repo', dir, '--dry-run'], {
      cwd: dir,
      env: { GIT_CONFIG_GLOBAL: global, GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(reset.code).toBe(1);
  });

  it('a blobless partial clone whose blobs are not local: kind environment naming the clone and the fix', async () => {
    const src = await gitRepo({ 'src/a.txt': 'old\n', 'src/b.txt': 'old\n' });
    cleanups.push(src.cleanup);
    src.git('config', 'uploadpack.allowFilter', 'true');
    const dir = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', '--no-checkout', '--filter=blob:none', `file://${src.dir}`, dir], { env: gitEnv() });
    const report = join(tempDir(), 'report.json');
    const res = await scion(['run', recipeFile(RECIPE), '--repo', dir, '--report', report], { cwd: dir, env: isolated });
    expect(res.stderr).not.toMatch(/internal error|This is a bug/);
    expect(res.code).toBe(1);
    const job = readJob(report, res.stderr);
    expectEnvironment(job, /partial clone/);
    expect(job.errors[0]!.message).toContain(join(dir, '.git'));
    expect(runGit(dir, 'branch', '--list', 'scion/*')).toBe('');
    // The fix the message names works: fetched, the blobs are local and the run succeeds.
    const fix = /`git (--git-dir=\S+) cat-file -p ([0-9a-f]{40})`/.exec(job.errors[0]!.message);
    expect(fix).not.toBeNull();
    expect(execFileSync('git', [fix![1]!, 'cat-file', '-p', fix![2]!], { env: gitEnv(), encoding: 'utf8' })).toBe('old\n');
  });

  it('--base HEAD~1 in a depth-1 clone: says the base is beyond the shallow history and how to fetch it', async () => {
    const src = await gitRepo({ 'src/a.txt': 'old\n' });
    cleanups.push(src.cleanup);
    writeFileSync(join(src.dir, 'src/a.txt'), 'old old\n');
    src.git('commit', '-qam', 'second');
    const dir = join(tempDir(), 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${src.dir}`, dir], { env: gitEnv() });
    const res = await scion(['run', recipeFile(RECIPE), '--repo', dir, '--base', 'HEAD~1'], { cwd: dir, env: isolated });
    expect(res.stderr).not.toMatch(/internal error|This is a bug|git fsck/);
    expect(res.stderr).toContain("the base is beyond the shallow clone's history".replace('the base', 'The base HEAD~1'));
    expect(res.stderr).toContain('git fetch --deepen N');
    expect(res.code).toBe(1);
    // Inside the shallow history the same run works.
    expect((await scion(['run', recipeFile(RECIPE), '--repo', dir, '--base', 'HEAD'], { cwd: dir, env: isolated })).code).toBe(0);
    runGit(dir, 'fsck', '--strict', '--no-dangling');
  });
});
