import { defineCommand } from '../command-spec.js';
import type { ReportMergeArgs } from '../commands/report-merge.js';

/** `svc-harness report merge`: merges the load results of several processes exactly. */
const reportMergeCommand = defineCommand<ReportMergeArgs>({
  command: 'merge <files..>',
  describe: 'merge the report.json files of sharded load runs (histograms added, counts summed, verdicts unioned)',
  builder: (m) =>
    m
      .positional('files', { type: 'string', array: true, demandOption: true, describe: 'report.json files of load runs' })
      .option('out', { alias: 'o', type: 'string', describe: 'reports folder to write the merged run into (default reports)' })
      .option('threshold', { type: 'string', array: true, describe: 'gates evaluated on the merged figures (repeatable)' })
      .option('thresholds', { type: 'string', describe: 'file of gates' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout' }),
  run: async (args) => (await import('../commands/report-merge.js')).reportMergeCommand(args),
});

/** `svc-harness report`: works on written reports (`merge` adds load results of several processes exactly). */
export const reportCommand = defineCommand<object>({
  command: 'report',
  describe: 'work on written reports: `report merge a.json b.json … [-o DIR]` merges sharded load results exactly',
  builder: (y) => y.demandCommand(1, 'name a report action: merge'),
  subcommands: [reportMergeCommand],
});
