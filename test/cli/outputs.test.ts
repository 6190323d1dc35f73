// What `scion run` leaves for a reviewer and for CI: PR body, HTML report, GitHub Actions outputs.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

/** Parses GITHUB_OUTPUT's `name=value` and `name<<DELIM … DELIM` entries. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = /^([\w-]+)=(.*)$/.exec(lines[i]!);
    if (eq) out[eq[1]!] = eq[2]!;
  }
  return out;
}

describe('run outputs', () => {
  it('writes the PR body, the HTML report and the GitHub Actions outputs and summary', async () => {
    const r = await gitRepo({ 'a.ts': 'legacyLog(1);\n', 'b.ts': 'legacyLog(1); legacyLog(2);\n' });
    cleanups.push(r.cleanup);
    const out = mkdtempSync(join(tmpdir(), 'scion-out-'));
    const ghOutput = join(out, 'gh-output');
    const ghSummary = join(out, 'gh-summary');
    writeFileSync(ghOutput, '');
    writeFileSync(ghSummary, '');
    const recipe = recipeFile(`name: outputs
description: Rename legacyLog
onError: continue
steps:
  - replace: { old_string: "legacyLog(", new_string: "log(" }
`);
    const res = await scion(['run', recipe, '--repo', r.dir, '--report', join(out, 'r.json'), '--pr-body', join(out, 'pr.md'), '--html', join(out, 'r.html')], {
      cwd: r.dir,
      env: { GITHUB_OUTPUT: ghOutput, GITHUB_STEP_SUMMARY: ghSummary },
    });
    // b.ts has two matches and replace_all is false: the job fails but a.ts is still committed.
    expect(res.code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'r.json'), 'utf8')) as RunReport;
    expect(report.jobs[0]!.errors.map((e) => [e.file, e.kind])).toEqual([['b.ts', 'not-unique']]);

    const pr = readFileSync(join(out, 'pr.md'), 'utf8');
    expect(pr).toContain('Rename legacyLog');
    expect(pr).toContain('scion/outputs');
    expect(pr).toContain('+log(1);');
    expect(pr).toContain('not-unique');

    const html = readFileSync(join(out, 'r.html'), 'utf8');
    expect(html).toContain('a.ts');
    expect(html).toContain('not-unique');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']https?:/);

    const outputs = parseOutputs(readFileSync(ghOutput, 'utf8'));
    expect(outputs['changed']).toBe('false');
    expect(outputs['report']).toBe(join(out, 'r.json'));
    expect(outputs['pr-body']).toBe(join(out, 'pr.md'));
    const summary = readFileSync(ghSummary, 'utf8');
    expect(summary).toContain('scion/outputs');
    // The job failed on b.ts but committed a.ts: the summary lists the changed file.
    expect(summary).toContain('#### Changed files');
    expect(summary).toContain('- `a.ts` +1 −1\n');
    expect(summary).toContain('step 1, `b.ts`');
  });
});
