// The structural example recipes (recipes/console-to-logger.yaml with its ast-grep rule file,
// recipes/react-lifecycles.yaml with react-codemod's transform) through the CLI, on a git copy of
// the bundled sample project (fixtures/sample, as fixtures/example.sh builds it): each validates,
// changes exactly the file it is about and nothing else in it, equals what the ast-grep CLI and the
// jscodeshift CLI write from the same rule file and transform, and does nothing on a second run.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach } from '../support/cleanups.js';
import { runGit } from '../support/git-repo.js';
import { SCION_COMMAND } from '../support/spawn-cli.js';
import { ROOT } from './oracle.js';

const cleanups = cleanupAfterEach();
const SAMPLE = join(ROOT, 'fixtures', 'sample');
const RECIPES = join(ROOT, 'recipes');
const AST_GREP = join(ROOT, 'node_modules', '@ast-grep', 'cli', 'ast-grep');
const JSCODESHIFT = join(ROOT, 'node_modules', '.bin', 'jscodeshift');

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** fixtures/sample as a git repository, the way fixtures/example.sh makes it. */
function sampleRepo(): { dir: string; git: (...args: string[]) => string } {
  const dir = tempDir('scion-sample-');
  cpSync(SAMPLE, dir, { recursive: true });
  const git = (...args: string[]) => runGit(dir, ...args);
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'example');
  git('config', 'user.email', 'example@localhost');
  git('add', '-A');
  git('commit', '-q', '-m', 'sample project');
  return { dir, git };
}

async function runJson(recipe: string, dir: string): Promise<{ code: number; job: JobReport }> {
  const res = await scion(['run', join(RECIPES, recipe), '--repo', dir, '--json'], { cwd: dir });
  if (res.stdout.trim() === '') throw new Error(`scion printed no report (exit ${res.code}): ${res.stderr}`);
  return { code: res.code, job: (JSON.parse(res.stdout) as RunReport).jobs[0]! };
}

const sampleText = (path: string) => readFileSync(join(SAMPLE, path), 'utf8');

