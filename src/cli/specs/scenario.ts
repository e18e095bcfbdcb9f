import { defineCommand } from '../command-spec.js';
import type { ScenarioCommandOptions } from '../commands/scenario.js';
import { integer, seconds } from '../options.js';

/** `svc-harness scenario <file…>`: runs scripted scenarios alone (the shipped ones by default). */
export const scenarioCommand = defineCommand<ScenarioCommandOptions>({
  command: 'scenario [files..]',
  describe: 'run scenario files (YAML, see scenarios/README.md) against a target (the embedded mock by default)',
  builder: (y) =>
    y
      .positional('files', { type: 'string', array: true, describe: 'scenario files; the shipped scenarios when none' })
      .option('target', { type: 'string', describe: 'target profile (YAML or JSON); without it the embedded mock is started' })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'where reports/<run id>/ and reports/latest are written' })
      .option('seed', { type: 'number', coerce: integer('seed', 0), describe: 'seed of the run' })
      .option('max-wait', {
        type: 'number',
        coerce: seconds('max-wait', { atLeast: 0 }),
        describe: 'longest single wait in real time, in seconds: a scenario that would wait longer is a SKIP; none with clock control (default 120)',
      })
      .option('known-issues', {
        type: 'string',
        describe: 'YAML list of {id, reason, until}: failures of these cases are KNOWN until the date and fail nothing (see docs/reports.md)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout instead of progress lines' }),
  run: async (args) => (await import('../commands/scenario.js')).scenarioCommand(args),
});
