import { describe, expect, it } from 'vitest';
import { changeFingerprint, DEFAULT_PR_SETTINGS, describeJob, fingerprintOf, jobsToPublish } from '../../src/publish/describe.js';
import { job, sampleReport } from '../report/sample.js';

describe('describeJob', () => {
  it("titles a pull request with the first line of the branch's commit message, else the recipe's description", () => {
    const r = sampleReport();
    const core = r.jobs[0]!;
    expect(describeJob(r, core, DEFAULT_PR_SETTINGS).title).toBe('refactor(core): new logger');
    const web = job({ name: 'web', branch: 'scion/rename-logger/web', files: [] });
    expect(describeJob(r, web, DEFAULT_PR_SETTINGS).title).toBe('Move to the new logger (scion: rename-logger) [web]');
  });

  it('describes the job alone, and carries the fingerprint of its change', () => {
    const r = sampleReport();
    const text = describeJob(r, r.jobs[0]!, DEFAULT_PR_SETTINGS);
    expect(text.body).toContain('src/core/log.ts');
    expect(text.body).not.toContain('scion/rename-logger/api');
    expect(fingerprintOf(text.body)).toBe(changeFingerprint(r.jobs[0]!));
  });

  it('fills the title and body templates of the pr block', () => {
    const r = sampleReport();
    const j = r.jobs[0]!;
    const text = describeJob(r, j, { ...DEFAULT_PR_SETTINGS, title: '[{{recipe}}] {{job}} on {{branch}}', body: 'Automated.\n\n{{summary}}' });
    expect(text.title).toBe(`[rename-logger] ${j.name} on ${j.branch}`);
    expect(text.body.startsWith('Automated.\n\n## ')).toBe(true);
  });

  it('keeps each body within the limit it is given', () => {
    const r = sampleReport();
    expect(describeJob(r, r.jobs[0]!, DEFAULT_PR_SETTINGS, { maxChars: 1500 }).body.length).toBeLessThanOrEqual(1500);
  });

  it('gives the same fingerprint to the same change at other line numbers, another to another change', () => {
    const r = sampleReport();
    const j = r.jobs[0]!;
    const moved = { ...j, files: j.files.map((f) => ({ ...f, hunks: f.hunks?.map((h) => ({ ...h, oldStart: h.oldStart + 10, newStart: h.newStart + 10 })) })) };
    expect(changeFingerprint(moved)).toBe(changeFingerprint(j));
    const other = { ...j, files: j.files.slice(1) };
    expect(changeFingerprint(other)).not.toBe(changeFingerprint(j));
  });
});

describe('jobsToPublish', () => {
  it('takes changed branches of a report without push records as pushed, and says so; nothing for a dry run', () => {
    const r = sampleReport();
    const notes: string[] = [];
    const { open } = jobsToPublish({ ...r, jobs: [...r.jobs, job({ name: 'web', branch: 'scion/rename-logger/web' })] }, (n) => notes.push(n));
    expect(open.map((j) => j.branch)).toEqual(['scion/rename-logger/core', 'scion/rename-logger/web']);
    expect(notes).toHaveLength(1);
    expect(jobsToPublish({ ...r, dryRun: true }, () => {})).toEqual({ open: [], close: [] });
  });

  it('closes for empty jobs, never for failed ones', () => {
    const r = sampleReport();
    const { open, close } = jobsToPublish({ ...r, jobs: [job({ name: 'e', status: 'empty', head: null }), job({ name: 'f', status: 'failed' })] }, () => {});
    expect(open).toEqual([]);
    expect(close.map((j) => j.name)).toEqual(['e']);
  });
});
