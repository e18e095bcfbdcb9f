import yargs, { type Argv, type CommandModule } from 'yargs';
import { HarnessError } from '../errors/harness-error.js';
import type { CommandContext, CommandSpec } from './command-spec.js';
import type { CommandOutcome } from './exit-codes.js';
import { COMMANDS } from './specs/index.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../log/logger.js';
import { useLogger } from '../log/current-logger.js';

/** A yargs command over a spec; the outcome of its `run` goes to `settle`. */
function toYargs(spec: CommandSpec<never>, context: CommandContext, settle: (o: CommandOutcome) => void): CommandModule {
  return {
    command: spec.command,
    describe: spec.describe,
    builder: (y: Argv) => {
      let built = spec.builder(y);
      for (const sub of spec.subcommands ?? []) built = built.command(toYargs(sub, context, settle));
      return built;
    },
    handler: async (args) => {
      if (spec.run) settle(await spec.run(args as never, context));
    },
  };
}

/**
 * The CLI's parser over `args` (without `node` and the script). Parsing and
 * running resolve to the outcome of the command that ran; a wrong option
 * rejects with a usage error (`usage: true`) or the option's HarnessError.
 */
export function buildParser(args: readonly string[], context: CommandContext): { run(): Promise<CommandOutcome> } {
  let outcome: CommandOutcome = { kind: 'done' };
  const settle = (o: CommandOutcome): void => {
    outcome = o;
  };
  let cli = yargs([...args])
    .scriptName('svc-harness')
    .strict()
    .demandCommand(1, 'name a command; see --help')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .option('log-level', { choices: LOG_LEVELS, default: 'warn' as LogLevel, global: true, describe: 'diagnostic logs on stderr from this level up' })
    .option('log-format', { choices: ['json', 'pretty'] as const, global: true, describe: 'json (default off a terminal) or pretty (default on one)' })
    .middleware((argv) => {
      const format = argv['log-format'] ?? (process.stderr.isTTY ? 'pretty' : 'json');
      useLogger(createLogger({ level: argv['log-level'], format }));
    })
    .fail((msg, err) => {
      // yargs rewraps what a `coerce` threw as a YError that keeps only the message: our option parsers throw E_USAGE.
      if (err?.name === 'YError') throw new HarnessError('E_USAGE', err.message, { cause: err });
      if (err) throw err;
      throw Object.assign(new Error(msg), { usage: true });
    });
  for (const spec of COMMANDS) cli = cli.command(toYargs(spec, context, settle));
  return {
    async run() {
      await cli.parseAsync();
      return outcome;
    },
  };
}
