import { createHarness } from '../harness.js';
import { HarnessError } from '../errors/harness-error.js';
import { writeReports } from '../report/write-reports.js';
import { progressPrinter } from '../runner/progress-printer.js';
import { formatMs } from '../runner/run-suite.js';
import { loadScenarios } from './load-scenario.js';
import { runScenarios } from './run-scenarios.js';

/** Options of `svc-harness scenario`, as yargs parses them. */
export interface ScenarioCommandOptions {
  files?: string[] | undefined;
  target?: string | undefined;
  'report-dir'?: string | undefined;
  seed?: number | undefined;
  json?: boolean | undefined;
}

/**
 * `svc-harness scenario <file…>`: runs scenarios alone (the shipped ones when
 * no file is named) against a target profile or the embedded mock, writes the
 * reports and returns the exit code (0 all passed, 1 any failed).
 */
export async function scenarioCommandMain(args: ScenarioCommandOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  if (args.seed !== undefined && (!Number.isSafeInteger(args.seed) || args.seed < 0)) throw new HarnessError('E_USAGE', `--seed must be an integer ≥ 0, got ${String(args.seed)}`);
  const files = args.files ?? [];
  // Invalid files are a usage error before anything starts (judged again against the target's profile).
  await loadScenarios({ files });
  const harness = createHarness({
    ...(args.target !== undefined ? { targetFile: args.target } : {}),
    parts: { scenarios: (ctx) => runScenarios(ctx, { files }) },
  });
  try {
    const target = await harness.prepare();
    if (!args.json) out(target.embedded ? `Target: embedded mock at ${target.profile.base_url}` : `Target: ${target.profile.name} at ${target.profile.base_url}`);
    const result = await harness.run({
      only: 'scenarios',
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      command: ['svc-harness', ...process.argv.slice(2)].join(' '),
      ...(args.json ? {} : { onEvent: progressPrinter(out) }),
    });
    const written = await writeReports(result, args['report-dir'] ?? 'reports');
    const s = result.summary;
    if (args.json) {
      out(JSON.stringify({ run_id: result.runId, verdict: result.verdict, summary: s, report_dir: written.dir, cases: result.cases.map((c) => ({ id: c.id, verdict: c.verdict, message: c.message })) }));
    } else {
      out(`${result.verdict}: ${s.PASS} passed, ${s.FAIL} failed, ${s.ERROR} errors, ${s.SKIP} skipped of ${s.total} scenarios in ${formatMs(result.durationMs)}`);
      out(`Reports: ${written.dir}`);
    }
    return result.verdict === 'PASS' ? 0 : 1;
  } finally {
    await harness.close();
  }
}
