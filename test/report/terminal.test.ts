import { describe, expect, it } from 'vitest';
import { renderPlanDiff, renderSummaryText } from '../../src/report/terminal.js';
import type { FileReport } from '../../src/model/types.js';
import { fileReport, sampleReport } from './sample.js';

const ANSI = /\x1b\[/;

describe('renderPlanDiff', () => {
  // Lines 10..20 of a file; line 15 changes, so the hunk starts at 12 with 3 lines of context.
  const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const after = before.replace('line 15\n', 'line fifteen\nline 15b\n');
  const file = fileReport('src/a.ts', before, after);

  it('puts old and new line numbers in the gutter', () => {
    const out = renderPlanDiff([file], { color: false });
    const lines = out.split('\n');
    expect(lines.slice(0, 4)).toEqual(['src/a.ts  +2 -1', '--- a/src/a.ts', '+++ b/src/a.ts', '@@ -12,7 +12,8 @@']);
    expect(lines.slice(4, 13)).toEqual([
      '12 12 │  line 12',
      '13 13 │  line 13',
      '14 14 │  line 14',
      '15    │ -line 15',
      '   15 │ +line fifteen',
      '   16 │ +line 15b',
      '16 17 │  line 16',
      '17 18 │  line 17',
      '18 19 │  line 18',
    ]);
    expect(out).not.toMatch(ANSI);
  });

  it('numbers several hunks, a new file and a missing final newline', () => {
    const f = fileReport('b.txt', 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk', 'A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nK');
    const out = renderPlanDiff([f, fileReport('new.txt', '', 'x\n')], { color: false }).split('\n');
    expect(out).toContain('@@ -1,4 +1,4 @@');
    expect(out).toContain(' 1    │ -a');
    expect(out).toContain('    1 │ +A');
    expect(out).toContain('@@ -8,4 +8,4 @@');
    expect(out).toContain('11    │ -k');
    expect(out).toContain('      │ \\ No newline at end of file');
    expect(out).toContain('   11 │ +K');
    expect(out).toContain('new.txt (new file)  +1 -0');
    expect(out).toContain('--- /dev/null');
    expect(out).toContain('  1 │ +x');
  });

  it('colours with ANSI only when asked (the styles themselves: terminal-diff.test.ts)', () => {
    const out = renderPlanDiff([file], { color: true });
    expect(out).toMatch(ANSI);
    expect(out.replace(/\x1b\[[0-9;]*m/g, '')).toBe(renderPlanDiff([file], { color: false }));
  });

  it('shows control characters from file content instead of sending them to the terminal', () => {
    const f = fileReport('esc.txt', 'a\n', 'a\x1b[2Jb\rc\r\n');
    const out = renderPlanDiff([f], { color: false });
    expect(out).not.toMatch(ANSI);
    // A CR inside the line is shown; the CR of a CRLF ending is the line's end, read without it.
    expect(out).toContain('+a\\x1b[2Jb\\x0dc\n');
  });

  it('says what a file without a text diff is', () => {
    const bare: FileReport = { path: 'img.png', group: 'rest', added: 0, removed: 0 };
    expect(renderPlanDiff([bare], { color: false })).toBe('img.png  +0 -0\n  (binary file, or text in an encoding other than UTF-8/UTF-16: no text diff)\n');
    const mode: FileReport = { path: 'run.sh', group: 'rest', added: 0, removed: 0, hunks: [], mode: '100755', oldMode: '100644' };
    expect(renderPlanDiff([mode], { color: false })).toBe('run.sh  +0 -0\n  (mode 100644 → 100755)\n');
  });
});

describe('renderSummaryText', () => {
  it('has one line per job and the errors with kind, file and fix under it', () => {
    const out = renderSummaryText(sampleReport(), { color: false });
    const lines = out.split('\n');
    expect(lines[0]).toBe('changed   rename-logger/core  scion/rename-logger/core  2 commits, 3 files, +5 -4');
    expect(lines[1]).toBe('failed    rename-logger/api   scion/rename-logger/api   0 commits, 0 files, +0 -0');
    expect(lines[2]).toBe('  not-unique (9) step 2, packages/api/server.ts: Found 2 matches of the string to replace, but replace_all is false.');
    expect(lines[3]).toMatch(/^ {4}fix: old_string matches more than once/);
    expect(lines[4]).toMatch(/^ {2}branch-diverged step 4: /);
    expect(out).toContain('empty     drop-polyfills      scion/drop-polyfills      0 commits, 0 files, +0 -0, 1 already applied');
    expect(out).toContain('Agent usage: 12,345 input / 678 output tokens');
    expect(out.trimEnd().split('\n').at(-1)).toBe('3 jobs: 1 changed, 1 empty, 1 failed');
    expect(out).not.toMatch(ANSI);
    expect(renderSummaryText(sampleReport(), { color: true })).toContain('\x1b[31mfailed');
  });

  it('marks a dry run and shows a kept worktree', () => {
    const r = sampleReport();
    const out = renderSummaryText({ ...r, dryRun: true, jobs: [{ ...r.jobs[0]!, worktree: '/tmp/wt/core' }] }, { color: false });
    expect(out).toContain('  worktree: /tmp/wt/core');
    expect(out).toContain('1 job: 1 changed (dry run: nothing written)');
  });
});

describe('renderSummaryText on a terminal', () => {
  it('fits the width: long labels and branches give way, messages wrap', () => {
    const r = sampleReport();
    const long = { ...r.jobs[1]!, name: `api-${'x'.repeat(60)}`, branch: `scion/rename-logger/api-${'x'.repeat(60)}` };
    const text = renderSummaryText({ ...r, jobs: [r.jobs[0]!, long, r.jobs[2]!] }, { color: true, width: 80 });
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    for (const line of plain.split('\n')) expect(line.length).toBeLessThan(80);
    expect(plain).toContain('…');
    expect(plain).toContain('Found 2 matches');
    // Off a terminal (no width) the columns stay whole.
    expect(renderSummaryText({ ...r, jobs: [long] }, { color: false })).toContain(long.branch);
  });

  it('names the steps that changed nothing, 1-based, once per recipe step', () => {
    const r = sampleReport();
    const steps = (changed: number) => [
      { step: 0, kind: 'replace', changed, alreadyApplied: 0 },
      { step: 1, kind: 'run', changed: 0, alreadyApplied: 0 },
    ];
    const jobs = [0, 1, 2].map((i) => ({ ...r.jobs[0]!, name: `j${i}`, steps: steps(i === 0 ? 0 : 3) }));
    const out = renderSummaryText({ ...r, jobs }, { color: false });
    expect(out).toContain('rename-logger step 1 (replace) changed nothing in 1 of its 3 jobs.');
    expect(out).toContain('rename-logger step 2 (run) changed nothing in any of its 3 jobs.');
  });

  it('names the repository of each job in a run over many repositories', () => {
    const r = sampleReport();
    const jobs = ['app', 'web'].map((name) => ({ ...r.jobs[0]!, repo: `github.com/acme/${name}`, name: r.jobs[0]!.recipe }));
    const lines = renderSummaryText({ ...r, repo: null, jobs }, { color: false }).split('\n');
    expect(lines[0]).toMatch(/^changed {3}acme\/app rename-logger +scion\/rename-logger\/core/);
    expect(lines[1]).toMatch(/^changed {3}acme\/web rename-logger +scion\/rename-logger\/core/);
  });

  it('recaps the failed jobs at the end of a long run, and not of a short one', () => {
    const r = sampleReport();
    const ok = r.jobs[0]!;
    const bad = r.jobs[1]!;
    const jobs = [...Array.from({ length: 6 }, (_, i) => ({ ...ok, name: `ok${i}` })), { ...bad, repo: 'github.com/acme/api' }];
    const out = renderSummaryText({ ...r, jobs }, { color: false });
    const tail = out.trimEnd().split('\n').slice(-4);
    expect(tail[0]).toBe('Failed (1 of 7):');
    expect(tail[1]).toBe('  acme/api rename-logger/api: not-unique step 2, packages/api/server.ts (+1 more error)');
    expect(tail[2]).toMatch(/^Agent usage: /);
    expect(tail[3]).toBe('7 jobs: 6 changed, 1 failed');
    expect(renderSummaryText(r, { color: false })).not.toContain('Failed (');
  });

  it('does not call a step that failed one that changed nothing', () => {
    const r = sampleReport();
    const failedJob = {
      ...r.jobs[1]!,
      steps: [{ step: 0, kind: 'replace', changed: 0, alreadyApplied: 0 }],
      errors: [{ step: 0, file: 'src/a.ts', kind: 'not-found' as const, message: 'String to replace not found in file.' }],
    };
    const out = renderSummaryText({ ...r, jobs: [failedJob] }, { color: false });
    expect(out).toContain('not-found step 1, src/a.ts');
    expect(out).not.toContain('changed nothing');
  });

  it('counts as already applied only the files found with the change, not those put back', () => {
    const r = sampleReport();
    const job = {
      ...r.jobs[0]!,
      skipped: [
        { step: 0, file: 'src/a.ts', reason: 'already-applied' as const },
        { step: 1, file: 'dist/out.js', reason: 'outside-selection' as const },
      ],
    };
    const out = renderSummaryText({ ...r, jobs: [job] }, { color: false });
    expect(out).toContain('+5 -4, 1 already applied');
    expect(renderSummaryText({ ...r, jobs: [{ ...job, skipped: [job.skipped[1]!] }] }, { color: false })).not.toContain('already applied');
  });
});
