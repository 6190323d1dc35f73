// The bundle's stand-ins for string-width and slice-ansi (.ci/bundle.js): the same answers as the
// real packages, which are loaded (and make ICU's segmenter) only when needed: string-width's for
// text that is not plain ASCII, slice-ansi's for a line that is cut. Built here with the bundle's own
// plugin and run in a child process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import sliceAnsi from 'slice-ansi';
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

interface Answer {
  readonly width: number;
  readonly ansi: number;
  /** ICU segmenters made so far. */
  readonly segmenters: number;
}

/** Bundles an entry that answers, as JSON, each text's width (or its first 5 columns) and how many ICU segmenters were made by then. */
async function bundle(): Promise<string> {
  const { lazyPackages } = (await import(pathToFileURL(join(ROOT, '.ci/bundle.js')).href)) as { lazyPackages: Plugin };
  const entry = `
    let segmenters = 0;
    const Real = Intl.Segmenter;
    Intl.Segmenter = class extends Real { constructor(...a) { super(...a); segmenters++; } };
    const { default: width } = await import('string-width');
    const { default: slice } = await import('slice-ansi');
    const [what, texts] = JSON.parse(process.argv[2]);
    const answer = (t) => what === 'width'
      ? { width: width(t), ansi: width(t, { countAnsiEscapeCodes: true }), segmenters }
      : { slice: slice(t, 0, 5), segmenters };
    const out = texts.map(answer);
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
    plugins: [lazyPackages],
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
    logLevel: 'silent',
  });
  return join(out, 'stdin.js');
}

let built: Promise<string> | undefined;
function run<T>(what: 'width' | 'slice', texts: readonly string[]): Promise<T[]> {
  built ??= bundle().then((file) => {
    writeFileSync(join(work, 'package.json'), '{"type":"module"}');
    return file;
  });
  return built.then((file) => JSON.parse(execFileSync(process.execPath, [file, JSON.stringify([what, texts])], { encoding: 'utf8' })) as T[]);
}

describe("the bundle's stand-ins", () => {
  it('string-width: every text measured as string-width does, the real one loaded only at the first text beyond ASCII', async () => {
    const got = await run<Answer>('width', TEXTS);
    expect(got.map((g) => g.width)).toEqual(TEXTS.map((t) => stringWidth(t)));
    expect(got.map((g) => g.ansi)).toEqual(TEXTS.map((t) => stringWidth(t, { countAnsiEscapeCodes: true })));
    // The first four texts are ASCII without ESC: nothing of the real string-width was loaded for them.
    expect(got.slice(0, 4).map((g) => g.segmenters)).toEqual([0, 0, 0, 0]);
    expect(got[4]!.segmenters).toBeGreaterThan(0);
  });

  it('slice-ansi: loaded at its first call, and slicing as slice-ansi does', async () => {
    const got = await run<{ slice: string; segmenters: number }>('slice', TEXTS);
    expect(got.map((g) => g.slice)).toEqual(TEXTS.map((t) => sliceAnsi(t, 0, 5)));
    expect(got[0]!.segmenters).toBeGreaterThan(0);
  });

  it('slice-ansi: nothing of it is loaded until it is called', async () => {
    const got = await run<Answer>('width', ['ascii only']);
    expect(got[0]!.segmenters).toBe(0);
  });
});
