import { defineCommand } from '../command-spec.js';
import type { SelftestCommandOptions } from '../commands/selftest.js';
import { integer, nonEmptyCommaList } from '../options.js';

/** `svc-harness selftest`: proves every check can fail, against the mock with each defect on, and raises no false alarm on the clean mock. */
export const selftestCommand = defineCommand<SelftestCommandOptions>({
  command: 'selftest',
  describe:
    'run the checks expected to catch each defect against the embedded mock with it, and the whole suite on the clean mock; score caught defects and false alarms',
  builder: (y) =>
    y
      .option('only-defects', {
        type: 'string',
        coerce: nonEmptyCommaList('only-defects', 'defect names'),
        describe: 'comma list of defects to try (default: every defect)',
      })
      .option('whole', {
        type: 'boolean',
        default: false,
        describe:
          "run the whole suite for each defect, with every collateral failure (default: only the cases that can catch it: AU-01 and the defect's expected checks)",
      })
      .option('repeat-clean', { type: 'number', default: 1, coerce: integer('repeat-clean', 0), describe: 'clean runs (no defect) to look for false alarms' })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'where reports/<run id>/selftest.* and reports/latest are written' })
      .option('concurrency', { type: 'number', default: 4, coerce: integer('concurrency', 1), describe: 'suite runs at once, each against its own mock' })
      .option('seed', { type: 'number', coerce: integer('seed', 0), describe: 'seed of every run (default: a fresh one per run)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout instead of the table' })
      .option('table', { type: 'boolean', default: false, describe: 'print the defect table (defect, promise, catching checks) in markdown and exit' }),
  run: async (args) => (await import('../commands/selftest.js')).selftestCommand(args),
});
