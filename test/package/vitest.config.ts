// `npm run test:package`: the package as users install it (npm pack, npm install from the tarball
// and from a git URL). It builds dist/ from the sources and needs the npm registry, so it runs in
// .ci/run after `npm test`, not in `npm test` itself.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/package/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
