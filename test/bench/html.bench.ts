// The HTML report at 150 jobs / 1,400 changed files (the report of test/report/html-scale.test.ts) in
// Debian's Chromium: its size and how long it takes to open, against the page's budget (under 4 MB,
// open in under 2 s). "Open" is the page's own `scion-ready` mark (the index can be used), and
// loadEventEnd; the baseline, measured in the same run, is a page of the same bytes with nothing to draw
// (the report's text inside one comment): what reading and parsing that much costs, so a busy machine
// shows in both. Then the time to draw the largest job's
// diffs when it is opened. Medians of SCION_BENCH_RUNS (default 5) fresh browser contexts (no cache).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { renderHtml } from '../../src/report/html.js';
import { HTML_MAX_BYTES, HTML_MAX_OPEN_MS, SCALE_FILES, SCALE_JOBS, scaleReport } from '../report/scale-report.js';
import { launchChromium } from '../support/chromium.js';
import { median, table } from './support.js';

const RUNS = Number(process.env.SCION_BENCH_RUNS ?? 5);

interface Open {
  readonly ready: number;
  readonly load: number;
}

async function open(browser: Browser, url: string): Promise<Open> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // A string, evaluated in the page (the bench compiles without the DOM's types).
    return await page.evaluate<Open>(`({
      load: performance.getEntriesByType('navigation')[0].loadEventEnd,
      ready: performance.getEntriesByName('scion-ready')[0]?.startTime ?? -1,
    })`);
  } finally {
    await context.close();
  }
}

/** Milliseconds from clicking a job's link to its diffs being drawn (the last file's wrapper present). */
async function openJob(browser: Browser, url: string, job: number, files: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate<number>(`new Promise((resolve) => {
      const t0 = performance.now();
      document.querySelector('table.jobs a[href="#job-${job}"]').click();
      const done = () => document.querySelectorAll('#job-${job} .view[data-view="line-by-line"] .d2h-file-wrapper').length >= ${files};
      const tick = () => (done() ? resolve(performance.now() - t0) : requestAnimationFrame(tick));
      tick();
    })`);
  } finally {
    await context.close();
  }
}

const within = (ok: boolean): string => (ok ? 'yes' : 'NO');

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scion-bench-html-'));
  const report = scaleReport();
  const html = renderHtml(report);
  const bytes = Buffer.byteLength(html);
  const reportPath = join(dir, 'report.html');
  const plainPath = join(dir, 'plain.html');
  writeFileSync(reportPath, html);
  writeFileSync(plainPath, `<!doctype html><meta charset="utf-8"><title>bytes</title><!-- ${html.replaceAll('--', '- -')} -->`);
  const largest = report.jobs.reduce((best, j, i) => (j.files.length > (report.jobs[best]?.files.length ?? 0) ? i : best), 0);
  const browser = await launchChromium();
  try {
    const reportOpens: Open[] = [];
    const plainOpens: Open[] = [];
    const jobDraws: number[] = [];
    // Interleaved: the report and its baseline see the same load on the machine.
    for (let i = 0; i < RUNS; i++) {
      plainOpens.push(await open(browser, pathToFileURL(plainPath).href));
      reportOpens.push(await open(browser, pathToFileURL(reportPath).href));
      jobDraws.push(await openJob(browser, pathToFileURL(reportPath).href, largest, report.jobs[largest]!.files.length));
    }
    if (reportOpens.some((o) => o.ready < 0)) throw new Error('the report never set its scion-ready mark');
    const ready = median(reportOpens.map((o) => o.ready));
    const load = median(reportOpens.map((o) => o.load));
    const plainLoad = median(plainOpens.map((o) => o.load));
    console.log(
      table(
        [`HTML report, ${SCALE_JOBS} jobs / ${SCALE_FILES} files`, 'measured', 'bound', 'within', 'vs the same bytes, nothing drawn'],
        [
          ['size', `${(bytes / 1e6).toFixed(2)} MB`, `< ${HTML_MAX_BYTES / 1e6} MB`, within(bytes < HTML_MAX_BYTES), ''],
          [
            'open (scion-ready mark)',
            `${ready.toFixed(0)} ms`,
            `< ${HTML_MAX_OPEN_MS} ms`,
            within(ready < HTML_MAX_OPEN_MS),
            `${(ready / plainLoad).toFixed(2)}×`,
          ],
          ['open (loadEventEnd)', `${load.toFixed(0)} ms`, `< ${HTML_MAX_OPEN_MS} ms`, within(load < HTML_MAX_OPEN_MS), `${(load / plainLoad).toFixed(2)}×`],
          ['the same bytes in a comment, loadEventEnd', `${plainLoad.toFixed(0)} ms`, '', '', '1.00×'],
          [`open the largest job (${report.jobs[largest]!.files.length} files' diffs)`, `${median(jobDraws).toFixed(0)} ms`, '', '', ''],
        ],
      ),
    );
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
