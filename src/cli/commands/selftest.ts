import { commandLine } from '../command-line.js';
import { renderDefectTable } from '../../selftest/defect-table.js';
import { renderSelftestText } from '../../selftest/render-selftest-text.js';
import { runSelftest } from '../../selftest/run-selftest.js';
import { writeSelftestReports } from '../../selftest/write-selftest-reports.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Options of `svc-harness selftest`, as the shared option parsers leave them. */
export interface SelftestCommandOptions {
  'only-defects'?: string[];
  'repeat-clean'?: number;
  'report-dir'?: string;
  concurrency?: number;
  seed?: number;
  whole?: boolean;
  json?: boolean;
  table?: boolean;
}

/**
 * `svc-harness selftest`: runs the suite against the mock once per defect
 * (focused on the cases that can catch it, or whole with `--whole`) and, whole,
 * on the clean mock, prints the table and the score, writes the reports.
 * Passed when every defect is caught and no false alarm occurred.
 */
export async function selftestCommand(
  args: SelftestCommandOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<CommandOutcome> {
  if (args.table) {
    out(renderDefectTable().trimEnd());
    return { kind: 'done' };
  }
  const defects = args['only-defects'];
  const result = await runSelftest({
    ...(defects ? { defects } : {}),
    ...(args['repeat-clean'] !== undefined ? { repeatClean: args['repeat-clean'] } : {}),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    mode: args.whole ? 'whole' : 'focused',
    command: commandLine(),
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
        mode: result.mode,
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
  return { kind: 'verdict', passed: result.verdict === 'PASS' };
}
