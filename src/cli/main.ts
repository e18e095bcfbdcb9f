#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { reportFatal } from './fatal.js';
import { COMMANDS } from './commands/index.js';

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
