import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubOutputs, outputEntry } from '../../src/github/outputs.js';
import { renderSummary } from '../../src/report/markdown.js';
import type { RunReport } from '../../src/model/types.js';
import { job, sampleReport } from '../report/sample.js';

/** Reads a GITHUB_OUTPUT file the way the Actions runner does: `k=v` lines and `k<<DELIM` blocks. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      expect(end, `delimiter of ${heredoc[1]} is closed`).toBeGreaterThan(i);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = line.indexOf('=');
      expect(eq).toBeGreaterThan(0);
      out[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return out;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scion-gh-out-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('githubOutputs', () => {
  it('appends the outputs and the summary to the files the environment names', async () => {
    const outFile = join(dir, 'output');
    const summaryFile = join(dir, 'summary');
    await writeFile(outFile, 'earlier=step\n');
    await writeFile(summaryFile, '# Earlier\n');
    const report: RunReport = {
      ...sampleReport(),
      jobs: [...sampleReport().jobs, job({ name: 'web', branch: 'scion/rename-logger/web' })],
    };
    const summary = renderSummary(report);
    await githubOutputs(
      { GITHUB_OUTPUT: outFile, GITHUB_STEP_SUMMARY: summaryFile },
      { report, reportPath: 'out/report.json', prBodyPath: 'out/pr.md', summary },
    );
    const outputs = parseOutputFile(await readFile(outFile, 'utf8'));
    expect(outputs).toEqual({
      earlier: 'step',
      branches: 'scion/rename-logger/core\nscion/rename-logger/web',
      changed: 'true',
      failed: 'true',
      report: 'out/report.json',
      'pr-body': 'out/pr.md',
    });
    // A random delimiter, not a guessable one.
    expect(await readFile(outFile, 'utf8')).toMatch(/^branches<<scion_[0-9a-f-]{36}$/m);
    expect(await readFile(summaryFile, 'utf8')).toBe(`# Earlier\n${summary}`);
  });

  it('reports no change with an empty branch list and leaves out paths not written', async () => {
    const outFile = join(dir, 'output');
    const report: RunReport = { ...sampleReport(), jobs: [job({ name: 'x', status: 'empty', head: null })] };
    await githubOutputs({ GITHUB_OUTPUT: outFile }, { report, reportPath: null, prBodyPath: null, summary: 's' });
    expect(parseOutputFile(await readFile(outFile, 'utf8'))).toEqual({ branches: '', changed: 'false', failed: 'false' });
  });

  it('writes nothing outside GitHub Actions', async () => {
    const writes: string[] = [];
    await githubOutputs({}, { report: sampleReport(), reportPath: null, prBodyPath: null, summary: 's' }, async (p) => {
      writes.push(p);
    });
    expect(writes).toEqual([]);
  });
});

describe('outputEntry', () => {
  it('keeps a value that tries to inject another output inside its own block', () => {
    const value = 'a\nEOF\nchanged=false';
    const parsed = parseOutputFile(outputEntry('x', value));
    expect(parsed).toEqual({ x: value });
    expect(outputEntry('one', 'line')).toBe('one=line\n');
  });
});
