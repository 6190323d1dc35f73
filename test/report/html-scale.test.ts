// The HTML report of a run at the size users have (150 jobs, 1,400 changed files, 87 jobs failing the
// same way) in a real Chromium: the page stays under its 4 MB budget, it opens, the filter narrows the
// index, a job draws its diffs when opened, and the 87 failures read as one group. The open time is
// printed, never asserted: test/bench/html.bench.ts measures it against its 2 s bound.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { fileReport, job } from './sample.js';
import { HTML_MAX_BYTES, SCALE_FAILED, SCALE_FILES, SCALE_JOBS, scaleReport } from './scale-report.js';
import { launchChromium } from '../support/chromium.js';

describe('renderHtml at 150 jobs and 1,400 files, in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let page: Page;
  let bytes = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scion-html-scale-'));
    const path = join(dir, 'report.html');
    const report = scaleReport();
    expect(report.jobs.reduce((n, j) => n + j.files.length, 0)).toBe(SCALE_FILES);
    const html = renderHtml(report);
    bytes = Buffer.byteLength(html);
    await writeFile(path, html);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stays under 4 MB', () => {
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(HTML_MAX_BYTES);
  });

  it('opens, and says how big and how fast', async () => {
    // A string, evaluated in the page (the tests compile without the DOM's types).
    const timing = await page.evaluate<{ load: number; ready: number; elements: number }>(`({
      load: performance.getEntriesByType('navigation')[0].loadEventEnd,
      ready: performance.getEntriesByName('scion-ready')[0]?.startTime ?? -1,
      elements: document.getElementsByTagName('*').length,
    })`);
    expect(timing.ready).toBeGreaterThan(0);
    console.log(
      `[html-scale] ${SCALE_JOBS} jobs, ${SCALE_FILES} files: ${(bytes / 1e6).toFixed(2)} MB, ${timing.elements} elements, ` +
        `ready ${timing.ready.toFixed(0)} ms, loadEventEnd ${timing.load.toFixed(0)} ms`,
    );
  });

  it('groups the 87 identical failures into one entry with the list of jobs and files', async () => {
    const groups = page.locator('#failures .fgroup');
    expect(await groups.count()).toBe(1);
    const text = await groups.first().innerText();
    expect(text).toContain(`not-found (code 8) · ${SCALE_FAILED} times in ${SCALE_FAILED} jobs: String to replace not found in the file.`);
    expect(await groups.first().locator('li').count()).toBe(SCALE_FAILED);
    await expect(page.locator('#failures h2').innerText()).resolves.toBe(`Failures (${SCALE_FAILED} in 1 group)`);
  });

  it('narrows the index with the filter box and the status buttons', async () => {
    const visibleRows = () => page.locator('table.jobs tr[data-job]:visible').count();
    expect(await visibleRows()).toBe(SCALE_JOBS);
    await page.locator('#filter').fill('packages/pkg-142/src/mod3.ts');
    expect(await visibleRows()).toBe(1);
    await expect(page.locator('#shown').innerText()).resolves.toBe(`1 of ${SCALE_JOBS} jobs`);
    expect(await page.locator('details.job:visible').count()).toBe(1);
    await page.locator('#filter').fill('');
    await page.locator('.filters button[data-status="failed"]').click();
    expect(await visibleRows()).toBe(SCALE_FAILED);
    await page.locator('.filters button[data-status="all"]').click();
    expect(await visibleRows()).toBe(SCALE_JOBS);
  });

  it("draws a job's diffs only when it is opened", async () => {
    expect(await page.locator('.d2h-file-wrapper').count()).toBe(0);
    await page.locator('table.jobs a', { hasText: 'rename-logger/pkg-149' }).click();
    const job = page.locator('#job-149');
    await expect(job.evaluate((d) => (d as unknown as { open: boolean }).open)).resolves.toBe(true);
    const files = job.locator('.view[data-view="line-by-line"] .d2h-file-wrapper');
    expect(await files.count()).toBe(scaleReport().jobs[149]!.files.length);
    await expect(files.first().locator('.d2h-ins', { hasText: 'log("packages/pkg-149/src/mod0.ts 0 5");' }).first().isVisible()).resolves.toBe(true);
    // Highlighted, with the renamed call marked as the changed word.
    expect(await files.first().locator('.d2h-code-line-ctn .hljs-keyword', { hasText: 'const' }).count()).toBeGreaterThan(0);
    await expect(files.first().locator('td.d2h-ins ins').first().innerText()).resolves.toBe('log');
    expect(await page.locator('.d2h-file-wrapper').count()).toBe(await files.count());
  });

  it('lists diagnostics in the failed jobs', async () => {
    await page.locator('#job-0 > summary').click();
    await expect(page.locator('#job-0 table.diagnostics').innerText()).resolves.toContain(
      "packages/pkg-000/src/mod0.ts:3:5\terror\tCannot find name 'log'.\ttsc",
    );
  });
});

describe('renderHtml over many repositories', () => {
  it('groups the index and the jobs by repository', () => {
    const jobs = ['github.com/acme/a', 'github.com/acme/b', 'github.com/acme/a'].map((repo, i) =>
      job({ name: `j${i}`, repo, files: [fileReport(`f${i}.ts`, 'a\n', 'b\n')] }),
    );
    const html = renderHtml({ version: 1, repo: '', dryRun: false, jobs });
    const sections = [...html.matchAll(/<section class="repo" data-repo="([^"]+)">[^]*?<\/section>/g)];
    expect(sections.map((m) => m[1])).toEqual(['github.com/acme/a', 'github.com/acme/b']);
    expect(sections[0]![0]).toContain('id="job-0"');
    expect(sections[0]![0]).toContain('id="job-2"');
    expect(sections[1]![0]).toContain('id="job-1"');
    expect(html).toContain('<tr class="repo-row"><th colspan="8">github.com/acme/a <span class="muted">(2 jobs)</span></th></tr>');
  });
});
