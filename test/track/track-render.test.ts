// What `track` writes, at the scale the page and the issue must hold: 5,000 jobs and a year of daily
// snapshots. The page opened in Chromium (the burndown drawn, every row there, under 2 MB); the issue
// kept within GitHub's 65,536 and GitLab's 1,048,576 characters by the fakes that refuse more, folded
// into counts per repository and then cut with a line that says how many were left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GitHubHost } from '../../src/host/github.js';
import { GitLabHost } from '../../src/host/gitlab.js';
import { renderTrackHtml } from '../../src/track/html.js';
import { keepTrackingIssue, renderTrackIssue } from '../../src/track/issue.js';
import type { TrackRow, TrackSnapshot, TrackState } from '../../src/track/types.js';
import { launchChromium } from '../support/chromium.js';
import { useFakeGitHub, useFakeGitLab } from '../support/servers.js';

const gh = useFakeGitHub('acme', 'tracking');
const gl = useFakeGitLab('acme/tracking');

const STATES: TrackState[] = ['open', 'draft', 'merged', 'closed', 'declined', 'none'];

function rows(jobs: number, repos: number): TrackRow[] {
  return Array.from({ length: jobs }, (_, k) => {
    const state = STATES[k % STATES.length]!;
    const repo = `github.com/acme/service-${String(k % repos).padStart(5, '0')}`;
    return {
      repo,
      recipe: 'upgrade-logger',
      job: `job-${k}`,
      branch: `scion/upgrade-logger/job-${k}`,
      pullRequest: state === 'none' ? null : { number: 100 + k, url: `https://${repo}/pull/${100 + k}` },
      state,
      checks: k % 7 === 0 ? 'failure' : 'success',
      review: 'none',
      reviewers: k % 3 === 0 ? ['octocat'] : [],
      lastActivity: '2026-01-01T00:00:00.000Z',
      idleDays: k % 30,
      behind: k % 5,
      files: 3,
      flags: k % 7 === 0 ? ['failing', 'behind'] : [],
    };
  });
}

function history(days: number, jobs: number): TrackSnapshot[] {
  return Array.from({ length: days }, (_, d) => {
    const merged = Math.round((jobs * d) / days);
    return {
      at: new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString(),
      recipe: 'upgrade-logger',
      jobs,
      open: jobs - merged,
      draft: 0,
      merged,
      closed: 0,
      declined: 0,
      none: 0,
      failing: 3,
      noReviewer: 2,
      stale: 1,
      behind: 4,
      remaining: (jobs - merged) * 3,
    };
  });
}

describe('the tracking page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('365 daily snapshots of 5,000 jobs: under 2 MB, the burndown drawn, every row there', async () => {
    const html = renderTrackHtml(history(365, 5000), rows(5000, 1000), 'scion: tracking upgrade-logger');
    expect(Buffer.byteLength(html)).toBeLessThan(2 * 1024 * 1024);
    const page = await browser.newPage();
    await page.setContent(html);
    expect(await page.locator('#jobs tbody tr').count()).toBe(5000);
    expect(await page.locator('#jobs tbody tr.flagged').count()).toBe(Math.ceil(5000 / 7));
    const areas = await page
      .locator('#burndown-states polygon.area')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-state'), e.getAttribute('points')!.split(' ').length]));
    expect(areas).toEqual(['merged', 'open', 'draft', 'closed', 'declined', 'none'].map((s) => [s, 730]));
    const box = await page.locator('#burndown-states').boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    // The merged area grows over the year: its top edge ends higher than it starts.
    const merged = await page.locator('#burndown-states polygon[data-state="merged"]').getAttribute('points');
    const ys = merged!
      .split(' ')
      .slice(0, 365)
      .map((p) => Number(p.split(',')[1]));
    expect(ys[364]!).toBeLessThan(ys[0]!);
    expect((await page.locator('#burndown-remaining polyline').getAttribute('points'))!.split(' ')).toHaveLength(365);
    const first = await page.locator('#jobs tbody tr').first().locator('td').allInnerTexts();
    expect(first).toEqual([
      'github.com/acme/service-00000',
      'scion/upgrade-logger/job-0',
      '#100',
      'open',
      'failure',
      'none',
      'octocat',
      '0',
      '0',
      'failing behind',
    ]);
    await page.close();
  });

  it('shows an outside text as text', async () => {
    const evil = { ...rows(1, 1)[0]!, branch: '<img src=x onerror=alert(1)>', pullRequest: { number: 1, url: 'javascript:alert(1)' } };
    const html = renderTrackHtml(history(2, 1), [evil], 't');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript:');
  });
});

describe('the tracking issue', () => {
  it('5,000 jobs in 1,000 repositories on GitHub: folded, cut with a count, within 65,536 characters, one issue across runs', async () => {
    const all = rows(5000, 1000);
    const body = renderTrackIssue(history(365, 5000), all, 'upgrade-logger', 65_536);
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain('## Pull requests by repository');
    const shown = body.split('\n').filter((l) => l.startsWith('| github.com/acme/service-')).length;
    const cut = /_…and (\d+) more repositories \((\d+) jobs\) left out/.exec(body);
    expect(cut).not.toBeNull();
    expect(shown + Number(cut![1])).toBe(1000);
    expect(Number(cut![2])).toBe(Number(cut![1]) * 5);
    const host = new GitHubHost({ apiUrl: gh.url, token: 'ghs_x', owner: 'acme', repo: 'tracking' });
    expect((await keepTrackingIssue(host, 'upgrade-logger', body)).action).toBe('created');
    expect((await keepTrackingIssue(host, 'upgrade-logger', body)).action).toBe('updated');
    expect(gh.issues).toHaveLength(1);
  });

  it('folds 5,000 jobs of 40 repositories into 40 lines of counts, nothing cut', () => {
    const body = renderTrackIssue(history(30, 5000), rows(5000, 40), 'upgrade-logger', 65_536);
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body.split('\n').filter((l) => l.startsWith('| github.com/acme/service-'))).toHaveLength(40);
    expect(body).not.toContain('left out');
    const one = body.split('\n').find((l) => l.startsWith('| github.com/acme/service-00000 |'))!;
    // Jobs 0, 40, 80, …: their states cycle open, declined, merged (k mod 6 is 0, 4, 2).
    expect(
      one
        .split('|')
        .map((c) => c.trim())
        .slice(2, 9),
    ).toEqual(['125', '42', '0', '41', '0', '42', '0']);
  });

  it('lists every job while they fit', () => {
    const body = renderTrackIssue(history(3, 20), rows(20, 4), 'upgrade-logger', 65_536);
    expect(body.split('\n').filter((l) => l.includes('`scion/upgrade-logger/job-'))).toHaveLength(20);
  });

  it('5,000 jobs on GitLab: within its limit, one issue across runs', async () => {
    const host = new GitLabHost({ apiUrl: gl.apiUrl, token: 'glpat-x', project: 'acme/tracking' });
    const body = renderTrackIssue(history(365, 5000), rows(5000, 1000), 'upgrade-logger', host.issueLimit);
    expect(body.length).toBeLessThanOrEqual(1_048_576);
    expect(body.split('\n').filter((l) => l.includes('`scion/upgrade-logger/job-'))).toHaveLength(5000);
    expect((await keepTrackingIssue(host, 'upgrade-logger', body)).action).toBe('created');
    expect((await keepTrackingIssue(host, 'upgrade-logger', body)).action).toBe('updated');
    expect(gl.issues).toHaveLength(1);
  });
});
