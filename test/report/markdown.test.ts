import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../src/errors.js';
import { FIX_HINTS } from '../../src/report/hints.js';
import { renderPrBody, renderSummary } from '../../src/report/markdown.js';
import type { FileReport, RunReport } from '../../src/model/types.js';
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

describe('renderPrBody', () => {
  const body = renderPrBody(sampleReport());

  it('opens with a title and the recipes\' descriptions', () => {
    expect(body.split('\n')[0]).toBe('## scion: rename-logger, drop-polyfills');
    expect(body).toContain('Move to the new logger');
    // A pipe in a description must not break out into table syntax.
    expect(body).toContain('Remove polyfills \\| old browsers');
    expect(renderPrBody(sampleReport(), { title: 'Weekly codemod' }).split('\n')[0]).toBe('## Weekly codemod');
  });

  it('has a table row per job with branch, status, commits, files and line counts', () => {
    const rows = body.split('\n').filter((l) => l.startsWith('| ') && l.includes('scion/'));
    expect(rows).toEqual([
      '| rename-logger/core | `scion/rename-logger/core` | ✅ changed | 2 | 3 | +5 −4 |',
      '| rename-logger/api | `scion/rename-logger/api` | ❌ failed | 0 | 0 | +0 −0 |',
      '| drop-polyfills | `scion/drop-polyfills` | ➖ empty | 0 | 0 | +0 −0 |',
    ]);
  });

  it('lists failures with kind, file, step and the fix to try', () => {
    expect(body).toContain('### Failures (2)');
    expect(body).toMatch(/step 1, `packages\/api\/server\.ts`: \*\*not-unique\*\* \(code 9\)/);
    expect(body).toContain(`Fix: ${FIX_HINTS['not-unique']}`);
    expect(body).toContain(`Fix: ${FIX_HINTS['branch-diverged']}`);
    expect(FIX_HINTS['branch-diverged']).toContain('--force');
  });

  it('lists skipped edits and the agent cost', () => {
    expect(body).toContain('- step 0, `src/polyfills.ts`: already applied');
    expect(body).toContain('12,345 input / 678 output tokens');
    expect(body).toContain('$0.0421');
    const noAgent: RunReport = { ...sampleReport(), jobs: [job({ name: 'x' })] };
    expect(renderPrBody(noAgent)).not.toContain('Agent usage');
  });

  it('groups files under their commit and renders well-formed diffs', () => {
    expect(body).toContain('#### Group `core`: 2 files, +4 −3');
    expect(body).toContain('Commit `111111111111`: refactor(core): new logger');
    expect(body).not.toContain('Scion-Recipe'); // only the subject line of a commit message
    const blocks = diffBlocks(body);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]!.text.split('\n').slice(0, 3)).toEqual(['--- a/src/core/log.ts', '+++ b/src/core/log.ts', '@@ -1,7 +1,7 @@']);
    expect(blocks[0]!.text).toContain('+  log("start");');
    expect(blocks[1]!.text.split('\n').slice(0, 3)).toEqual(['--- /dev/null', '+++ b/src/core/logger.ts', '@@ -0,0 +1,1 @@']);
    // Each block's lines are all diff lines, with as many as its @@ header promises.
    for (const { text } of blocks) {
      const [, , header, ...lines] = text.split('\n');
      const m = /^@@ -\d+,(\d+) \+\d+,(\d+) @@$/.exec(header!)!;
      expect(lines.filter((l) => l[0] !== '+').length).toBe(Number(m[1]));
      expect(lines.filter((l) => l[0] !== '-').length).toBe(Number(m[2]));
    }
    expect(body.match(/<details>/g)).toHaveLength(body.match(/<\/details>/g)!.length);
  });

  it('keeps a fence that file content with backticks cannot close', () => {
    const md = fileReport('README.md', '# x\n', '# x\n```\ncode\n```\n');
    const b = renderPrBody({ ...sampleReport(), jobs: [job({ name: 'docs', files: [md] })] });
    const [block] = diffBlocks(b);
    expect(block!.fence).toBe('````');
    expect(block!.text).toContain('+```');
  });

  it('leaves a small report whole', () => {
    expect(body.length).toBeLessThan(65_536);
    expect(body).not.toMatch(/left out|Truncated/);
  });

  it('stays within 65,536 characters on a huge report, dropping the largest diffs first and saying so', () => {
    const big = (n: number, lines: number, pad = 80): FileReport =>
      fileReport(`src/gen/f${n}.ts`, Array.from({ length: lines }, (_, i) => `old line ${i} ${'x'.repeat(pad)}`).join('\n') + '\n', Array.from({ length: lines }, (_, i) => `new line ${i}`).join('\n') + '\n');
    const files = [big(0, 500), ...Array.from({ length: 40 }, (_, i) => big(i + 1, 20, 0)), big(99, 400)];
    const report: RunReport = { ...sampleReport(), jobs: [job({ name: 'gen', files })] };
    const out = renderPrBody(report);
    expect(out.length).toBeLessThanOrEqual(65_536);
    expect(out).toMatch(/> \*\*Note:\*\* 2 of 42 diffs were left out \(largest first\)/);
    expect(out).toContain('`src/gen/f0.ts`: diff left out');
    expect(out).toContain('`src/gen/f99.ts`: diff left out');
    // The small ones stay, complete.
    const blocks = diffBlocks(out);
    expect(blocks).toHaveLength(40);
    expect(out).toContain('+new line 19');
  });

  it('never exceeds maxChars, even when the text without diffs is too long', () => {
    const files = Array.from({ length: 3000 }, (_, i) => fileReport(`packages/p${i}/src/index.ts`, 'a\n', 'b\n'));
    const report: RunReport = { ...sampleReport(), jobs: [job({ name: 'many', files })] };
    for (const maxChars of [65_536, 10_000, 1_000]) {
      const out = renderPrBody(report, { maxChars });
      expect(out.length).toBeLessThanOrEqual(maxChars);
      expect(out).toContain('**Truncated:**');
      expect(diffBlocks(out)).toHaveLength(0);
      expect(out.match(/<details>/g)?.length ?? 0).toBe(out.match(/<\/details>/g)?.length ?? 0);
    }
  });
});

