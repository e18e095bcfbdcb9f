import { defineCommand } from '../command-spec.js';
import type { ChecksCommandArgs } from '../commands/checks.js';

/** `svc-harness checks`: lists the checks of the suite with the SPEC clause each proves. */
export const checksCommand = defineCommand<ChecksCommandArgs>({
  command: 'checks',
  describe: 'list the compliance checks: id, area, what each needs, title and the SPEC clause it proves',
  builder: (y) =>
    y
      .option('only', { type: 'string', describe: 'comma list of check ids and/or areas' })
      .option('markdown', { type: 'boolean', default: false, describe: 'print a Markdown table' }),
  run: async (args) => (await import('../commands/checks.js')).checksCommand(args),
});
