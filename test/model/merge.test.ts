import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { renderJson } from '../../src/report/json.js';
import { mergeReports } from '../../src/model/merge.js';
import { parseRunReport } from '../../src/model/parse.js';
import type { RunReport } from '../../src/model/types.js';
import { job, sampleReport } from '../report/sample.js';

const shard = (names: string[], over: Partial<RunReport> = {}): RunReport => ({
  version: 1,
  repo: '/home/runner/work/app/app',
  dryRun: false,
  jobs: names.map((name) => job({ name })),
  ...over,
});

describe('mergeReports', () => {
  it("concatenates the shards' jobs in shard order", () => {
    const merged = mergeReports([shard(['a', 'c']), shard(['b', 'd']), shard([])]);
    expect(merged.repo).toBe('/home/runner/work/app/app');
    expect(merged.dryRun).toBe(false);
    expect(merged.jobs.map((j) => j.name)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('lets the later report of the same job win', () => {
    const first = shard(['a', 'b']);
    const rerun: RunReport = { ...shard([]), jobs: [job({ name: 'a', status: 'failed' })] };
    const merged = mergeReports([first, rerun]);
    expect(merged.jobs.map((j) => [j.name, j.status])).toEqual([
      ['a', 'failed'],
      ['b', 'changed'],
    ]);
    // Same job name in another recipe is another job.
    const other = { ...shard([]), jobs: [job({ name: 'a', recipe: 'other' })] };
    expect(mergeReports([first, other]).jobs).toHaveLength(3);
  });

  it('rejects reports of different repositories, mixed dry runs and an empty list', () => {
    expect(() => mergeReports([shard(['a']), shard(['b'], { repo: '/elsewhere' })])).toThrow(UsageError);
    expect(() => mergeReports([shard(['a']), shard(['b'], { dryRun: true })])).toThrow(UsageError);
    expect(() => mergeReports([])).toThrow(UsageError);
  });
});

describe('parseRunReport', () => {
  it('reads back what renderJson wrote', () => {
    const r = sampleReport();
    const text = renderJson(r);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "version": 1,');
    expect(parseRunReport(text, 'report.json')).toEqual(r);
  });

  it('names the file and the problems when it is not a scion report', () => {
    expect(() => parseRunReport('{nope', 'report-1.json')).toThrow(/report-1\.json is not valid JSON/);
    try {
      parseRunReport(JSON.stringify({ version: 2, jobs: [{ name: 'x' }] }), 'r.json');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toMatch(/^r\.json is not a scion report/);
      expect((e as UsageError).problems).toContain('version is 2, expected 1');
      expect((e as UsageError).problems).toContain('repo is missing or not a string (null for a campaign)');
      expect((e as UsageError).problems).toContain('jobs[0].branch is missing');
    }
  });
});
