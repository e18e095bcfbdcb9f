import { HarnessError } from '../errors/harness-error.js';
import { renderDefectTable } from './defect-table.js';
import { renderSelftestText } from './render-selftest-text.js';
import { runSelftest } from './run-selftest.js';
import { writeSelftestReports } from './write-selftest-reports.js';

/** Options of `svc-harness selftest`, as yargs parses them. */
export interface SelftestCommandOptions {
  'only-defects'?: string | undefined;
  'repeat-clean'?: number | undefined;
  'report-dir'?: string | undefined;
  concurrency?: number | undefined;
  seed?: number | undefined;
  json?: boolean | undefined;
  table?: boolean | undefined;
}

function positiveInt(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) throw new HarnessError('E_USAGE', `--${name} must be an integer ≥ ${min}, got ${String(v)}`);
}

/**
 * `svc-harness selftest`: runs the suite against the mock once per defect and
 * on the clean mock, prints the table and the score, writes the reports.
 * Returns the exit code: 0 when every defect is caught and no false alarm
 * occurred, 1 otherwise.
 */
export async function selftestCommandMain(args: SelftestCommandOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  if (args.table) {
    out(renderDefectTable().trimEnd());
    return 0;
  }
  positiveInt('repeat-clean', args['repeat-clean'], 0);
  positiveInt('concurrency', args.concurrency, 1);
  positiveInt('seed', args.seed, 0);
  const defects = args['only-defects']
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (args['only-defects'] !== undefined && (defects?.length ?? 0) === 0) throw new HarnessError('E_USAGE', '--only-defects needs a comma list of defect names');
  const result = await runSelftest({
    ...(defects ? { defects } : {}),
    ...(args['repeat-clean'] !== undefined ? { repeatClean: args['repeat-clean'] } : {}),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    command: ['svc-harness', ...process.argv.slice(2)].join(' '),
    ...(args.json
      ? {}
      : {
          onProgress: (e) => {
            const what =
              e.type === 'clean'
                ? `clean run ${e.outcome.index + 1}: ${e.outcome.falseAlarms.length} false alarm(s)`
                : `${e.outcome.defect}: ${e.outcome.caught ? `caught by ${e.outcome.caughtBy.join(',')}` : 'ESCAPED'}`;
            out(`[${e.done}/${e.total}] ${what} (${(e.outcome.durationMs / 1000).toFixed(1)} s)`);
          },
        }),
  });
  const written = await writeSelftestReports(result, args['report-dir'] ?? 'reports');
  if (args.json) {
    out(
      JSON.stringify({
        run_id: result.runId,
        verdict: result.verdict,
        score: result.score,
        false_alarm_runs: result.falseAlarmRuns,
        clean_runs: result.clean.length,
        duration_ms: result.durationMs,
        escaped: result.defects.filter((d) => !d.caught).map((d) => d.defect),
        false_alarms: result.clean.flatMap((c) => c.falseAlarms.map((f) => ({ run: c.index + 1, id: f.id, message: f.message }))),
        unexplained_checks: result.unexplainedChecks,
        report_dir: written.dir,
        files: written.files,
      }),
    );
  } else {
    out(renderSelftestText(result).trimEnd());
    out(`Reports: ${written.dir}`);
  }
  return result.verdict === 'PASS' ? 0 : 1;
}
