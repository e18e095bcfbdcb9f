import type { Argv } from 'yargs';
import type { CommandOutcome } from './exit-codes.js';

/** What `main` lends a running command. */
export interface CommandContext {
  /** Ends the process at once with the outcome's exit status (a second Ctrl-C); only `main` may exit, so it lends this. */
  quit(outcome: CommandOutcome): never;
  /** The signal that came while the command was starting (see `SignalLatch`), taken once; absent outside `main`. */
  takeSignal?(): 'SIGINT' | 'SIGTERM' | undefined;
  /** Told by the parser just before a command that stops cleanly on a signal starts. */
  commandStarting?(stopsOnSignals: boolean): void;
}

/**
 * One CLI command: its options (a yargs builder) and the function that runs
 * it and returns an outcome, which `main` maps to the exit status. `run`
 * lazily imports the command's module so `--help` stays fast.
 */
export interface CommandSpec<A = unknown> {
  command: string;
  describe: string;
  // oxlint-disable-next-line typescript/no-explicit-any -- each command's builder infers its own arguments type; one list holds them all
  builder: (y: Argv) => Argv<any>;
  /** Absent on a command that only groups subcommands. */
  run?: (args: A, context: CommandContext) => Promise<CommandOutcome>;
  /** The command listens for SIGINT and SIGTERM and stops cleanly, writing what it has (`stopOnSignals`): a signal while it loads is kept for it. */
  stopsOnSignals?: boolean;
  subcommands?: readonly CommandSpec<never>[];
}

/** Types a command spec by its arguments (keeps `run`'s parameter checked against the builder's). */
export function defineCommand<A>(spec: CommandSpec<A>): CommandSpec<never> {
  return spec;
}
