import yargs, { type Argv, type CommandModule } from 'yargs';
import { HarnessError } from '../errors/harness-error.js';
import type { CommandContext, CommandSpec } from './command-spec.js';
import type { CommandOutcome } from './exit-codes.js';
import { COMMANDS } from './specs/index.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../log/logger.js';
import { useLogger } from '../log/current-logger.js';
import { knownSecretsRedactor } from '../profile/known-secrets.js';

/** A yargs command over a spec; the outcome of its `run` goes to `settle`. */
function toYargs(spec: CommandSpec<never>, context: CommandContext, settle: (o: CommandOutcome) => void, dryRun: boolean): CommandModule {
  return {
    command: spec.command,
    describe: spec.describe,
    builder: (y: Argv) => {
      let built = spec.builder(y);
      for (const sub of spec.subcommands ?? []) built = built.command(toYargs(sub, context, settle, dryRun));
      return built;
    },
    handler: async (args) => {
      if (!spec.run || dryRun) return;
      context.commandStarting?.(spec.stopsOnSignals === true);
      settle(await spec.run(args as never, context));
    },
  };
}

/**
 * The CLI's parser over `args` (without `node` and the script). Parsing and
 * running resolve to the outcome of the command that ran; a wrong option
 * rejects with a usage error (`usage: true`) or the option's HarnessError.
 * With `dryRun`, every option is parsed and checked exactly as for a run,
 * but no command runs (for checking command lines in recipes and docs).
 */
export function buildParser(args: readonly string[], context: CommandContext, options: { dryRun?: boolean } = {}): { run(): Promise<CommandOutcome> } {
  const dryRun = options.dryRun === true;
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
      useLogger(createLogger({ level: argv['log-level'], format, redactLine: (line) => knownSecretsRedactor()(line) }));
    })
    .fail((msg, err) => {
      // yargs rewraps what a `coerce` threw as a YError that keeps only the message: our option parsers throw E_USAGE.
      if (err?.name === 'YError') throw new HarnessError('E_USAGE', err.message, { cause: err });
      if (err) throw err;
      throw Object.assign(new Error(msg), { usage: true });
    });
  if (dryRun) cli = cli.exitProcess(false);
  for (const spec of COMMANDS) cli = cli.command(toYargs(spec, context, settle, dryRun));
  return {
    async run() {
      await cli.parseAsync();
      return outcome;
    },
  };
}

/**
 * Resolves when the CLI accepts `args` (options, values and their checks), rejects with
 * the usage error it would print otherwise. Nothing runs: recipes in docs and examples are checked with it.
 */
export async function checkCommandLine(args: readonly string[]): Promise<void> {
  const context: CommandContext = {
    quit() {
      throw new HarnessError('E_INTERNAL', 'a command line being checked does not run');
    },
  };
  await buildParser(args, context, { dryRun: true }).run();
}
