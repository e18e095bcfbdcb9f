import { defineCommand } from '../command-spec.js';
import type { ReportMergeArgs } from '../commands/report-merge.js';
import type { ReportPruneArgs } from '../commands/report-prune.js';
import { integer } from '../options.js';

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

/** `svc-harness report prune`: removes old run folders the harness wrote. */
const reportPruneCommand = defineCommand<ReportPruneArgs>({
  command: 'prune',
  describe: 'remove the run folders the harness wrote beyond the N newest (the one latest points at is kept; nothing else is touched)',
  builder: (m) =>
    m
      .option('keep', { type: 'number', demandOption: true, coerce: integer('keep', 1), describe: 'how many of the newest run folders to keep' })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'the reports folder to prune' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout' }),
  run: async (args) => (await import('../commands/report-prune.js')).reportPruneCommand(args),
});

/** `svc-harness report`: works on written reports (`merge` adds load results of several processes exactly). */
export const reportCommand = defineCommand<object>({
  command: 'report',
  describe: 'work on written reports: `report merge a.json b.json … [-o DIR]` merges sharded load results exactly; `report prune --keep N` removes old runs',
  builder: (y) => y.demandCommand(1, 'name a report action: merge or prune'),
  subcommands: [reportMergeCommand, reportPruneCommand],
});
