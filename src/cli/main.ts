// The CLI owns the process: it parses argv over the command table (commands.ts: each command's module
// is imported when that command runs), runs one command, and maps every error to an exit code and one
// clear sentence (exit.ts). Nothing below it knows about argv, TTYs or exit codes.
import yargs from 'yargs';
import { ScionError } from '../api/errors.js';
import { scionVersion } from '../api/version.js';
import { COMMAND_NAMES, COMMANDS, EPILOG } from './commands.js';
import { EXIT_INTERRUPTED, EXIT_USAGE, fromArgv, inCommandWords, reportError } from './exit.js';
import { atEdge, processIo, type CliIo } from './io.js';
import { shapeUsage } from './usage-mistakes.js';

export async function main(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
  // Everything below prints and writes through the redacting edge.
  const io = atEdge(given);
  const args = helpCommand(argv);
  let code = 0;
  let output = '';
  try {
    await parser(io, (c) => (code = c), wantsHelp(args)).parseAsync([...args], {}, (_err, _args, out) => {
      output = out;
    });
  } catch (thrown) {
    const e =
      thrown instanceof ScionError
        ? inCommandWords(
            thrown,
            args.find((a) => !a.startsWith('-')),
          )
        : thrown;
    if (e instanceof ScionError && fromArgv(e)) return usage(io, args, e);
    const code = reportError(io, e);
    return io.signal?.aborted ? EXIT_INTERRUPTED : code;
  }
  // --help and --version: yargs hands their text here instead of printing it.
  if (output) io.stdout.write(`${output}\n`);
  return code;
}

/** yargs over the command table: each command's module is imported when it runs, and its exit status kept. */
function parser(io: CliIo, exit: (code: number) => void, help: boolean) {
  let cli = yargs()
    .scriptName('scion')
    // yargs words its messages in the locale of the process; usage-mistakes.ts reads them in English.
    .locale('en')
    .usage(
      '$0 <command> [options]\n\nGit-native batch refactoring: a recipe describes a change across many files; each job gets its own worktree and ' +
        'leaves a branch of reviewable commits. Your checkout is never touched.',
    );
  for (const c of COMMANDS) {
    cli = cli.command(c.usage, c.describe, c.build, async (a) => exit(await (await c.load()).run(io, a)));
  }
  return (
    cli
      .demandCommand(1, `Name a command: ${COMMAND_NAMES.slice(0, -2).join(', ')} or ${COMMAND_NAMES.at(-2)!}.`)
      .strict()
      .recommendCommands()
      .epilog(EPILOG)
      // yargs lays out the command's help text as the command starts, whether or not it is shown;
      // wrapping it to the terminal takes longer than the rest of a 1-file job's parsing, so it is
      // wrapped only when asked for.
      .wrap(help ? Math.min(110, io.stdout.columns ?? 100) : null)
      .exitProcess(false)
      // Throwing here is what stops yargs: a fail handler that returns lets the command run anyway.
      .fail((msg, err) => {
        // yargs' own parse errors (a flag without its value) come as a YError; anything else is ours.
        if (err && err.name !== 'YError') throw err;
        throw new ScionError('usage', msg || err?.message || 'bad usage', { data: { argv: true } });
      })
      .help()
      .alias('help', 'h')
      .version(scionVersion())
      .alias('version', 'V')
  );
}

/** A usage mistake on the command line: one sentence (with "did you mean"), where --help is, exit 2. */
async function usage(io: CliIo, args: readonly string[], e: ScionError): Promise<number> {
  const command = args.find((a) => !a.startsWith('-'));
  const msg = await shapeUsage(e.message, { argv: args, command, commands: ALL_NAMES, flags: () => flagsOf(command) });
  const known = command !== undefined && ALL_NAMES.includes(command);
  io.stderr.write(`scion: ${msg}\nRun \`scion ${known ? `${command} ` : ''}--help\` for the options.\n`);
  return EXIT_USAGE;
}

/** The commands' names and `help`. */
const ALL_NAMES = [...COMMAND_NAMES, 'help'];

/** Whether the command line asks for a help text (`help` is already --help here). */
function wantsHelp(args: readonly string[]): boolean {
  return args.some((a) => a === '--help' || a === '-h');
}

/** `scion help run` is `scion run --help`; `scion help` is `scion --help`. */
function helpCommand(argv: readonly string[]): readonly string[] {
  if (argv[0] !== 'help') return argv;
  if (argv.length === 1) return ['--help'];
  // An unknown name stays a command, so it gets "did you mean" and exit 2 instead of the general help.
  return ALL_NAMES.includes(argv[1]!) ? [argv[1]!, '--help'] : argv.slice(1);
}

/** The long flags of a command, read from its own --help text (so new flags need no second list). */
async function flagsOf(command: string | undefined): Promise<string[]> {
  if (command === undefined) return [];
  let text = '';
  const quiet = { write: () => true };
  await main([command, '--help'], { stdout: { write: (s: string) => (text += s) }, stderr: quiet, env: {}, cwd: '/' });
  return [...new Set([...text.matchAll(/--(?:\[no-\])?([a-z][a-z0-9-]*)/g)].map((m) => m[1]!))];
}