describe('the structural example recipes on the sample project', () => {
  it('both validate', async () => {
    const res = await scion(['validate', join(RECIPES, 'console-to-logger.yaml'), join(RECIPES, 'react-lifecycles.yaml')], { cwd: ROOT });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('console-to-logger.yaml: ok (console-to-logger, 2 steps)');
    expect(res.stdout).toContain('react-lifecycles.yaml: ok (react-lifecycles, 1 step)');
  });

  it('console-to-logger imports the logger and moves both calls to log(), arguments untouched, the guard finding none left', async () => {
    const { dir, git } = sampleRepo();
    const { code, job } = await runJson('console-to-logger.yaml', dir);
    expect(code).toBe(0);
    expect(job.status).toBe('changed');
    const path = 'packages/api/src/jobs.ts';
    expect(git('diff', '--name-only', 'main', 'scion/console-to-logger')).toBe(path);
    const before = sampleText(path);
    const after = git('show', `scion/console-to-logger:${path}`);
    // The multi-line call keeps its object literal, its comment and its trailing comma.
    expect(`${after}\n`).toBe(`import { log } from './logger';\n${before.replaceAll('console.log(', 'log(')}`);
    expect(job.files.map((f) => [f.path, f.matches, f.added, f.removed])).toEqual([[path, 3, 3, 2]]);
    expect(job.steps).toEqual([
      { step: 0, kind: 'astgrep', changed: 1, alreadyApplied: 0, matches: 3 },
      { step: 1, kind: 'astgrep', changed: 0, alreadyApplied: 0, found: 0 },
    ]);
    git('fsck', '--strict');
    expect(git('status', '--porcelain')).toBe('');

    // The ast-grep CLI reads the same rule file; it drops edits that overlap another rule's, so it
    // needs a second run over its own output to reach what scion writes in one.
    const cli = sampleRepo();
    const scan = () => execFileSync(AST_GREP, ['scan', '--rule', join(RECIPES, 'rules', 'console-to-logger.yml'), '-U', '.'], { cwd: cli.dir, stdio: 'pipe' });
    scan();
    expect(readFileSync(join(cli.dir, path), 'utf8')).not.toBe(`${after}\n`);
    scan();
    expect(readFileSync(join(cli.dir, path), 'utf8')).toBe(`${after}\n`);
    expect(cli.git('status', '--porcelain')).toBe(` M ${path}`);

    // Merged, the recipe finds nothing more to do: the import rule does not match a file that has it.
    git('merge', '-q', '--ff-only', 'scion/console-to-logger');
    git('branch', '-q', '-D', 'scion/console-to-logger');
    const again = await runJson('console-to-logger.yaml', dir);
    expect(again.code).toBe(0);
    expect(again.job.status).toBe('empty');
    expect(again.job.files).toEqual([]);
  });

  it('the HTML report and the step summary show the match count beside the file', async () => {
    const { dir } = sampleRepo();
    const out = tempDir('scion-reports-');
    const html = join(out, 'report.html');
    const summary = join(out, 'summary.md');
    writeFileSync(summary, '');
    const res = await scion(['run', join(RECIPES, 'console-to-logger.yaml'), '--repo', dir, '--html', html], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(res.code).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/<code>packages\/api\/src\/jobs\.ts<\/code> <span class="muted">\(3 matches\)<\/span>/);
    expect(readFileSync(summary, 'utf8')).toMatch(/`packages\/api\/src\/jobs\.ts` \+3 −2 \(3 matches\)/);
  });

  it('its guard fails the job, naming the file, when console.log is left as a value the rules do not rewrite', async () => {
    const { dir, git } = sampleRepo();
    const path = 'packages/api/src/jobs.ts';
    writeFileSync(join(dir, path), `${sampleText(path)}export const printAll = (jobs: string[]) => jobs.forEach(console.log);\n`);
    git('commit', '-qam', 'console.log passed as a value');
    const { code, job } = await runJson('console-to-logger.yaml', dir);
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.kind])).toEqual([[1, 'expectation']]);
    expect(job.errors[0]!.message).toContain(`found matches in 1 file (${path}); its expect wants at most 0`);
    expect(job.errors[0]!.hint).toMatch(/rule without a fix found more or fewer files/);
    // onError is stop: the job ends failed, and the branch keeps what the first step did.
    expect(job.status).toBe('failed');
    expect(git('show', `scion/console-to-logger:${path}`)).toContain('log(`api: nightly job ${job}`, {');
  });

  it('react-lifecycles renames the two unsafe methods in the JSX component, as the jscodeshift CLI does', async () => {
    const { dir, git } = sampleRepo();
    const { code, job } = await runJson('react-lifecycles.yaml', dir);
    expect(code).toBe(0);
    const path = 'packages/web/src/Clock.jsx';
    expect(git('diff', '--name-only', 'main', 'scion/react-lifecycles')).toBe(path);
    const after = `${git('show', `scion/react-lifecycles:${path}`)}\n`;
    const before = sampleText(path);
    expect(after).toBe(
      before.replace('componentWillMount()', 'UNSAFE_componentWillMount()').replace('componentWillReceiveProps(', 'UNSAFE_componentWillReceiveProps('),
    );
    expect(job.files.map((f) => [f.path, f.added, f.removed])).toEqual([[path, 2, 2]]);
    expect(job.steps).toEqual([{ step: 0, kind: 'jscodeshift', changed: 1, alreadyApplied: 0 }]);

    const cli = tempDir('scion-jscs-');
    writeFileSync(join(cli, 'Clock.jsx'), before);
    execFileSync(
      JSCODESHIFT,
      ['-t', join(RECIPES, 'transforms', 'rename-unsafe-lifecycles.js'), '--run-in-band', '--printOptions={"quote":"single"}', 'Clock.jsx'],
      {
        cwd: cli,
        stdio: 'pipe',
      },
    );
    expect(readFileSync(join(cli, 'Clock.jsx'), 'utf8')).toBe(after);

    git('merge', '-q', '--ff-only', 'scion/react-lifecycles');
    git('branch', '-q', '-D', 'scion/react-lifecycles');
    // Its expect asks for at least one renamed file: once merged, a rerun says the migration is done.
    const again = await runJson('react-lifecycles.yaml', dir);
    expect(again.code).toBe(1);
    expect(again.job.errors.map((e) => [e.kind, e.message])).toEqual([['expectation', expect.stringMatching(/changed 0 files; its expect wants at least 1/)]]);
    expect(git('branch', '--list', 'scion/*')).toBe('');
  });

  it('fixtures/example.sh runs a named example on a fresh copy and shows the branch it left', () => {
    const cli = SCION_COMMAND.map((a) => `'${a}'`).join(' ');
    const out = execFileSync('bash', [join(ROOT, 'fixtures', 'example.sh'), 'react-lifecycles'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, SCION_CLI: cli },
    });
    const demo = /== sample repository: (\S+)/.exec(out)?.[1];
    expect(demo).toBeDefined();
    cleanups.push(
      () => rmSync(demo!, { recursive: true, force: true }),
      () => rmSync(`${demo!}.report.json`, { force: true }),
    );
    expect(out).toContain('+  UNSAFE_componentWillMount() {');
    expect(out).toContain('Rename unsafe React lifecycle methods');
    expect(runGit(demo!, 'diff', '--name-only', 'main', 'scion/react-lifecycles')).toBe('packages/web/src/Clock.jsx');
    expect(runGit(demo!, 'status', '--porcelain')).toBe('');
  });
});
