import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../src/errors.js';
import { FIX_HINTS } from '../../src/report/hints.js';
import { jobPullRequestBody, renderPrBody, renderSummary } from '../../src/report/markdown.js';
import type { FileReport, JobReport, RunReport } from '../../src/model/types.js';
import { fileReport, job, sampleReport } from './sample.js';

/** Every ```diff block of a body: its fence, its text; asserts each one is closed. */
function diffBlocks(md: string): { fence: string; text: string }[] {
  const blocks: { fence: string; text: string }[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})diff$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const end = lines.indexOf(fence, i + 1);
    expect(end, `fence opened on line ${i + 1} is closed`).toBeGreaterThan(i);
    blocks.push({ fence, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** A generated file whose change is its own (its lines name the file): no two are the same diff. */
const big = (n: number, lines: number, pad = 80): FileReport =>
  fileReport(
    `src/gen/f${n}.ts`,
    Array.from({ length: lines }, (_, i) => `old line ${i} of ${n} ${'x'.repeat(pad)}`).join('\n') + '\n',
    Array.from({ length: lines }, (_, i) => `new line ${i} of ${n}`).join('\n') + '\n',
  );

/** 150 jobs like the monorepo: 60 changed with ~9 files each, 87 failing the same way, 3 empty. */
function campaign(): RunReport {
  const jobs = Array.from({ length: 150 }, (_, j) => {
    const pkg = `pkg-${String(j).padStart(3, '0')}`;
    if (j >= 147) return job({ name: pkg, status: 'empty', head: null });
    const failed = j < 87;
    return job({
      name: pkg,
      status: failed ? 'failed' : 'changed',
      files: Array.from({ length: 9 }, (_, k) => fileReport(`packages/${pkg}/src/m${k}.ts`, `legacyLog(${k});\nkeep();\n`, `log(${k});\nkeep();\n`)),
      errors: failed
        ? [
            {
              step: 1,
              file: `packages/${pkg}/src/legacy.ts`,
              kind: 'not-found' as const,
              code: 8,
              message: `String to replace not found in packages/${pkg}/src/legacy.ts.`,
            },
          ]
        : [],
    });
  });
  return { ...sampleReport(), jobs };
}

describe('renderPrBody (the run)', () => {
  const body = renderPrBody(sampleReport());

  it("opens with a title, the recipes' descriptions and the counts", () => {
    expect(body.split('\n')[0]).toBe('## scion: rename-logger, drop-polyfills');
    expect(body).toContain('Move to the new logger');
    // A pipe in a description must not break out into table syntax.
    expect(body).toContain('Remove polyfills \\| old browsers');
    expect(body).toContain('**3 jobs**: 1 changed, 1 failed, 1 empty · 3 files changed, +5 −4');
    expect(renderPrBody(sampleReport(), { title: 'Weekly codemod' }).split('\n')[0]).toBe('## Weekly codemod');
  });

  it('has a table row per changed or failed job, and leaves empty jobs out', () => {
    const rows = body.split('\n').filter((l) => l.startsWith('| ') && l.includes('scion/'));
    expect(rows).toEqual([
      '| rename-logger/core | `scion/rename-logger/core` | ✅ changed | 2 | 3 | +5 −4 |',
      '| rename-logger/api | `scion/rename-logger/api` | ❌ failed | 0 | 0 | +0 −0 |',
    ]);
    expect(body).toContain('1 other job (unchanged or empty) is not listed.');
    expect(body).not.toContain('scion/drop-polyfills');
  });

  it('lists failures with kind, 1-based step, file and the fix to try', () => {
    expect(body).toContain('### Failures (2)');
    expect(body).toContain('- **not-unique** (code 9): Found 2 matches of the string to replace, but replace\\_all is false.');
    expect(body).toContain('  - In: rename-logger/api (step 2, `packages/api/server.ts`)');
    expect(body).toContain(`Fix: ${FIX_HINTS['not-unique']}`);
    expect(body).toContain(`Fix: ${FIX_HINTS['branch-diverged']}`);
    expect(FIX_HINTS['branch-diverged']).toContain('--force');
  });

  it('gives each changed or failed job a <details> with its files and well-formed diffs', () => {
    expect(body.match(/<details>\n<summary><b>/g)).toHaveLength(2);
    expect(body).toContain('<summary><b>rename-logger/core</b> · scion/rename-logger/core · ✅ changed · 3 files, +5 −4</summary>');
    expect(body).toContain('#### Group `core`: 2 files, +4 −3');
    expect(body).toContain('Commit `111111111111`: refactor(core): new logger');
    expect(body).not.toContain('Scion-Recipe'); // only the subject line of a commit message
    const blocks = diffBlocks(body);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]!.text.split('\n').slice(0, 3)).toEqual(['--- a/src/core/log.ts', '+++ b/src/core/log.ts', '@@ -1,7 +1,7 @@']);
    expect(blocks[1]!.text.split('\n').slice(0, 3)).toEqual(['--- /dev/null', '+++ b/src/core/logger.ts', '@@ -0,0 +1,1 @@']);
    for (const { text } of blocks) {
      const [, , header, ...lines] = text.split('\n');
      const m = /^@@ -\d+,(\d+) \+\d+,(\d+) @@$/.exec(header!)!;
      expect(lines.filter((l) => l[0] !== '+').length).toBe(Number(m[1]));
      expect(lines.filter((l) => l[0] !== '-').length).toBe(Number(m[2]));
    }
    expect(body.match(/<details>/g)).toHaveLength(body.match(/<\/details>/g)!.length);
    expect(body.length).toBeLessThan(65_536);
    expect(body).not.toMatch(/left out|Truncated|not shown/);
  });

  it('groups one mistake whose messages differ only by a count, and says it in words (no placeholders)', () => {
    const fail = (name: string, n: number, file: string) =>
      job({
        name,
        status: 'failed',
        errors: [{ step: 1, file, kind: 'not-unique', code: 9, message: `Found ${n} matches of the string to replace in ${file}, but replace_all is false.` }],
      });
    const r: RunReport = { ...sampleReport(), jobs: [fail('a', 2, 'src/a1.ts'), fail('b', 3, 'src/b.ts'), fail('c', 12, 'lib/v2/c.ts')] };
    const out = renderPrBody(r);
    expect(out).toContain('### Failures (3 in 1 group)');
    expect(out).toContain('- **not-unique** (code 9) × 3: Found N matches of the string to replace in the file, but replace\\_all is false.');
    expect(out).not.toMatch(/\{(file|branch|sha)\}/);
  });

  it('summarises 150 jobs: one group for 87 identical failures, a line per changed or failed job, within 65,536', () => {
    const out = renderPrBody(campaign());
    expect(out.length).toBeLessThanOrEqual(65_536);
    expect(out).toContain('### Failures (87 in 1 group)');
    expect(out).toContain('- **not-found** (code 8) × 87: String to replace not found in the file.');
    expect(out).toContain(', … and 67 more');
    const rows = out.split('\n').filter((l) => l.startsWith('| rename-logger/pkg-'));
    expect(rows).toHaveLength(147);
    expect(out).toContain('3 other jobs (unchanged or empty) are not listed.');
    // Every changed job's details are there; what did not fit is counted, never silently cut.
    const details = out.match(/<summary><b>rename-logger\/pkg-/g)?.length ?? 0;
    const notShown = /… and (\d+) more jobs? not shown/.exec(out);
    expect(details + Number(notShown?.[1] ?? 0)).toBe(147);
    expect(out).not.toContain('**Truncated:**');
    expect(out.match(/<details>/g)?.length ?? 0).toBe(out.match(/<\/details>/g)?.length ?? 0);
  });

  it("never exceeds maxChars, leaving out whole jobs' details and counting them", () => {
    const files = Array.from({ length: 3000 }, (_, i) => fileReport(`packages/p${i}/src/index.ts`, 'a\n', 'b\n'));
    const report: RunReport = { ...sampleReport(), jobs: [job({ name: 'many', files }), job({ name: 'two', files: files.slice(0, 2) })] };
    for (const maxChars of [65_536, 10_000, 1_000]) {
      const out = renderPrBody(report, { maxChars });
      expect(out.length).toBeLessThanOrEqual(maxChars);
      expect(out.match(/<details>/g)?.length ?? 0).toBe(out.match(/<\/details>/g)?.length ?? 0);
      if (maxChars > 1_000) expect(out).toContain('… and 2 more jobs not shown');
    }
  });
});

