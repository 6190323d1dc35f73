// The process entry (bin/scion.js): the only place that touches process globals — argv, the real
// streams, signals, the exit code. main() stays callable in process (tests) with an injected CliIo
// whose `signal` stands for the interrupt.
import { EXIT_INTERRUPTED } from './exit.js';
import { main } from './main.js';
import { processIo } from './io.js';

export async function processMain(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const controller = new AbortController();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second interrupt while winding down: the user means it; leave at once.
    if (stopping) process.exit(EXIT_INTERRUPTED);
    stopping = true;
    process.stderr.write(`\nscion: ${signal}: stopping the jobs and writing the report (interrupt again to quit at once).\n`);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await main(argv, { ...processIo(), signal: controller.signal });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  // Interrupted: whatever the stopped run left pending (a timer, a child being reaped) must not keep
  // the process alive; stdout and stderr are written synchronously on files, pipes and terminals.
  if (code === EXIT_INTERRUPTED || controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
  process.exitCode = code;
}
