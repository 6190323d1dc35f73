// `npm run build`: dist/ as the package ships it.
//  - The code: one esbuild bundle of src/ (ESM, source maps; options in .ci/bundle.js), split into a
//    few entries and the chunks they share. A start-up reads a handful of files instead of hundreds,
//    which was most of what `scion --help`, `validate` and a 1-file job cost. It is ONE build so that
//    the CLI, the library (dist/index.js, what a module recipe's `import ... from 'scion-codemod'`
//    reaches) and the workers share one copy of each module: one ScionError class, one registry of
//    recipes' transforms.
//  - The types: tsc writes the .d.ts files beside them (and type-checks: a type error fails the build).
//  - The recipe JSON Schema, from the built CLI.
// It lives in .ci/ with the project's other tooling: bin/ ships in the package, src/ is the library.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from './bundle.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

function tsc() {
  return new Promise((resolve, reject) => {
    const bin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const child = spawn(process.execPath, [bin, '-p', 'tsconfig.json', '--emitDeclarationOnly'], { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tsc failed (exit ${code})`))));
  });
}

async function main() {
  const dist = join(ROOT, 'dist');
  // Nothing of an earlier build survives (a module file of the unbundled layout would still import).
  rmSync(dist, { recursive: true, force: true });
  await Promise.all([tsc(), build(bundleOptions(ROOT, dist))]);
  const schema = spawnSync(process.execPath, [join(ROOT, 'bin/scion.js'), 'schema'], { cwd: ROOT, encoding: 'utf8' });
  if (schema.status !== 0) throw new Error(`scion schema failed: ${schema.stderr}`);
  writeFileSync(join(dist, 'recipe.schema.json'), schema.stdout);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