describe('a change made in many files', () => {
  const same = (path: string) => fileReport(path, 'import { a } from "./legacy";\nkeep();\n', 'import { a } from "./logger";\nkeep();\n');

  it('is one diff in the run-level body, naming the files and jobs that have it', () => {
    const jobs = ['a', 'b', 'c'].map((n) => job({ name: n, files: [same(`packages/${n}/x.ts`), same(`packages/${n}/y.ts`)] }));
    const body = renderPrBody({ ...sampleReport(), jobs });
    expect(diffBlocks(body)).toHaveLength(1);
    expect(body).toContain(
      'The same change in 5 other files: `packages/a/y.ts`, `packages/b/x.ts` (rename-logger/b), `packages/b/y.ts` (rename-logger/b), ' +
        '`packages/c/x.ts` (rename-logger/c), `packages/c/y.ts` (rename-logger/c).',
    );
    expect(body).toContain('- `packages/a/y.ts`: the same change as `packages/a/x.ts`\n');
    expect(body).toContain('- `packages/c/y.ts`: the same change as `packages/a/x.ts` in rename-logger/a\n');
  });

  it("is one diff in a job's own body too", () => {
    const j = job({ name: 'one', files: Array.from({ length: 30 }, (_, i) => same(`src/m${i}.ts`)) });
    const body = jobPullRequestBody({ ...sampleReport(), jobs: [j] }, j);
    expect(diffBlocks(body)).toHaveLength(1);
    expect(body).toContain('The same change in 29 other files: `src/m1.ts`, `src/m2.ts`');
    expect(body).toContain(', … and 19 more.');
  });

  it('outlasts a smaller diff of one file when the limit makes a diff go: diffs are weighed per file they show', () => {
    const before = Array.from({ length: 20 }, (_, k) => `legacyLog('message number ${k}');`).join('\n') + '\n';
    const shared = Array.from({ length: 10 }, (_, i) => fileReport(`src/m${i}.ts`, before, before.replaceAll('legacyLog(', 'log(')));
    const single = big(0, 10, 40);
    const j = job({ name: 'gen', files: [single, ...shared] });
    const all = jobPullRequestBody({ ...sampleReport(), jobs: [j] }, j);
    const [own, common] = diffBlocks(all);
    // The shared diff is the larger one, yet it is the one diff that stays.
    expect(common!.text.length).toBeGreaterThan(own!.text.length);
    const body = jobPullRequestBody({ ...sampleReport(), jobs: [j] }, j, { maxChars: all.length - 200 });
    expect(body).toContain('`src/gen/f0.ts`: diff left out');
    expect(diffBlocks(body).map((b) => b.text)).toEqual([common!.text]);
  });
});

