// The real process entry, run from source through tsx (so tests need no `npm run build`):
// `node --import tsx test/support/scion-bin.ts ARGS` behaves as `bin/scion.js ARGS`.
import { processMain } from '../../src/cli/process.js';

await processMain();
