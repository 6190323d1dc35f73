// `npm test`: every test but the package test (test/package/, run by `npm run test:package` in .ci/run:
// it builds, packs and installs from the registry). Nothing here needs `npm run build` first: the
// package's own name resolves to its sources, for vite (the alias) and for module recipes loaded
// through tsx (test/tsconfig.json's `paths`, found through TSX_TSCONFIG_PATH).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsconfig.json', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [{ find: /^scion-codemod$/, replacement: fileURLToPath(new URL('../src/index.ts', import.meta.url)) }],
  },
  test: {
    root,
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'test/package/**', 'node_modules/**'],
    env: { TSX_TSCONFIG_PATH: tsconfig },
    // Most tests wait on git, servers and child processes rather than on a core: three files at once
    // keep a 2-core machine busy (vitest's default, one worker per core but one, runs them one by one).
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
