import { parseRegressionLimits } from '../../load/gate/regression-limits.js';
import { HarnessError } from '../../errors/harness-error.js';
import { defineCommand } from '../command-spec.js';
import type { LoadCommandArgs } from '../commands/load.js';
import { commaList, integer, livePort, outTargets, seconds, shard } from '../options.js';
import { DEFAULT_LIVE_PORT } from '../../outputs/live/live-port.js';

/** `--mock-defects` (or its old name `--defects`) breaks the embedded mock only. */
function checkLoadArgs(args: { 'mock-defects'?: string[] | undefined; defects?: string[] | undefined; target?: string | undefined }): true {
  if ((args['mock-defects']?.length ?? 0) + (args.defects?.length ?? 0) > 0 && args.target !== undefined) {
    throw new HarnessError(
      'E_USAGE',
      '--mock-defects applies to the embedded mock only; start a mock with `svc-harness mock --defects …` to break another target',
    );
  }
  return true;
}

/** `svc-harness load`: replays scenarios as load for many agencies, judges limits and wallets under load, gates on performance. */
export const loadCommand = defineCommand<LoadCommandArgs>({
  command: 'load',
  describe: 'replay scenarios as load for many agencies (embedded mock by default); verdicts, figures and gates (exit 99 on a failed gate)',
  builder: (y) =>
    y
      .option('target', { type: 'string', describe: 'target profile (YAML or JSON); without it the embedded mock is started' })
      .option('agencies', {
        type: 'number',
        default: 5,
        coerce: integer('agencies', 1, 10_000),
        describe: 'agencies generated in the embedded mock (agency-load-001, …)',
      })
      .option('read-limit', {
        type: 'number',
        coerce: integer('read-limit', 1, 1_000_000),
        describe: 'read limit per window of the generated agencies (default 600)',
      })
      .option('write-limit', {
        type: 'number',
        coerce: integer('write-limit', 1, 1_000_000),
        describe: 'write limit per window of the generated agencies (default 60)',
      })
      .option('mock-defects', { type: 'string', coerce: commaList, describe: 'embedded mock only: defects to switch on (comma list), as for run' })
      // The old name, kept working for scripts that use it; the command warns.
      .option('defects', { type: 'string', coerce: commaList, hidden: true, deprecated: 'use --mock-defects' })
      .check(checkLoadArgs)
      .option('duration', { type: 'number', default: 10, coerce: seconds('duration', { above: 0, max: 86_400 }), describe: 'seconds of load (real time)' })
      .option('graceful-stop', {
        type: 'number',
        default: 5,
        // Past the per-request timeout (10 s) a request is a timeout anyway: a longer grace would wait for nothing.
        coerce: seconds('graceful-stop', { atLeast: 0, max: 10 }),
        describe:
          'seconds (0 to 10) the requests in flight when the duration ends get to finish; those still unanswered are counted as cut off at the stop, never as errors',
      })
      .option('requests', { type: 'number', coerce: integer('requests', 1, 1_000_000_000), describe: 'stop after this many autocannon responses' })
      .option('connections', {
        type: 'number',
        coerce: integer('connections', 0, 10_000),
        describe: 'autocannon connections, one agency each in turn (default: max(10, agencies); 0 = none)',
      })
      .option('scenario', { type: 'string', array: true, describe: 'scenario file to replay (repeatable); default every scenario in scenarios/' })
      .option('scenarios-dir', { type: 'string', describe: 'folder of scenarios to replay' })
      .option('search', { type: 'string', describe: 'send only signed searches of this product (the fast template path) instead of scenarios' })
      .option('push-limits', {
        type: 'boolean',
        default: false,
        describe: 'also drive every agency past its read and write limits at planned instants (open model)',
      })
      .option('shard', { type: 'string', coerce: shard, describe: 'i/N: take agency k when k mod N = i − 1 (merge with `report merge`)' })
      .option('threshold', { type: 'string', array: true, describe: 'gate, e.g. search.p95<200ms, errors.rate<0.01, rps>=500 (repeatable)' })
      .option('thresholds', { type: 'string', describe: 'file of gates, one per line (# comments)' })
      .option('baseline', { type: 'string', describe: 'report.json of an earlier load run to compare with' })
      .option('max-regression', {
        type: 'string',
        array: true,
        default: ['10%'],
        coerce: parseRegressionLimits,
        describe:
          'how much worse than the baseline a metric may get, as for report compare: latency=10%,rps=10% (relative), errors=1%,429=5% (percentage points), or one value for latency and rps; a regression must also lie outside the noise of both runs',
      })
      .option('known-issues', {
        type: 'string',
        describe: 'YAML list of {id, reason, until}: failures of these verdicts and gates are KNOWN until the date and fail nothing (see docs/reports.md)',
      })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'where reports/<run id>/ and reports/latest are written' })
      .option('out', {
        type: 'string',
        array: true,
        coerce: outTargets,
        describe: 'push the figures while the load runs (repeatable): prometheus-rw=URL (remote write) or otlp=URL (OTLP/HTTP metrics); see docs/metrics.md',
      })
      .option('dashboard', {
        type: 'string',
        coerce: livePort(DEFAULT_LIVE_PORT),
        describe: `serve a live page of the load, updated every second, on this port (${DEFAULT_LIVE_PORT} when none is named; 0 = a free port)`,
      })
      .option('dashboard-host', { type: 'string', default: '127.0.0.1', describe: 'interface the live page binds to' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout' }),
  run: async (args, context) => (await import('../commands/load.js')).loadCommand(args, context),
  stopsOnSignals: true,
});
