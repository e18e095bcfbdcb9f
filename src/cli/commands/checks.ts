import type { CommandModule } from 'yargs';

/** Arguments of `svc-harness checks`. */
export interface ChecksCommandArgs {
  only?: string | undefined;
  markdown: boolean;
}

/** `svc-harness checks`: lists the checks of the suite with the SPEC clause each proves. */
export const checksCommand: CommandModule<object, ChecksCommandArgs> = {
  command: 'checks',
  describe: 'list the compliance checks: id, area, what each needs, title and the SPEC clause it proves',
  builder: (y) =>
    y
      .option('only', { type: 'string', describe: 'comma list of check ids and/or areas' })
      .option('markdown', { type: 'boolean', default: false, describe: 'print a Markdown table' }),
  handler: async (args) => {
    const { listChecks } = await import('../../checks/list-checks.js');
    process.stdout.write(listChecks(args));
  },
};
