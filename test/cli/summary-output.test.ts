// The summary after a run, as a person reads it in a pipe or a CI log, through the CLI: a long run
// names its failed jobs again at the end; "already applied" counts only files found with the change
// in them (not one a `run` step changed outside the selection and scion put back); a step that
// failed is not also said to have "changed nothing"; and in a campaign each job's line names its
// repository.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();
/** The summary's lines: stdout, as a pipe gets it. */
const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '');

describe('the summary of a run', () => {
  it('of more jobs than a screenful recaps the failed ones at its end, after every job line', async () => {
    const files: Record<string, string> = {};
    // Seven packages; two of them no longer hold the text, so their `expect` fails.
    for (let k = 1; k <= 7; k++) files[`packages/p${k}/index.ts`] = k === 3 || k === 6 ? `log('p${k}');\n` : `legacyLog('p${k}');\n`;
    const r = await repo(files);
    const recipe = recipeFile(
      [
        'name: new-log',
        'jobs:',
        '  - each: "packages/*"',
        'steps:',
        '  - replace: { old_string: "legacyLog(", new_string: "log(" }',
        '    expect: { min: 1 }',
        '',
      ].join('\n'),
    );
    const res = await scion(['run', recipe, '--repo', r.dir], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(1);
    const out = lines(res.stdout);
    const recap = out.indexOf('Failed (2 of 7):');
    expect(recap).toBeGreaterThan(0);
    // Every job's own line comes before the recap; the recap names the two, with kind and step.
    const jobLines = out.filter((l) => /^(changed|failed) /.test(l));
    expect(jobLines).toHaveLength(7);
    expect(Math.max(...jobLines.map((l) => out.indexOf(l)))).toBeLessThan(recap);
    expect(out.slice(recap + 1, recap + 3)).toEqual(['  new-log/p3: expectation step 1', '  new-log/p6: expectation step 1']);
    expect(out.at(-1)).toMatch(/failed/);

    // A short run has no recap: its failures are on screen already.
    const short = await scion(['run', recipe, '--repo', r.dir, '--job', 'p[1-3]'], { cwd: r.dir });
    expect(short.code).toBe(1);
    expect(short.stdout).not.toContain('Failed (');
  });

  it('counts as "already applied" only files found with the change in them, never a file a run step changed outside the selection', async () => {
    const r = await repo({ 'src/a.ts': "legacyLog('a');\n", 'src/b.ts': "log('b');\n", 'README.md': '# r\n' });
    const recipe = recipeFile(
      [
        'name: tidy',
        'files: { include: ["src/**"] }',
        'steps:',
        '  - edit: { file: src/b.ts, edits: [{ old_string: "legacyLog(", new_string: "log(" }] }',
        '  - run: "sed -i s/legacyLog/log/ src/a.ts && echo touched >> README.md"',
        '',
      ].join('\n'),
    );
    const out = await mkdtemp(join(tmpdir(), 'scion-summary-report-'));
    const res = await scion(['run', recipe, '--repo', r.dir, '--report', join(out, 'tidy.json')], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'tidy.json'), 'utf8')) as RunReport;
    await rm(out, { recursive: true, force: true });
    // The report keeps both: src/b.ts already had the change, README.md was put back.
    expect(report.jobs[0]!.skipped.map((s) => [s.file, s.reason])).toEqual(
      expect.arrayContaining([
        ['src/b.ts', 'already-applied'],
        ['README.md', 'outside-selection'],
      ]),
    );
    const line = lines(res.stdout).find((l) => l.startsWith('changed '))!;
    expect(line).toMatch(/1 commit, 1 file, \+1 -1, 1 already applied$/);
    expect(r.git('show', 'scion/tidy:README.md')).toBe('# r');
  });

  it('does not say a step that failed "changed nothing"; a step that ran and found nothing is said so', async () => {
    const r = await repo({ 'src/a.ts': "legacyLog('a');\n" });
    const recipe = recipeFile(
      [
        'name: partly',
        'onError: continue',
        'steps:',
        '  - replace: { old_string: "legacyLog(", new_string: "log(" }',
        '  - edit: { file: src/a.ts, edits: [{ old_string: "not there at all", new_string: "x" }] }',
        '  - replace: { old_string: "nothing matches this", new_string: "y" }',
        '',
      ].join('\n'),
    );
    const res = await scion(['run', recipe, '--repo', r.dir], { cwd: r.dir });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/^ {2}not-found .*step 2, src\/a\.ts/m);
    expect(res.stdout).not.toMatch(/step 2 \(edit\) changed nothing/);
    expect(res.stdout).toContain('partly step 3 (replace) changed nothing.');
  });
});

describe('the summary of a campaign', () => {
  const repos: TestRepo[] = [];
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-summary-'));
    for (const n of [1, 2, 3]) repos.push(await gitRepo({ 'src/log.ts': `legacyLog(${n});\n` }));
    await writeFile(join(work, 'repos.txt'), repos.map((r) => r.dir).join('\n') + '\n');
  });
  afterAll(async () => {
    for (const r of repos) await r.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it('names each job’s repository on its line, so the same job in three repositories is three distinct lines', async () => {
    const recipe = recipeFile('name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n');
    const res = await scion(['run', recipe, '--repos', 'repos.txt', '--cache-dir', 'cache'], { cwd: work });
    expect(res.code, res.stderr).toBe(0);
    const changed = lines(res.stdout).filter((l) => l.startsWith('changed '));
    expect(changed).toHaveLength(3);
    for (const [k, r] of repos.entries()) expect(changed[k]).toMatch(new RegExp(`^changed +${r.dir} new-log +scion/new-log +1 commit, 1 file, \\+1 -1$`));
    expect(new Set(changed).size).toBe(3);
  });
});
