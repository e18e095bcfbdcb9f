import { defineCommand } from '../command-spec.js';
import { HarnessError } from '../../errors/harness-error.js';
import type { RunCommandOptions } from '../commands/run.js';
import { commaList, httpUrl, integer, outTargets, port, seconds } from '../options.js';

/** `--mock-defects` breaks the embedded mock only. */
function checkRunArgs(args: { 'mock-defects'?: string[] | undefined; target?: string | undefined }): true {
  if ((args['mock-defects']?.length ?? 0) > 0 && args.target !== undefined) {
    throw new HarnessError(
      'E_USAGE',
      '--mock-defects applies to the embedded mock only; start a mock with `svc-harness mock --defects …` to break another target',
    );
  }
  return true;
}

/** `svc-harness run`: runs the compliance suite against a target profile, or against the embedded mock. */
export const runCommand = defineCommand<RunCommandOptions>({
  command: 'run',
  describe: 'run the compliance checks, scenarios and properties against a target (the embedded mock by default)',
  builder: (y) =>
    y
      .option('target', { type: 'string', describe: 'target profile (YAML or JSON); without it the embedded mock is started' })
      .option('only', { type: 'string', describe: 'comma list of check ids, areas, scenario:<name> and property:<name> (e.g. RL-01,auth,property:quote-lock)' })
      .option('report-dir', { type: 'string', default: 'reports', describe: 'where reports/<run id>/ and reports/latest are written' })
      .option('seed', { type: 'number', coerce: integer('seed', 0), describe: 'seed for everything random (properties replay with it)' })
      .option('receiver-host', { type: 'string', describe: 'interface the webhook receiver binds to' })
      .option('receiver-port', { type: 'number', coerce: port('receiver-port'), describe: 'port of the webhook receiver (0 = a free port)' })
      .option('receiver-url', {
        type: 'string',
        coerce: httpUrl('receiver-url'),
        describe: 'URL the target reaches the webhook receiver at (a tunnel, a container)',
      })
      .option('mock-defects', {
        type: 'string',
        coerce: commaList,
        describe: 'embedded mock only: defects to switch on (comma list; see svc-harness mock --help and docs/selftest.md), to watch the suite catch them',
      })
      .option('known-issues', {
        type: 'string',
        describe: 'YAML list of {id, reason, until}: failures of these cases are KNOWN until the date and fail nothing (see docs/reports.md)',
      })
      .option('property-path', { type: 'string', describe: 'replay a property counterexample: the fast-check path a failed property printed' })
      .option('fuzz-runs', {
        type: 'number',
        coerce: integer('fuzz-runs', 1, 100_000),
        describe: 'runs of property:openapi-inputs (the inputs generated from the OpenAPI document; default 1): deeper fuzzing, its seed printed first',
      })
      .option('max-wait', {
        type: 'number',
        coerce: seconds('max-wait', { atLeast: 0 }),
        describe:
          'longest single wait in real time, in seconds: a check, scenario or property that would wait longer (a quote lifetime) is a SKIP, left out of the estimate; none with clock control (default 120)',
      })
      .option('property-replay-path', { type: 'string', describe: 'with --property-path: the shrunk command list a failed model-based property printed' })
      .option('out', {
        type: 'string',
        array: true,
        coerce: outTargets,
        describe: 'push verdict counts and duration while the suite runs (repeatable): prometheus-rw=URL or otlp=URL; see docs/metrics.md',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON summary on stdout instead of progress lines' })
      .check(checkRunArgs),
  run: async (args, context) => (await import('../commands/run.js')).runCommand(args, context),
  stopsOnSignals: true,
});
