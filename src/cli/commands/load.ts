import type { CommandModule } from 'yargs';

/** Arguments of `svc-harness load`. */
export interface LoadCommandArgs {
  target?: string | undefined;
  agencies: number;
  'read-limit'?: number | undefined;
  'write-limit'?: number | undefined;
  defects?: string | undefined;
  duration: number;
  requests?: number | undefined;
  connections?: number | undefined;
  scenario?: string[] | undefined;
  'scenarios-dir'?: string | undefined;
  search?: string | undefined;
  'push-limits': boolean;
  shard?: string | undefined;
  threshold?: string[] | undefined;
  thresholds?: string | undefined;
  baseline?: string | undefined;
  'max-regression': string;
  'report-dir': string;
  json: boolean;
}

/** `svc-harness load`: replays scenarios as load for many agencies, judges limits and wallets under load, gates on performance. */
export const loadCommand: CommandModule<object, LoadCommandArgs> = {
  command: 'load',
  describe: 'replay scenarios as load for many agencies (embedded mock by default); verdicts, figures and gates (exit 99 on a failed gate)',
  builder: (y) =>
    y
      .option('target', { type: 'string', describe: 'target profile (YAML or JSON); without it the embedded mock is started' })
      .option('agencies', { type: 'number', default: 5, describe: 'agencies generated in the embedded mock (agency-load-001, …)' })
      .option('read-limit', { type: 'number', describe: 'read limit per window of the generated agencies (default 600)' })
      .option('write-limit', { type: 'number', describe: 'write limit per window of the generated agencies (default 60)' })
      .option('defects', { type: 'string', describe: 'embedded mock: defects to switch on, comma-separated' })
      .option('duration', { type: 'number', default: 10, describe: 'seconds of load (real time)' })
      .option('requests', { type: 'number', describe: 'stop after this many autocannon responses' })
      .option('connections', { type: 'number', describe: 'autocannon connections, one agency each in turn (default: max(10, agencies); 0 = none)' })
      .option('scenario', { type: 'string', array: true, describe: 'scenario file to replay (repeatable); default every scenario in scenarios/' })
      .option('scenarios-dir', { type: 'string', describe: 'folder of scenarios to replay' })
      .option('search', { type: 'string', describe: 'send only signed searches of this product (the fast template path) instead of scenarios' })
      .option('push-limits', { type: 'boolean', default: false, describe: 'also drive every agency past its read and write limits at planned instants (open model)' })
      .option('shard', { type: 'string', describe: 'i/N: take agency k when k mod N = i − 1 (merge with `report merge`)' })
      .option('threshold', { type: 'string', array: true, describe: 'gate, e.g. search.p95<200ms, errors.rate<0.01, rps>=500 (repeatable)' })
      .option('thresholds', { type: 'string', describe: 'file of gates, one per line (# comments)' })
      .option('baseline', { type: 'string', describe: 'report.json of an earlier load run to compare with' })
      .option('max-regression', { type: 'string', default: '10%', describe: 'how much worse than the baseline a metric may get' })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'where reports/<run id>/ and reports/latest are written' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout' }),
  handler: async (args) => {
    const { loadCommandMain } = await import('../../load/load-command.js');
    process.exitCode = await loadCommandMain(args);
  },
};
