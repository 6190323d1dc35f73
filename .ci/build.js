// `npm run build`: dist/ as the package ships it.
//  - The code: one esbuild bundle of src/ (ESM, source maps), split into a few entries and the chunks
//    they share. A start-up reads a handful of files instead of hundreds, which is most of what
//    `scion --help`, `validate` and a 1-file job cost. It is ONE build so that the CLI, the library
//    (dist/index.js, what a module recipe's `import ... from 'scion-codemod'` reaches) and the
//    workers share one copy of each module: one ScionError class, one registry of recipes' transforms.
//  - The types: tsc writes the .d.ts files beside them (and type-checks: a type error fails the build).
//  - The recipe JSON Schema, from the built CLI.
// It lives in .ci/ with the project's other tooling: bin/ ships in the package, src/ is the library.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

// The files started on their own, by these names (src/util/own-files.ts finds them in src/ or dist/):
// the library, the CLI's process entry (bin/scion.js), the structural engine's child process and the
// module-recipe loader a transform's worker thread imports.
const ENTRIES = ['index', 'cli/process', 'structural/worker', 'recipe/load-module'];

// Packages bundled in: pure JavaScript that start-up loads (the command line, the recipe schema and
// its YAML, globs, diffs, terminal widths), together with everything they import. Every other package
// stays an import from node_modules: native code (@ast-grep/napi), packages loaded by path or by
// name at run time (tsx, jscodeshift, highlight.js's grammars, diff2html's assets, ajv, the
// @ast-grep/lang-* packs), and large ones only some commands load, on demand (the Anthropic SDK,
// isomorphic-git, octokit).
const BUNDLED = new Set([
  'yargs',
  'zod',
  'yaml',
  'diff',
  'picomatch',
  'ignore',
  'cli-truncate',
  'string-width',
  'p-queue',
  'ci-info',
]);

/** The package a bare import names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec) => spec.split('/', spec.startsWith('@') ? 2 : 1).join('/');

const dependencies = {
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
// In the bundle each of them gets a stand-in that answers printable ASCII itself (one column a
// character, what string-width answers for it) and loads the real one, of the version that importer
// asked for, the first time it measures anything else.
const lazyWidth = {
  name: 'lazy-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.namespace === 'lazy-string-width') return undefined;
      const real = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, namespace: 'lazy-string-width' });
      return real.errors.length > 0 ? { errors: real.errors } : { path: real.path, namespace: 'lazy-string-width' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      loader: 'js',
      resolveDir: dirname(args.path),
      contents: [
        'const printable = /^[\\x20-\\x7e]*$/;',
        'let real;',
        'export default function stringWidth(text, options) {',
        "  if (typeof text === 'string' && printable.test(text)) return text.length;",
        // esbuild turns a require() of a bundled ES module into its initialisation, here and not at load.
        `  real ??= require(${JSON.stringify(args.path)}).default;`,
        '  return real(text, options);',
        '}',
      ].join('\n'),
    }));
  },
};

function tsc() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--emitDeclarationOnly'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tsc failed (exit ${code})`))));
  });
}

async function main() {
  const dist = join(ROOT, 'dist');
  // Nothing of an earlier build survives (a module file of the unbundled layout would still import).
  rmSync(dist, { recursive: true, force: true });
  await Promise.all([
    tsc(),
    build({
      absWorkingDir: ROOT,
      entryPoints: Object.fromEntries(ENTRIES.map((e) => [e, join('src', `${e}.ts`)])),
      outdir: dist,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      chunkNames: 'chunks/[name]-[hash]',
      sourcemap: true,
      plugins: [lazyWidth, dependencies],
      // yaml is CommonJS and requires Node's built-ins; an ES module has no `require` of its own, so
      // each file gets one (esbuild renames any `require` the bundled code declares).
      banner: { js: "import { createRequire as __scionCreateRequire } from 'node:module';\nconst require = __scionCreateRequire(import.meta.url);" },
      logLevel: 'warning',
    }),
  ]);
  const schema = spawnSync(process.execPath, [join(ROOT, 'bin/scion.js'), 'schema'], { cwd: ROOT, encoding: 'utf8' });
  if (schema.status !== 0) throw new Error(`scion schema failed: ${schema.stderr}`);
  writeFileSync(join(dist, 'recipe.schema.json'), schema.stdout);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
