import { defineCommand } from '../command-spec.js';
import type { ReportCompareArgs } from '../commands/report-compare.js';
import type { ReportMergeArgs } from '../commands/report-merge.js';
import type { ReportTrendArgs } from '../commands/report-trend.js';
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

/** `svc-harness report compare`: what changed between two runs of the same kind. */
const reportCompareCommand = defineCommand<ReportCompareArgs>({
  command: 'compare <base> <new>',
  describe:
    "what changed from BASE to NEW (report.json files or run folders of the same kind): cases newly failing, fixed, still failing, newly skipped, new and removed; for loads every operation's throughput, error and 429 rates and percentiles with their change. Exit 1 when something newly fails, regresses or breaks a gate; 2 when the runs cannot be compared",
  builder: (m) =>
    m
      .positional('base', { type: 'string', demandOption: true, describe: 'the earlier run: a report.json (selftest.json) or its run folder' })
      .positional('new', { type: 'string', demandOption: true, describe: 'the run to judge against it' })
      .option('out', { alias: 'o', type: 'string', describe: 'folder to write compare.html and compare.md into (default reports/compare)' })
      .option('max-regression', {
        type: 'string',
        array: true,
        describe:
          "how much worse a metric may get, per kind: latency=10%,rps=10% (relative to BASE), errors=1%,429=5% (percentage points); these are the defaults. A change is a regression only past this limit AND outside the noise: the 95% intervals of the two runs must not overlap (a percentile's from the order statistics of its exact HDR histogram, widened to the histogram's bucket; a rate's Wilson interval; a throughput's Poisson interval). The max is shown, never judged",
      })
      .option('threshold', {
        type: 'string',
        array: true,
        describe: 'gate applied to both load runs, e.g. search.p95<200ms (repeatable); held on BASE and broken on NEW counts as a regression',
      })
      .option('thresholds', { type: 'string', describe: 'file of gates, one per line' })
      .option('json', { type: 'boolean', default: false, describe: 'print the comparison as one JSON object on stdout' }),
  run: async (args) => (await import('../commands/report-compare.js')).reportCompareCommand(args),
});

/** `svc-harness report trend`: charts over many runs in time order. */
const reportTrendCommand = defineCommand<ReportTrendArgs>({
  command: 'trend <dirs..>',
  describe:
    'one self-contained page (trend.html) over runs in time order: cases passed, failed and known per area, run duration, and for loads p95 per operation and throughput',
  builder: (m) =>
    m
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'run folders, or reports folders holding them' })
      .option('last', { type: 'number', coerce: integer('last', 1), describe: 'only the N newest runs' })
      .option('out', { alias: 'o', type: 'string', describe: 'folder to write trend.html into (default reports)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout' }),
  run: async (args) => (await import('../commands/report-trend.js')).reportTrendCommand(args),
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
  describe:
    'work on written reports: `report merge a.json b.json … [-o DIR]` merges sharded load results exactly; `report compare BASE NEW` says what changed; `report trend DIR…` charts runs over time; `report prune --keep N` removes old runs',
  builder: (y) => y.demandCommand(1, 'name a report action: merge, compare, trend or prune'),
  subcommands: [reportMergeCommand, reportCompareCommand, reportTrendCommand, reportPruneCommand],
});
