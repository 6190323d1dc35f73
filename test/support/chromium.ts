// The Chromium every browser test drives through playwright-core, found in one place: CHROMIUM_PATH,
// else a system Chromium on PATH (Debian's chromium, Ubuntu's chromium-browser), else a browser
// playwright installed itself. None: the test fails saying how to get one (never a silent skip).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

/** The path of the Chromium to drive; throws, saying how to install one, when there is none. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const given = env['CHROMIUM_PATH'];
  if (given !== undefined && given !== '') {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH is ${given}, which does not exist; point it at a Chromium binary or unset it.`);
    return given;
  }
  for (const name of NAMES) {
    const found = onPath(name, env);
    if (found !== null) return found;
  }
  const own = chromium.executablePath();
  if (own !== '' && existsSync(own)) return own;
  throw new Error(
    'No Chromium found for the HTML-report browser tests: install one (Debian/Ubuntu: `apt-get install -y chromium`; .ci/run does it) ' +
      `or set CHROMIUM_PATH to its binary. Looked for ${NAMES.join(', ')} on PATH and for playwright's own browser.`,
  );
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  try {
    return execFileSync('/bin/sh', ['-c', 'command -v "$1"', 'sh', name], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** A headless Chromium with nothing in the background (no updates, no sync, no network of its own). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
