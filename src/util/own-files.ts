// scion's own files, found the same way when it runs from its TypeScript sources (tests, through tsx
// and vitest) and from the bundle in dist/, where a module's code sits in a shared chunk at another
// depth than its source: the package's folder is the nearest one up holding a package.json, and a
// module started on its own (a child process, a worker's loader) is its .ts under src/ or the entry
// of the same name the build writes under dist/ (.ci/build.js lists those entries).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

/** True when running the TypeScript sources, false in the built package. */
export const FROM_SOURCE = HERE.endsWith('.ts');

let root: string | undefined;

/** The folder of scion's own package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = dirname(HERE); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (root = dir);
    if (dirname(dir) === dir) throw new Error(`scion's package.json was not found above ${HERE}`);
  }
}

/** An entry module by its name under src/ without extension (`structural/worker`): its file, source or built. */
export function ownModule(name: string): string {
  return FROM_SOURCE ? join(packageRoot(), 'src', `${name}.ts`) : join(packageRoot(), 'dist', `${name}.js`);
}

let version: string | undefined;

/** scion's version, from its package.json. */
export function ownVersion(): string {
  version ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