describe('renderSummary', () => {
  it('has the table and the failures but no diffs', () => {
    const s = renderSummary(sampleReport());
    expect(s.split('\n')[0]).toBe('### scion: 3 jobs: 1 changed, 1 empty, 1 failed');
    expect(s).toContain('| rename-logger/api | `scion/rename-logger/api` | ❌ failed | 0 | 0 | +0 −0 |');
    expect(s).toContain('**not-unique** (code 9)');
    expect(s).toContain(FIX_HINTS['not-unique']);
    expect(s).not.toContain('```');
    expect(s.length).toBeLessThan(renderPrBody(sampleReport()).length);
  });

  it('lists at most 200 failures and counts the rest', () => {
    const errors = Array.from({ length: 250 }, (_, i) => ({ step: 0, file: `f${i}.ts`, kind: 'not-found' as const, code: 8, message: 'x'.repeat(1000) }));
    const s = renderSummary({ ...sampleReport(), jobs: [job({ name: 'x', status: 'failed', errors })] });
    expect(s).toContain('#### Failures (250)');
    expect(s.match(/\*\*not-found\*\*/g)).toHaveLength(200);
    expect(s).toContain('- … and 50 more failures: see the JSON report.');
    expect(s).toContain(`${'x'.repeat(299)}…`);
    expect(s).not.toContain('x'.repeat(300));
  });

  it('says when there were no jobs', () => {
    expect(renderSummary({ version: 1, repo: '/r', dryRun: true, jobs: [] })).toContain('0 jobs');
  });
});

describe('FIX_HINTS', () => {
  it('has a hint for every error kind', () => {
    for (const kind of ERROR_KINDS) expect(FIX_HINTS[kind].length).toBeGreaterThan(20);
    expect(FIX_HINTS['not-found']).toMatch(/not in the file.*base/);
  });
});