describe("jobPullRequestBody (one job's pull request)", () => {
  const r = sampleReport();
  const [core, api, empty] = r.jobs as [JobReport, JobReport, JobReport];

  it('describes that job alone: its files, its commits, its diffs', () => {
    const body = jobPullRequestBody(r, core);
    expect(body.split('\n')[0]).toBe('Move to the new logger');
    expect(body).toContain('**rename-logger/core** · `scion/rename-logger/core` · 3 files, +5 −4 · base `bbbbbbbbbbbb`');
    // A rerun that found the branch up to date opens or updates the same pull request: no "unchanged" in it.
    const rerun = jobPullRequestBody(r, { ...core, status: 'unchanged' });
    expect(rerun).toBe(body);
    expect(rerun).not.toMatch(/unchanged|✅/);
    expect(body).toContain('### Group `core`: 2 files, +4 −3');
    expect(diffBlocks(body)).toHaveLength(3);
    expect(body).not.toContain('rename-logger/api');
    expect(body).not.toContain('drop-polyfills');
    expect(body).toContain('12,345 input / 678 output tokens');
    expect(jobPullRequestBody(r, core, { title: 'T' }).split('\n')[0]).toBe('## T');
  });

  it('lists its failures, diagnostics and skipped files', () => {
    const withDiag: JobReport = {
      ...api,
      diagnostics: [{ file: 'packages/api/server.ts', line: 3, col: 7, severity: 'error', message: "Cannot find name 'log'.", source: 'tsc', code: 'TS2304' }],
    };
    const body = jobPullRequestBody(r, withDiag);
    expect(body).toContain('### Failures (2)');
    expect(body).toMatch(/- step 2, `packages\/api\/server\.ts`: \*\*not-unique\*\* \(code 9\)/);
    expect(body).toContain(`Fix: ${FIX_HINTS['not-unique']}`);
    expect(body).toContain("### Diagnostics (1)\n\n- `packages/api/server.ts:3:7` error: Cannot find name 'log'. (`tsc`)");
    expect(jobPullRequestBody(r, empty)).toContain('- step 1, `src/polyfills.ts`: already applied');
  });

  it("lists the model's edits the guards refused, in a changed job's body and in the run's", () => {
    const refusals = [
      { step: 0, file: 'test/math.test.ts', guard: 'skips', tool: 'edit_file', message: 'This edit adds .skip …' },
      { step: 2, file: 'tsconfig.json', guard: 'config', tool: 'write_file', message: 'tsconfig.json holds …' },
    ];
    const taught: JobReport = { ...core, refusals };
    const body = jobPullRequestBody(r, taught);
    expect(body).toContain(
      '### Model edits the guards refused (2)\n\n- step 1, `test/math.test.ts`: `edit_file` refused by the `skips` guard\n' +
        '- step 3, `tsconfig.json`: `write_file` refused by the `config` guard\n',
    );
    expect(jobPullRequestBody(r, core)).not.toContain('guards refused');
    const run = renderPrBody({ ...r, jobs: [taught, api, empty] });
    expect(run).toContain('2 refused model edits');
    expect(run).toContain('#### Model edits the guards refused (2)');
  });

  it('keeps a fence that file content with backticks cannot close', () => {
    const md = fileReport('README.md', '# x\n', '# x\n```\ncode\n```\n');
    const j = job({ name: 'docs', files: [md] });
    const [block] = diffBlocks(jobPullRequestBody({ ...sampleReport(), jobs: [j] }, j));
    expect(block!.fence).toBe('````');
    expect(block!.text).toContain('+```');
  });

  it('stays within 65,536 characters on a huge job, dropping the largest diffs first and saying so', () => {
    const files = [big(0, 500), ...Array.from({ length: 40 }, (_, i) => big(i + 1, 20, 0)), big(99, 400)];
    const j = job({ name: 'gen', files });
    const out = jobPullRequestBody({ ...sampleReport(), jobs: [j] }, j);
    expect(out.length).toBeLessThanOrEqual(65_536);
    expect(out).toMatch(/> \*\*Note:\*\* 2 of 42 diffs were left out \(largest first\)/);
    expect(out).toContain('`src/gen/f0.ts`: diff left out');
    expect(out).toContain('`src/gen/f99.ts`: diff left out');
    expect(diffBlocks(out)).toHaveLength(40);
    expect(out).toContain('+new line 19 of 1');
  });
});

