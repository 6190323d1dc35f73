// The esbuild options of dist/'s bundle (.ci/build.js runs them): which files are entries, which
// packages are bundled in, and string-width's stand-in. test/build/ checks the stand-in.
import { dirname, join } from 'node:path';

// The files started on their own, by these names (src/util/own-files.ts finds them in src/ or dist/):
// the library, the CLI's process entry (bin/scion.js), the structural engine's child process and the
// module-recipe loader a transform's worker thread imports.
export const ENTRIES = ['index', 'cli/process', 'structural/worker', 'recipe/load-module'];

// Packages bundled in: pure JavaScript that start-up loads (the command line, the recipe schema and
// its YAML, globs, diffs, terminal widths), together with everything they import. Every other package
// stays an import from node_modules: native code (@ast-grep/napi), packages loaded by path or by
// name at run time (tsx, jscodeshift, highlight.js's grammars, diff2html's assets, ajv, the
// @ast-grep/lang-* packs), and large ones only some commands load, on demand (the Anthropic SDK,
// isomorphic-git, octokit).
const BUNDLED = new Set(['yargs', 'zod', 'yaml', 'diff', 'picomatch', 'ignore', 'cli-truncate', 'string-width', 'p-queue', 'ci-info']);

/** The package a bare import names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec) => spec.split('/', spec.startsWith('@') ? 2 : 1).join('/');

export const dependencies = {
  name: 'dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      // A bundled package's own imports come with it (they may be nested where scion cannot see them).
      if (args.importer.includes('/node_modules/')) return undefined;
      return BUNDLED.has(packageOf(args.path)) ? undefined : { external: true };
    });
  },
};

// string-width builds a \p{RGI_Emoji} expression and an ICU segmenter as it loads (~30 ms, a quarter of
// `scion --help`), and yargs, its layout (cliui, wrap-ansi) and scion's diff renderer all import it.
// In the bundle each of them gets a stand-in that measures ASCII text itself, as string-width does (a
// column for each printable character, none for a control character), and loads the real one, of
// the version that importer asked for, the first time it measures anything else: text with ESC
// (which starts an escape sequence string-width leaves out) or beyond ASCII.
const STAND_IN = (real) =>
  [
    'const ascii = /^[\\x00-\\x1a\\x1c-\\x7f]*$/;',
    'const controls = /[\\x00-\\x1f\\x7f]/g;',
    'let real;',
    'export default function stringWidth(text, options) {',
    "  if (typeof text === 'string' && ascii.test(text)) return text.replace(controls, '').length;",
    // esbuild turns a require() of a bundled ES module into its initialisation, here and not at load.
    `  real ??= require(${JSON.stringify(real)}).default;`,
    '  return real(text, options);',
    '}',
  ].join('\n');

export const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.namespace === 'lazy-string-width') return undefined;
      const real = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, namespace: 'lazy-string-width' });
      return real.errors.length > 0 ? { errors: real.errors } : { path: real.path, namespace: 'lazy-string-width' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({ loader: 'js', resolveDir: dirname(args.path), contents: STAND_IN(args.path) }));
  },
};

/** esbuild's options for the bundle of the project at `root`, written to `outdir`. */
export function bundleOptions(root, outdir) {
  return {
    absWorkingDir: root,
    entryPoints: Object.fromEntries(ENTRIES.map((e) => [e, join('src', `${e}.ts`)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    plugins: [lazyStringWidth, dependencies],
    // yaml is CommonJS and requires Node's built-ins; an ES module has no `require` of its own, so
    // each file gets one (esbuild renames any `require` the bundled code declares).
    banner: { js: "import { createRequire as __scionCreateRequire } from 'node:module';\nconst require = __scionCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}
