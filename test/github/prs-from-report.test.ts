import { describe, expect, it } from 'vitest';
import { pullRequestsFor } from '../../src/github/prs-from-report.js';
import { job, sampleReport } from '../report/sample.js';

describe('pullRequestsFor', () => {
  it('makes one pull request per changed job, described by that job alone', () => {
    const r = sampleReport();
    const specs = pullRequestsFor({ ...r, jobs: [...r.jobs, job({ name: 'web', branch: 'scion/rename-logger/web', files: [] })] });
    expect(specs.map((s) => [s.branch, s.title])).toEqual([
      ['scion/rename-logger/core', 'Move to the new logger (scion: rename-logger) [core]'],
      ['scion/rename-logger/web', 'Move to the new logger (scion: rename-logger) [web]'],
    ]);
    expect(specs[0]!.body.split('\n')[0]).toBe('## Move to the new logger (scion: rename-logger) \\[core\\]');
    expect(specs[0]!.body).toContain('src/core/log.ts');
    expect(specs[0]!.body).not.toContain('scion/rename-logger/api');
    expect(specs[1]!.body).not.toContain('src/core/log.ts');
  });

  it('opens nothing for a dry run, failed, empty or unchanged jobs', () => {
    const r = sampleReport();
    expect(pullRequestsFor({ ...r, dryRun: true })).toEqual([]);
    expect(pullRequestsFor({ ...r, jobs: r.jobs.slice(1).concat(job({ name: 'u', status: 'unchanged' })) })).toEqual([]);
  });

  it('keeps each body within the limit it is given', () => {
    const [spec] = pullRequestsFor(sampleReport(), { maxChars: 1500 });
    expect(spec!.body.length).toBeLessThanOrEqual(1500);
  });
});
