// The HTML report of a huge run stays openable: past the line budget the largest diffs are listed
// but not rendered, and the page says so.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { fileReport, job, sampleReport } from './sample.js';

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join('\n') + '\n';

describe('renderHtml limits', () => {
  const huge = fileReport('src/huge.ts', lines(400, 'oldhuge'), lines(400, 'newhuge'));
  const small = fileReport('src/small.ts', 'a\n', 'smallchange\n');
  const report: RunReport = { ...sampleReport(), jobs: [job({ name: 'big', files: [huge, small] })] };

  it('renders everything under the budget', () => {
    const html = renderHtml(report);
    expect(html).toContain('newhuge399');
    expect(html).not.toContain('Large run');
  });

  it('leaves out the largest diffs past the budget, keeps the rest, and says so', () => {
    const html = renderHtml(report, { maxDiffLines: 100 });
    expect(html).toContain('<strong>Large run:</strong> the diffs of 1 file (800 lines, largest first) are not included');
    expect(html).not.toContain('newhuge399');
    expect(html).toContain('"p":"src/huge.ts","x":800');
    expect(html).toContain('smallchange');
    // Still listed with its counts.
    expect(html).toMatch(
      new RegExp(
        /<code>src\/huge\.ts<\/code> <span class="muted">\(diff of 800 lines not included: .*<\/span><\/td>/.source +
          /<td>rest<\/td><td class="n"><span class="add">\+400<\/span> <span class="del">−400<\/span>/.source,
      ),
    );
  });

  it('escapes the title and messages', () => {
    const html = renderHtml(
      { ...sampleReport(), jobs: [job({ name: 'x', status: 'failed', errors: [{ step: 0, file: null, kind: 'agent', message: '<img src=x>' }] })] },
      { title: '<b>t</b>' },
    );
    expect(html).toContain('<title>&lt;b&gt;t&lt;/b&gt;</title>');
    expect(html).toContain('&lt;img src=x&gt;');
    expect(html).not.toContain('<img src=x>');
  });

  it('lists what each step did and marks a step that changed nothing', () => {
    const j = job({
      name: 'x',
      steps: [
        { step: 0, kind: 'replace', changed: 3, alreadyApplied: 1 },
        { step: 1, kind: 'edit', changed: 0, alreadyApplied: 0 },
      ],
    });
    const html = renderHtml({ ...sampleReport(), jobs: [j] });
    expect(html).toContain(
      '<ul class="steps"><li>step 1 <code>replace</code>: 3 files changed, 1 already applied</li><li class="warn">step 2 <code>edit</code>: changed ' +
        'nothing</li></ul>',
    );
    expect(html).toContain('<span class="warn">1 step changed nothing</span>');
  });

  it('says why each file was skipped, and shows a reason it does not know as the report has it', () => {
    const skipped = [
      { step: 0, file: 'a.bin', reason: 'lfs-pointer' },
      { step: 0, file: 'b.ts', reason: 'outside-selection' },
      { step: 1, file: 'c.ts', reason: 'some-new-reason' },
    ] as unknown as JobReport['skipped'];
    const html = renderHtml({ ...sampleReport(), jobs: [job({ name: 'x', status: 'empty', skipped })] });
    expect(html).toContain('<li>step 1, <code>a.bin</code>: Git LFS pointer</li>');
    expect(html).toContain('<li>step 1, <code>b.ts</code>: changed outside the selection (put back, not committed)</li>');
    expect(html).toContain('<li>step 2, <code>c.ts</code>: some-new-reason</li>');
  });

  it("lists the model's edits the guards refused with the reason the model got, escaped", () => {
    const refusals = [{ step: 0, file: 'test/a.test.ts', guard: 'skips', tool: 'edit_file', message: 'This edit adds <.skip> to test/a.test.ts (0 → 1)' }];
    const html = renderHtml({ ...sampleReport(), jobs: [job({ name: 'x', refusals })] });
    expect(html).toContain('<span class="warn">1 refused model edit</span>');
    expect(html).toContain(
      '<h3>Model edits the guards refused (1)</h3><ul class="refusals"><li>step 1, <code>test/a.test.ts</code>: <code>edit_file</code> refused by the ' +
        '<code>skips</code> guard: This edit adds &lt;.skip&gt; to test/a.test.ts (0 → 1)</li></ul>',
    );
    expect(renderHtml({ ...sampleReport(), jobs: [job({ name: 'x' })] })).not.toContain('guards refused');
  });

  it('keeps file content that looks like markup from ending the data element', () => {
    const evil = fileReport('a.html', 'x\n', '</script><script>alert(1)</script><!--\n');
    const html = renderHtml({ ...sampleReport(), jobs: [job({ name: 'x', files: [evil] })] });
    const data = /<script type="application\/json" id="scion-diffs">([^]*?)<\/script>/.exec(html)![1]!;
    expect(data).not.toMatch(/<\/script|<!--/i);
    expect(JSON.parse(data)[0][0].d).toContain('+</script><script>alert(1)</script><!--');
  });
});
