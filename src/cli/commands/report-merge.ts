import type { ReportMergeArgs } from '../cli/commands/report.js';
import { writeReports } from '../report/write-reports.js';
import { evaluateLoadGates } from './load-metrics.js';
import { mergeLoadResults } from './merge-load-results.js';
import { readLoadReport, readThresholds } from './load-command.js';
import { loadExitCode, toRunResult } from './load-run-result.js';

/** `svc-harness report merge`: merges sharded load results exactly, re-evaluates gates, writes the reports; returns the exit code. */
export async function reportMergeMain(args: ReportMergeArgs): Promise<number> {
  const parts = [];
  for (const f of args.files) parts.push(await readLoadReport(f));
  const merged = mergeLoadResults(parts);
  merged.gates = evaluateLoadGates(merged, await readThresholds(args.threshold, args.thresholds));
  const started = new Date(merged.startedAt);
  const result = toRunResult(merged, {
    command: `svc-harness ${process.argv.slice(2).join(' ')}`,
    profile: { name: 'merged', base_url: '' },
    embedded: false,
    startedIso: started.toISOString(),
    durationMs: Math.round(merged.finishedAt - merged.startedAt),
  });
  result.notes.unshift(`merged from ${args.files.length} load report(s): ${args.files.join(', ')}`);
  const written = await writeReports(result, args.out ?? 'reports');
  const code = loadExitCode(result);
  if (args.json) process.stdout.write(`${JSON.stringify({ runId: result.runId, verdict: result.verdict, exitCode: code, dir: written.dir, rps: merged.rps, totals: merged.totals })}\n`);
  else process.stderr.write(`merged ${args.files.length} load result(s): ${merged.totals.requests} requests, ${merged.rps.toFixed(0)} rps; reports: ${written.dir}\n`);
  return code;
}
