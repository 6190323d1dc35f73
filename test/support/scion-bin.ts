// bin/scion.js for tests that need scion as a program (a shell running `scion …`), run through tsx
// from the sources so no build is needed: `node --import tsx test/support/scion-bin.ts ARGS`.
import { main } from '../../src/cli/main.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
