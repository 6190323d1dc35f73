// The HTML report as a reviewer sees it, in a real Chromium (test/support/chromium.ts, through
// playwright-core): names, changed lines, failures, the view toggle, and not one network request.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import type { RunReport } from '../../src/model/types.js';
import { fileReport, sampleReport } from './sample.js';
import { launchChromium } from '../support/chromium.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);

/** The sample, plus a file whose content would run script or fetch an image if it were not escaped. */
function hostileReport(): RunReport {
  const r = sampleReport();
  const evil = fileReport(
    'docs/<b>bold</b>.html',
    '<p>old</p>\n',
    '<script>window.__pwned = 1</script>\n<img src="http://127.0.0.1:9/x.png" onerror="window.__pwned = 2">\n',
  );
  const [first, ...rest] = r.jobs;
  return { ...r, jobs: [{ ...first!, files: [...first!.files, evil] }, ...rest] };
}

describe('renderHtml in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let page: Page;
  let fileUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scion-html-'));
    const path = join(dir, 'report.html');
    await writeFile(path, renderHtml(hostileReport(), { title: 'Move to the new logger' }));
    fileUrl = pathToFileURL(path).href;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    page.on('request', (req) => requests.push(req.url()));
    await page.goto(fileUrl, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the title, the counts, the failures first with their fix, and the job index', async () => {
    await expect(page.title()).resolves.toBe('Move to the new logger');
    await expect(page.locator('#overview').innerText()).resolves.toMatch(/3\s+jobs[\s\S]*1\s+changed[\s\S]*1\s+failed/);
    const failures = page.locator('#failures');
    await failures.waitFor({ state: 'visible' });
    const text = await failures.innerText();
    expect(text).toContain('Failures (2)');
    expect(text).toContain('not-unique');
    expect(text).toContain('packages/api/server.ts');
    expect(text).toContain('replace_all: true');
    expect(text).toContain('branch-diverged');
    expect(text).toContain('--force');
    // Steps are 1-based where a person reads them (the JSON's step 1 is the second step).
    expect(text).toContain('step 2, packages/api/server.ts');
    // Above everything else a reviewer scrolls through.
    const failTop = (await failures.boundingBox())!.y;
    const jobsTop = (await page.locator('#jobs').boundingBox())!.y;
    expect(failTop).toBeLessThan(jobsTop);

    const rows = await page.locator('table.jobs tbody tr').allInnerTexts();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/scion\/rename-logger\/core\s+changed\s+4\s+\+7 −5/);
    expect(rows[1]).toMatch(/failed\s+0\s+\+0 −0\s+2/);
    expect(rows[2]).toMatch(/empty[\s\S]*1$/);
  });

  it("keeps jobs closed and draws a job's diffs when it is opened", async () => {
    const core = page.locator('#job-0');
    await expect(core.evaluate((d) => (d as unknown as { open: boolean }).open)).resolves.toBe(false);
    expect(await page.locator('.d2h-file-wrapper').count()).toBe(0);
    await page.locator('table.jobs a', { hasText: 'rename-logger/core' }).click();
    await expect(core.evaluate((d) => (d as unknown as { open: boolean }).open)).resolves.toBe(true);
    const visible = core.locator('.view[data-view="line-by-line"]');
    await expect(visible.locator('.d2h-file-name', { hasText: 'src/core/log.ts' }).first().isVisible()).resolves.toBe(true);
    await expect(visible.locator('.d2h-file-name', { hasText: 'src/core/logger.ts' }).first().isVisible()).resolves.toBe(true);
    const inserted = visible.locator('.d2h-ins', { hasText: 'log("start");' }).first();
    await expect(inserted.isVisible()).resolves.toBe(true);
    const deleted = visible.locator('.d2h-del', { hasText: 'legacyLog("start");' }).first();
    await expect(deleted.isVisible()).resolves.toBe(true);
    // Only the opened job was drawn.
    expect(await page.locator('#job-1 .d2h-file-wrapper, #job-2 .d2h-file-wrapper').count()).toBe(0);
  });

  it('shows skipped files with their reason in the job', async () => {
    await page.locator('#job-2 > summary').click();
    await expect(page.locator('#job-2 .skipped').innerText()).resolves.toBe('step 1, src/polyfills.ts: already applied');
  });

  it('switches between line-by-line and side-by-side', async () => {
    const core = page.locator('#job-0');
    const line = core.locator('.view[data-view="line-by-line"]');
    const side = core.locator('.view[data-view="side-by-side"]');
    expect(await line.isVisible()).toBe(true);
    expect(await side.count()).toBe(0);

    await page.getByRole('button', { name: 'Side by side' }).click();
    expect(await line.isVisible()).toBe(false);
    expect(await side.isVisible()).toBe(true);
    expect(await side.locator('.d2h-file-side-diff').first().isVisible()).toBe(true);
    await expect(page.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL('report-side-by-side.png', ARTIFACTS).pathname, fullPage: true });

    await page.getByRole('button', { name: 'Line by line' }).click();
    expect(await line.isVisible()).toBe(true);
    expect(await side.isVisible()).toBe(false);
    await page.screenshot({ path: new URL('report.png', ARTIFACTS).pathname, fullPage: true });
  });

  it('shows hostile file content as text and requests nothing but the file', async () => {
    const view = page.locator('#job-0 .view[data-view="line-by-line"]');
    await expect(view.locator('.d2h-file-name', { hasText: 'docs/<b>bold</b>.html' }).first().isVisible()).resolves.toBe(true);
    await expect(view.locator('.d2h-ins', { hasText: '<script>window.__pwned = 1</script>' }).first().isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(requests).toEqual([fileUrl]);
  });
});
