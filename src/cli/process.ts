// The process entry (bin/scion.js): the only place that touches process globals — argv, the real
// streams, the exit code. main() stays callable in process (tests) with an injected CliIo.
import { main } from './main.js';
import { processIo } from './io.js';

export async function processMain(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const code = await main(argv, processIo());
  process.exitCode = code;
}
