// The HTML report of a run at the size users have (150 jobs, 1,400 changed files, 87 jobs failing the
// same way) in a real Chromium: it opens fast, the filter narrows the index, a job draws its diffs when
// opened, and the 87 failures read as one group. Size and open time are printed, not asserted (speed
// lives in test/bench): the figures go in the note.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import type { FileReport, JobReport, RunReport } from '../../src/model/types.js';
import { fileReport, job } from './sample.js';
import { launchChromium } from '../support/chromium.js';

const JOBS = 150;
const FILES = 1_400;
const FAILED = 87;

/** A 40-line source file with a logger call renamed on three lines. */
function changedFile(path: string, n: number): FileReport {
  const before =
    Array.from({ length: 40 }, (_, i) => (i % 13 === 5 ? `  legacyLog("${path} ${n} ${i}");` : `  const v${i} = compute(${i}, "${path}");`)).join('\n') + '\n';
  return fileReport(path, before, before.replaceAll('legacyLog(', 'log('));
}

function bigReport(): RunReport {
  const jobs: JobReport[] = [];
  let made = 0;
  for (let j = 0; j < JOBS; j++) {
    const pkg = `pkg-${String(j).padStart(3, '0')}`;
    const count = Math.floor(((j + 1) * FILES) / JOBS) - made;
    made += count;
    const files = Array.from({ length: count }, (_, k) => changedFile(`packages/${pkg}/src/mod${k}.ts`, k));
    const failed = j < FAILED;
    jobs.push(
      job({
        recipe: 'rename-logger',
        name: pkg,
        status: failed ? 'failed' : 'changed',
        files,
        errors: failed
          ? [
              {
                step: 1,
                file: `packages/${pkg}/src/legacy.ts`,
                kind: 'not-found',
                code: 8,
                message: `String to replace not found in packages/${pkg}/src/legacy.ts.`,
              },
            ]
          : [],
        diagnostics: failed
          ? [{ file: `packages/${pkg}/src/mod0.ts`, line: 3, col: 5, severity: 'error', message: "Cannot find name 'log'.", source: 'tsc', code: 'TS2304' }]
          : [],
        skipped: j % 10 === 0 ? [{ step: 0, file: `packages/${pkg}/src/old.ts`, reason: 'already-applied' }] : [],
      }),
    );
  }
  return { version: 1, repo: '/work/monorepo', dryRun: false, jobs };
}

describe('renderHtml at 150 jobs and 1,400 files, in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let page: Page;
  let bytes = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scion-html-scale-'));
    const path = join(dir, 'report.html');
    const report = bigReport();
    expect(report.jobs.reduce((n, j) => n + j.files.length, 0)).toBe(FILES);
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

  it('opens, and says how big and how fast', async () => {
    // A string, evaluated in the page (the tests compile without the DOM's types).
    const timing = await page.evaluate<{ load: number; ready: number; elements: number }>(`({
      load: performance.getEntriesByType('navigation')[0].loadEventEnd,
      ready: performance.getEntriesByName('scion-ready')[0]?.startTime ?? -1,
      elements: document.getElementsByTagName('*').length,
    })`);
    expect(timing.ready).toBeGreaterThan(0);
    console.log(
      `[html-scale] ${JOBS} jobs, ${FILES} files: ${(bytes / 1e6).toFixed(2)} MB, ${timing.elements} elements, ` +
        `ready ${timing.ready.toFixed(0)} ms, loadEventEnd ${timing.load.toFixed(0)} ms`,
    );
  });

  it('groups the 87 identical failures into one entry with the list of jobs and files', async () => {
    const groups = page.locator('#failures .fgroup');
    expect(await groups.count()).toBe(1);
    const text = await groups.first().innerText();
    expect(text).toContain(`not-found (code 8) · ${FAILED} times in ${FAILED} jobs: String to replace not found in the file.`);
    expect(await groups.first().locator('li').count()).toBe(FAILED);
    await expect(page.locator('#failures h2').innerText()).resolves.toBe(`Failures (${FAILED} in 1 group)`);
  });

  it('narrows the index with the filter box and the status buttons', async () => {
    const visibleRows = () => page.locator('table.jobs tr[data-job]:visible').count();
    expect(await visibleRows()).toBe(JOBS);
    await page.locator('#filter').fill('packages/pkg-142/src/mod3.ts');
    expect(await visibleRows()).toBe(1);
    await expect(page.locator('#shown').innerText()).resolves.toBe(`1 of ${JOBS} jobs`);
    expect(await page.locator('details.job:visible').count()).toBe(1);
    await page.locator('#filter').fill('');
    await page.locator('.filters button[data-status="failed"]').click();
    expect(await visibleRows()).toBe(FAILED);
    await page.locator('.filters button[data-status="all"]').click();
    expect(await visibleRows()).toBe(JOBS);
  });

  it("draws a job's diffs only when it is opened", async () => {
    expect(await page.locator('.d2h-file-wrapper').count()).toBe(0);
    await page.locator('table.jobs a', { hasText: 'rename-logger/pkg-149' }).click();
    const job = page.locator('#job-149');
    await expect(job.evaluate((d) => (d as unknown as { open: boolean }).open)).resolves.toBe(true);
    const files = job.locator('.view[data-view="line-by-line"] .d2h-file-wrapper');
    expect(await files.count()).toBe(bigReport().jobs[149]!.files.length);
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
