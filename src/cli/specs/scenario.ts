import type { CommandModule } from 'yargs';
import type { ScenarioCommandOptions } from '../../scenario/scenario-command.js';

/** `svc-harness scenario <file…>`: runs scripted scenarios alone (the shipped ones by default). */
export const scenarioCommand: CommandModule<object, ScenarioCommandOptions> = {
  command: 'scenario [files..]',
  describe: 'run scenario files (YAML, see scenarios/README.md) against a target (the embedded mock by default)',
  builder: (y) =>
    y
      .positional('files', { type: 'string', array: true, describe: 'scenario files; the shipped scenarios when none' })
      .option('target', { type: 'string', describe: 'target profile (YAML or JSON); without it the embedded mock is started' })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'where reports/<run id>/ and reports/latest are written' })
      .option('seed', { type: 'number', describe: 'seed of the run' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout instead of progress lines' }),
  handler: async (args) => {
    const { scenarioCommandMain } = await import('../../scenario/scenario-command.js');
    process.exitCode = await scenarioCommandMain(args);
  },
};
