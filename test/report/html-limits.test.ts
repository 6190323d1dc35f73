// The HTML report of a huge run stays openable: past the line budget the largest diffs are listed
// but not rendered, and the page says so.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import type { RunReport } from '../../src/model/types.js';
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
    expect(html).toMatch(/<code>src\/huge\.ts<\/code> <span class="muted">\(diff of 800 lines not included: .*<\/span><\/td><td>rest<\/td><td class="n"><span class="add">\+400<\/span> <span class="del">−400<\/span>/);
  });

  it('escapes the title and messages', () => {
    const html = renderHtml({ ...sampleReport(), jobs: [job({ name: 'x', status: 'failed', errors: [{ step: 0, file: null, kind: 'agent', message: '<img src=x>' }] })] }, { title: '<b>t</b>' });
    expect(html).toContain('<title>&lt;b&gt;t&lt;/b&gt;</title>');
    expect(html).toContain('&lt;img src=x&gt;');
    expect(html).not.toContain('<img src=x>');
  });

  it('keeps file content that looks like markup from ending the data element', () => {
    const evil = fileReport('a.html', 'x\n', '</script><script>alert(1)</script><!--\n');
    const html = renderHtml({ ...sampleReport(), jobs: [job({ name: 'x', files: [evil] })] });
    const data = /<script type="application\/json" id="scion-diffs">([^]*?)<\/script>/.exec(html)![1]!;
    expect(data).not.toMatch(/<\/script|<!--/i);
    expect(JSON.parse(data)[0][0].d).toContain('+</script><script>alert(1)</script><!--');
  });
});
