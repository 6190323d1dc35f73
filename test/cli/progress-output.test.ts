// What a person reads while a run or a campaign works, and after it, through the CLI: the progress
// total known from the first line (or said to be still counting), the phase a job is in (checking
// out), a changed-files count that survives verify, and a summary that is neither cut mid-name on a
// terminal nor padded into 200-column lines in a pipe.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveView } from '../../src/cli/live.js';
import { scion } from '../support/cli.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

/** The `[done/total]` prefixes of plain progress lines, in order. */
const prefixes = (stderr: string) => [...stderr.matchAll(/^\[(\d+)\/(\d+\+?)\] /gm)].map((m) => ({ done: Number(m[1]), total: m[2]! }));

const TWO_JOBS = [
  'name: new-log',
  'jobs:',
  '  - name: web',
  '  - name: api',
  'steps:',
  '  - replace: { old_string: "legacyLog(", new_string: "log(" }',
  '',
].join('\n');

const EACH = ['name: new-log', 'jobs:', '  - each: "packages/*"', 'steps:', '  - replace: { old_string: "legacyLog(", new_string: "log(" }', ''].join('\n');

describe('progress of a campaign', () => {
  const repos: TestRepo[] = [];
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-progress-'));
    for (const n of [1, 2, 3]) {
      const files: Record<string, string> = { 'src/log.ts': `legacyLog(${n});\n` };
      // Each repository has its own number of packages: 1, 2 and 3.
      for (let k = 1; k <= n; k++) files[`packages/p${k}/index.ts`] = `legacyLog('p${k}');\n`;
      repos.push(await gitRepo(files));
    }
    // The last line names a server where nothing answers: its jobs fail and still count as done.
    await writeFile(join(work, 'repos.txt'), [...repos.map((r) => r.dir), 'http://127.0.0.1:9/acme/gone.git'].join('\n') + '\n');
  });
  afterAll(async () => {
    for (const r of repos) await r.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it('knows its total before the first clone: every line says n/8, and the last job makes it 8/8', async () => {
    const r = await scion(['plan', recipeFile(TWO_JOBS), '--repos', 'repos.txt', '--cache-dir', 'cache', '--concurrency', '1'], { cwd: work });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('scion: 8 jobs in 4 repositories');
    const seen = prefixes(r.stderr);
    expect(seen.length).toBeGreaterThan(20);
    expect(new Set(seen.map((p) => p.total))).toEqual(new Set(['8']));
    expect(seen.at(-1)!.done).toBe(8);
    // The unreachable repository's jobs end in the progress too, named with it.
    expect(r.stderr).toMatch(/^\[\d\/8\] 127\.0\.0\.1:9\/acme\/gone new-log\/web: failed/m);
  });

  it('with `each` jobs, says it is still counting until every repository was read, then the exact total', async () => {
    const r = await scion(['plan', recipeFile(EACH), '--repos', 'repos.txt', '--cache-dir', 'cache', '--concurrency', '1'], { cwd: work });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('scion: at least 4 jobs in 4 repositories (the rest are counted as each repository is read)');
    const seen = prefixes(r.stderr);
    // 1 + 2 + 3 packages, and the one `each` entry of the repository that could not be cloned.
    expect(seen[0]!.total).toBe('4+');
    expect(seen.at(-1)).toEqual({ done: 7, total: '7' });
    expect(r.stderr).toContain('scion: 7 jobs in all');
    // Never a total below what is done, and never a bare number that later grows.
    for (const [i, p] of seen.entries()) {
      expect(p.done).toBeLessThanOrEqual(Number.parseInt(p.total, 10));
      if (!p.total.endsWith('+')) expect(seen.slice(i).every((q) => q.total === p.total)).toBe(true);
    }
  });

  it('in a pipe, a summary of long names keeps each line at its natural width instead of padding every line to the longest', async () => {
    const long = TWO_JOBS.replace('name: web', 'name: the-web-frontend-application-package').replace(
      'name: new-log',
      'name: move-to-the-new-structured-logger',
    );
    const r = await scion(['plan', recipeFile(long), '--repos', 'repos.txt', '--cache-dir', 'cache', '--stat'], { cwd: work });
    const lines = r.stdout.split('\n').filter((l) => /^(changed|failed) /.test(l));
    expect(lines).toHaveLength(8);
    const api = lines.find((l) => l.includes(`${repos[0]!.dir} move-to-the-new-structured-logger/api `))!;
    expect(api).toBe(`changed   ${repos[0]!.dir} move-to-the-new-structured-logger/api  scion/move-to-the-new-structured-logger/api  1 commit, 2 files, +2 -2`);
    expect(api.length).toBeLessThan(Math.max(...lines.map((l) => l.length)));
  });
});

describe('progress of one job', () => {
  let repo: TestRepo;
  beforeAll(async () => {
    repo = await gitRepo({ 'src/a.ts': 'legacyLog(1);\n', 'src/b.ts': 'legacyLog(2);\n', 'README.md': '# r\n' });
  });
  afterAll(() => repo.cleanup());

  const WITH_VERIFY = ['name: new-log', 'steps:', '  - replace: { old_string: "legacyLog(", new_string: "log(" }', 'verify:', '  - run: "true"', ''].join('\n');

  it('says the job is checking out the base tree when its verify command must run, and verify keeps the count of changed files', async () => {
    const r = await scion(['plan', recipeFile(WITH_VERIFY), '--repo', repo.dir], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').map((l) => l.replace(/^\[\d+\/\d+\] /, ''));
    const at = (text: string) => lines.indexOf(text);
    // The replace works on git objects; the files go to disk only for the command, which a plan runs.
    expect(at('new-log/new-log: step 1/2: replace "legacyLog("')).toBe(at('new-log/new-log: start') + 1);
    expect(at('new-log/new-log: checking out 3 files')).toBe(at('new-log/new-log: step 2/2: verify true') + 1);
    expect(at('new-log/new-log: $ true')).toBe(at('new-log/new-log: checking out 3 files') + 1);
    expect(lines).toContain('new-log/new-log: step 1 ok, 2 files changed so far');
    expect(lines).toContain('new-log/new-log: step 2 ok, 2 files changed so far');
  });

  it('the live view shows "checking out" for that phase, not "starting"', () => {
    const view = new LiveView({ write: () => true, columns: 100, rows: 20 }, { timers: false, now: () => 0 });
    view.onEvent({ type: 'jobs', jobs: [{ id: 'r/j', recipe: 'r', name: 'j', branch: 'scion/r/j', steps: ['verify true'] }] });
    view.onEvent({ type: 'job-start', job: 'r/j' });
    view.onEvent({ type: 'log', job: 'r/j', message: 'checking out 27,674 files' });
    expect(view.frame()[1]).toBe('  r/j 0 s · checking out 27,674 files');
  });

  it('on a terminal, a job name too long for the summary is cut at its end, never in the middle', async () => {
    const name = 'rename-the-legacy-logger-everywhere-in-the-monorepo-today';
    const r = await scion(['plan', recipeFile(WITH_VERIFY.replace('name: new-log', `name: ${name}`)), '--repo', repo.dir], { cwd: repo.dir, tty: true });
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('changed '))!;
    expect(line.length).toBeLessThan(80);
    const shown = line.split(/\s+/)[1]!;
    expect(shown.endsWith('…')).toBe(true);
    expect(name.startsWith(shown.slice(0, -1))).toBe(true);
  });
});
