// The real CLI as its own process, straight from the sources (node --import tsx), for tests that
// must kill it: same code path as bin/scion.js.
import { main } from '../../src/cli/main.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
