// What a command module of the table (commands.ts) is given and returns.
import type { CliIo } from './io.js';

/** yargs' parsed arguments: flags by their camel-cased names, positionals by theirs. */
export type Args = Readonly<Record<string, unknown>>;

/** A command module: maps flags to the API's options, and its result to lines and an exit status. */
export interface CommandModule {
  run(io: CliIo, args: Args): Promise<number>;
}
