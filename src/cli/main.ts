#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { reportFatal } from './fatal.js';
import { COMMANDS } from './commands/index.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../log/logger.js';
import { useLogger } from '../log/current-logger.js';

/** The one place the program exits on an error: prints one line (a stack only for bugs) and sets the exit code. */
async function main(argv: string[]): Promise<void> {
  let cli = yargs(hideBin(argv))
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
      if (err) throw err;
      throw Object.assign(new Error(msg), { usage: true });
    });
  for (const command of COMMANDS) cli = cli.command(command);
  await cli.parseAsync();
}

main(process.argv).catch((err: unknown) => {
  process.exitCode = reportFatal(err);
});