describe('renderSummary', () => {
  it('has the counts, the table and the failures but no diffs', () => {
    const s = renderSummary(sampleReport());
    expect(s.split('\n')[0]).toBe('### scion: 3 jobs: 1 changed, 1 empty, 1 failed');
    expect(s).toContain('| rename-logger/api | `scion/rename-logger/api` | ❌ failed | 0 | 0 | +0 −0 |');
    expect(s).toContain('**not-unique** (code 9)');
    expect(s).toContain(FIX_HINTS['not-unique']);
    expect(s).not.toContain('```');
    expect(s.length).toBeLessThan(renderPrBody(sampleReport()).length);
  });

  it('lists the changed files of each job, capped, with a count of the rest', () => {
    const s = renderSummary(sampleReport());
    expect(s).toContain('#### Changed files');
    expect(s).toContain(
      '<summary><b>rename-logger/core</b> · scion/rename-logger/core · 3 files, +5 −4</summary>\n\n- `src/core/log.ts` +3 −3\n- ' +
        '`src/core/logger.ts` +1 −0 (new file)\n- `packages/web/app.ts` +1 −1\n',
    );
    const many = job({ name: 'many', files: Array.from({ length: 120 }, (_, i) => fileReport(`src/f${i}.ts`, 'a\n', 'b\n')) });
    const m = renderSummary({ ...sampleReport(), jobs: [many] });
    expect(m.match(/^- `src\/f\d+\.ts` \+1 −1$/gm)).toHaveLength(50);
    expect(m).toContain('- … and 70 more files');
    // Over the whole summary too: 60 jobs of 50 shown files pass the total of 2,000.
    const c = renderSummary(campaignOfMany());
    expect(c.match(/^- `/gm)).toHaveLength(2_000);
    expect(c).toContain('… and the files of 20 more jobs: see the JSON or HTML report.');
  });

  it('groups repeated failures and lists at most 20 places of each', () => {
    const errors = Array.from({ length: 250 }, (_, i) => ({ step: 0, file: `f${i}.ts`, kind: 'not-found' as const, code: 8, message: 'x'.repeat(1000) }));
    const s = renderSummary({ ...sampleReport(), jobs: [job({ name: 'x', status: 'failed', errors })] });
    expect(s).toContain('#### Failures (250 in 1 group)');
    expect(s).toContain('**not-found** (code 8) × 250');
    expect(s).toContain(', … and 230 more');
    expect(s).toContain(`${'x'.repeat(299)}…`);
    expect(s).not.toContain('x'.repeat(300));
  });

  it('names the steps that changed nothing, per recipe step with its jobs', () => {
    const steps = (idle: number) => [
      { step: 0, kind: 'replace', changed: 2, alreadyApplied: 0 },
      { step: 1, kind: 'replace', changed: 0, alreadyApplied: idle },
    ];
    const report: RunReport = {
      ...sampleReport(),
      jobs: [job({ name: 'a', steps: steps(0) }), job({ name: 'b', steps: steps(0) }), job({ name: 'c', steps: steps(3) })],
    };
    const s = renderSummary(report);
    expect(s).toContain('#### Steps that changed nothing\n\n- `rename-logger` step 2 (`replace`), in 2 jobs: rename-logger/a, rename-logger/b\n');
    expect(renderPrBody(report)).toContain('### Steps that changed nothing');
    expect(jobPullRequestBody(report, report.jobs[0]!)).toContain('**Steps that changed nothing:** step 2 (`replace`)');
    expect(jobPullRequestBody(report, report.jobs[2]!)).not.toContain('changed nothing');
    expect(renderSummary(sampleReport())).not.toContain('changed nothing');
  });

  it('says when there were no jobs', () => {
    expect(renderSummary({ version: 1, repo: '/r', dryRun: true, jobs: [] })).toContain('0 jobs');
  });
});

function campaignOfMany(): RunReport {
  const jobs = Array.from({ length: 60 }, (_, j) =>
    job({ name: `p${j}`, files: Array.from({ length: 60 }, (_, k) => fileReport(`p${j}/f${k}.ts`, 'a\n', 'b\n')) }),
  );
  return { ...sampleReport(), jobs };
}

describe('FIX_HINTS', () => {
  it('has a hint for every error kind', () => {
    for (const kind of ERROR_KINDS) expect(FIX_HINTS[kind].length).toBeGreaterThan(20);
    expect(FIX_HINTS['not-found']).toMatch(/not in the file.*base/);
  });
});

describe('a campaign report (jobs from many repositories)', () => {
  it('groups the run-level table and the job details by repository, naming each repository once', () => {
    // Merged shards interleave repositories: a, b, a, b.
    const jobs = ['a', 'b', 'a', 'b'].map((r, i) => ({
      ...job({ name: `job-${i}`, files: [fileReport(`f${i}.ts`, 'old\n', 'new\n')] }),
      repo: `github.com/acme/${r}`,
    }));
    const body = renderPrBody({ ...sampleReport(), repo: null, jobs });
    const rows = body.split('\n').filter((l) => /^\| .*job-\d/.test(l));
    expect(rows.map((l) => /job-\d/.exec(l)![0])).toEqual(['job-0', 'job-2', 'job-1', 'job-3']);
    expect(rows.map((l) => l.includes('acme/'))).toEqual([true, false, true, false]);
    const details = [...body.matchAll(/<summary>github\.com\/acme\/(\w) · <b>[\w-]+\/(job-\d)<\/b>/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(details).toEqual(['a:job-0', 'a:job-2', 'b:job-1', 'b:job-3']);
  });
});
