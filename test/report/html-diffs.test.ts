// The diffs of the HTML report as a reviewer reads them, in a real Chromium: syntax highlighted by
// the language the path says (also for a file without an extension), the changed words marked with
// <ins>/<del> inside highlighted lines, in both views; a lock file and a 5,000-line change folded
// behind "Open diff" with their counts; binary and UTF-16 files named. Screenshots of the opened jobs
// go to SCION_SCREENSHOT_DIR when it is set (to be looked at, not committed), else into the test's
// temp folder, removed after.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import type { FileReport, RunReport } from '../../src/model/types.js';
import { fileReport, job, sampleReport } from './sample.js';
import { launchChromium } from '../support/chromium.js';

function diffsReport(): RunReport {
  const base = sampleReport();
  const lock = fileReport('package-lock.json', '{}\n', `{\n${Array.from({ length: 80 }, (_, i) => `  "dep${i}": "1.0.${i}",`).join('\n')}\n}\n`);
  const huge = fileReport(
    'src/table.ts',
    'export const rows = [];\n',
    `export const rows = [\n${Array.from({ length: 5_000 }, (_, i) => `  ${i},`).join('\n')}\n];\n`,
  );
  const docker = fileReport('Dockerfile', 'FROM node:18\nRUN npm ci\n', 'FROM node:20\nRUN npm ci\n');
  const binary: FileReport = { path: 'assets/logo.png', group: 'rest', added: 0, removed: 0 };
  const utf16: FileReport = { ...fileReport('notes/utf16.txt', 'hello\n', 'hallo\n'), encoding: 'utf16le' };
  const ws = fileReport('src/indent.ts', 'if (a) {\n\tgo();\n}\n', 'if (a) {\n    go();\n}\n');
  const big = job({ name: 'big', files: [lock, huge, docker, binary, utf16, ws] });
  return { ...base, jobs: [...base.jobs, big] };
}

describe("the HTML report's diffs, in Chromium", () => {
  let browser: Browser;
  let dir: string;
  let page: Page;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scion-html-diffs-'));
    const path = join(dir, 'report.html');
    await writeFile(path, renderHtml(diffsReport()));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('highlights the syntax and marks the changed words when a job is opened', async () => {
    await page.locator('#job-0 > summary').click();
    const file = page.locator('#job-0 .view[data-view="line-by-line"] .d2h-file-wrapper').filter({ hasText: 'src/core/log.ts' });
    const keywords = await file.locator('.d2h-code-line-ctn .hljs-keyword').allInnerTexts();
    expect(keywords).toEqual(expect.arrayContaining(['import', 'from', 'export', 'function']));
    expect(await file.locator('.d2h-code-line-ctn .hljs-string').count()).toBeGreaterThan(0);
    // The renamed identifier is the marked word, inside a highlighted line; its neighbours are not marked.
    expect(await file.locator('.d2h-del del').allInnerTexts()).toEqual(expect.arrayContaining(['legacyLog']));
    expect(await file.locator('.d2h-ins ins').allInnerTexts()).toEqual(expect.arrayContaining(['log']));
    const line = file.locator('.d2h-ins .d2h-code-line-ctn', { hasText: 'log("start")' });
    await expect(line.locator('ins').allInnerTexts()).resolves.toEqual(['log']);
    await expect(line.locator('.hljs-string').innerText()).resolves.toBe('"start"');
    // The mark looks different from the rest of the line.
    const bg = (sel: string) =>
      line
        .locator(sel)
        .first()
        .evaluate((e) => getComputedStyle(e as unknown as Element).backgroundColor);
    expect(await bg('ins')).not.toBe(await bg('.hljs-string'));
    await page.locator('#job-0').screenshot({ path: join(process.env['SCION_SCREENSHOT_DIR'] ?? dir, 'scion-html-diffs-job.png') });
  });

  it('highlights in the side-by-side view too', async () => {
    await page.getByRole('button', { name: 'Side by side' }).click();
    const side = page.locator('#job-0 .view[data-view="side-by-side"]');
    await side.locator('.d2h-file-side-diff .hljs-keyword').first().waitFor();
    expect(await side.locator('.d2h-file-side-diff .hljs-keyword').count()).toBeGreaterThan(0);
    expect(await side.locator('.d2h-file-side-diff del', { hasText: 'legacyLog' }).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Line by line' }).click();
  });

  it('folds a lock file and a 5,000-line change behind "Open diff", with their counts', async () => {
    await page.locator('#job-3 > summary').click();
    const view = page.locator('#job-3 .view[data-view="line-by-line"]');
    const folded = view.locator('.big-diff');
    // The job's diffs are drawn when it is opened: wait for both folds before reading them.
    await folded.nth(1).waitFor();
    await expect(folded.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^package-lock\.json \+82 −1 · lock file, 83 diff lines\s*Open diff$/),
      expect.stringMatching(/^src\/table\.ts \+5,002 −1 · large diff, 5,003 diff lines\s*Open diff$/),
    ]);
    // Folded diffs are not drawn: only the small files are.
    expect(await view.locator('.d2h-file-wrapper').count()).toBe(3);
    await folded.filter({ hasText: 'package-lock.json' }).getByRole('button', { name: 'Open diff' }).click();
    const opened = view.locator('.d2h-file-wrapper').filter({ hasText: 'package-lock.json' });
    expect(await opened.locator('td.d2h-ins .d2h-code-line-ctn').count()).toBe(82);
    expect(await opened.locator('.hljs-attr').count()).toBeGreaterThan(0);
    expect(await view.locator('.big-diff').count()).toBe(1);
  });

  it('reads the language from the path, also for a file without an extension', async () => {
    const docker = page.locator('#job-3 .view[data-view="line-by-line"] .d2h-file-wrapper').filter({ hasText: 'Dockerfile' });
    await expect(docker.getAttribute('data-lang')).resolves.toBe('dockerfile');
    expect(await docker.locator('.hljs-keyword', { hasText: 'FROM' }).count()).toBeGreaterThan(0);
  });

  it('makes a whitespace-only change visible', async () => {
    const file = page.locator('#job-3 .view[data-view="line-by-line"] .d2h-file-wrapper').filter({ hasText: 'src/indent.ts' });
    const ins = file.locator('.d2h-ins ins').first();
    await expect(ins.innerText()).resolves.toMatch(/^\s+$/);
    const box = await ins.boundingBox();
    expect(box!.width).toBeGreaterThan(10);
  });

  it('says what a binary file and a UTF-16 file are', async () => {
    const text = await page.locator('#job-3 .view[data-view="line-by-line"]').innerText();
    expect(text).toContain('assets/logo.png: binary file, or text in an encoding other than UTF-8/UTF-16: no text diff.');
    expect(text).toContain('notes/utf16.txt: UTF-16 text: git shows it as binary');
    await page.locator('#job-3').screenshot({ path: join(process.env['SCION_SCREENSHOT_DIR'] ?? dir, 'scion-html-diffs-big.png') });
  });
});
