// The bundle's stand-in for string-width (.ci/bundle.js): the same widths as the real package for
// any text, and the real one (its emoji expression, ICU's segmenter) loaded only when the text
// is not plain ASCII. Built here with the bundle's own plugin and run in a child process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scion-width-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TEXTS = [
  '',
  'plain words, 42 of them!',
  'two\nlines\tand a tab\r\n',
  '\0\x01\x7f',
  '\x1b[31mred\x1b[39m',
  'ESC alone \x1b here',
  '漢字 and kana かな',
  'emoji 👍🏽 and 👨‍👩‍👧 and ❤️',
  'e\u0301 combining',
  'ambiguous ±§',
];

/** Bundles an entry that reports, as JSON, each text's width and whether ICU's segmenter was made by then. */
async function bundle(): Promise<string> {
  const { lazyStringWidth } = (await import(pathToFileURL(join(ROOT, '.ci/bundle.js')).href)) as { lazyStringWidth: Plugin };
  const entry = `
    let segmenters = 0;
    const Real = Intl.Segmenter;
    Intl.Segmenter = class extends Real { constructor(...a) { super(...a); segmenters++; } };
    const { default: width } = await import('string-width');
    const texts = JSON.parse(process.argv[2]);
    const out = texts.map((t) => ({ width: width(t), ansi: width(t, { countAnsiEscapeCodes: true }), segmenters }));
    console.log(JSON.stringify(out));
  `;
  const out = join(work, 'out');
  await build({
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'entry.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: out,
    plugins: [lazyStringWidth],
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
    logLevel: 'silent',
  });
  return join(out, 'stdin.js');
}

describe("the bundle's string-width", () => {
  it('measures every text as string-width does, and loads the real one only at the first text beyond ASCII', async () => {
    const file = await bundle();
    writeFileSync(join(work, 'package.json'), '{"type":"module"}');
    const got = JSON.parse(execFileSync(process.execPath, [file, JSON.stringify(TEXTS)], { encoding: 'utf8' })) as {
      width: number;
      ansi: number;
      segmenters: number;
    }[];
    expect(got.map((g) => g.width)).toEqual(TEXTS.map((t) => stringWidth(t)));
    expect(got.map((g) => g.ansi)).toEqual(TEXTS.map((t) => stringWidth(t, { countAnsiEscapeCodes: true })));
    // The first four texts are ASCII without ESC: nothing of the real string-width was loaded for them.
    expect(got.slice(0, 4).map((g) => g.segmenters)).toEqual([0, 0, 0, 0]);
    expect(got[4]!.segmenters).toBeGreaterThan(0);
  });
});
