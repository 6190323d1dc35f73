// The esbuild options of dist/'s bundle (.ci/build.js runs them): which files are entries, which
// packages are bundled in, and the stand-ins of two packages that are slow to load. test/build/ checks the stand-ins.
import { dirname, join } from 'node:path';

// The files started on their own, by these names (src/util/own-files.ts finds them in src/ or dist/):
// the library, the CLI's process entry (bin/scion.js), the structural engine's child process, the
// module-recipe loader a transform's worker thread imports and the blob scan's worker threads' module.
export const ENTRIES = ['index', 'cli/process', 'structural/worker', 'recipe/load-module', 'git/blob-scan-worker'];

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
      if (/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      return BUNDLED.has(packageOf(args.path)) ? undefined : { external: true };
    });
  },
};

// Two packages do costly work as they load: string-width builds a \p{RGI_Emoji} expression and an
// ICU segmenter (~30 ms, a quarter of `scion --help`), slice-ansi another segmenter (~10 ms). yargs,
// its layout (cliui, wrap-ansi), cli-truncate and scion's diff renderer import them. In the bundle
// each importer gets a stand-in that loads the real one (of the version that importer asked for)
// the first time it is needed: slice-ansi's when a line is cut (cli-truncate leaves a line that fits
// alone); string-width's when the text is not ASCII or holds ESC (which starts an escape sequence
// string-width leaves out), since the stand-in measures ASCII itself as string-width does, a column
// for each printable character and none for a control character.
const STAND_INS = {
  'string-width': [
    'const ascii = /^[\\x00-\\x1a\\x1c-\\x7f]*$/;',
    'const controls = /[\\x00-\\x1f\\x7f]/g;',
    "export default (text, options) => (typeof text === 'string' && ascii.test(text) ? text.replace(controls, '').length : real()(text, options));",
  ],
  'slice-ansi': ['export default (...args) => real()(...args);'],
};

const standIn = (path, body) =>
  [
    'let loaded;',
    // esbuild turns a require() of a bundled ES module into its initialisation, here and not at load.
    `const real = () => (loaded ??= require(${JSON.stringify(path)}).default);`,
    ...body,
  ].join('\n');

export const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    b.onResolve({ filter: /^(string-width|slice-ansi)$/ }, async (args) => {
      if (args.namespace === 'lazy') return undefined;
      const real = await b.resolve(args.path, { importer: args.importer, resolveDir: args.resolveDir, kind: args.kind, namespace: 'lazy' });
      return real.errors.length > 0 ? { errors: real.errors } : { path: real.path, namespace: 'lazy', pluginData: args.path };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      loader: 'js',
      resolveDir: dirname(args.path),
      contents: standIn(args.path, STAND_INS[args.pluginData]),
    }));
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
    plugins: [lazyPackages, dependencies],
    // yaml is CommonJS and requires Node's built-ins; an ES module has no `require` of its own, so
    // each file gets one (esbuild renames any `require` the bundled code declares).
    banner: { js: "import { createRequire as __scionCreateRequire } from 'node:module';\nconst require = __scionCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}
