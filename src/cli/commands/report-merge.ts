import { commandLine } from '../command-line.js';
import { evaluateLoadGates } from '../../load/gate/load-metrics.js';
import { toRunResult } from '../../load/load-run-result.js';
import { mergeLoadResults } from '../../load/merge/merge-load-results.js';
import { assertMergeable } from '../../load/merge/merge-set.js';
import { readLoadPart, readThresholds } from '../../load/merge/read-load-inputs.js';
import { writeReports } from '../../report/write-reports.js';
import { exitCodeOf, loadOutcome, type CommandOutcome } from '../exit-codes.js';
import { gatesJson, totalsJson } from '../json-output.js';
import { loadResultLines } from '../load-summary.js';

/** Arguments of `svc-harness report merge`. */
export interface ReportMergeArgs {
  files: string[];
  out?: string;
  threshold?: string[];
  thresholds?: string;
  json: boolean;
}

/** `svc-harness report merge`: merges sharded load results exactly, re-evaluates gates, writes the reports. */
export async function reportMergeCommand(args: ReportMergeArgs): Promise<CommandOutcome> {
  const thresholds = await readThresholds(args.threshold, args.thresholds);
  const parts = [];
  for (const f of args.files) parts.push(await readLoadPart(f));
  assertMergeable(parts);
  const merged = mergeLoadResults(parts.map((p) => p.load));
  merged.gates = evaluateLoadGates(merged, thresholds);
  const started = new Date(merged.startedAt);
  const result = toRunResult(merged, {
    command: commandLine(),
    // The target the shards ran against; results of older versions did not say it.
    profile: { name: merged.target?.name ?? 'unknown target (older load results)', base_url: merged.target?.baseUrl ?? '' },
    embedded: false,
    startedIso: started.toISOString(),
    durationMs: Math.round(merged.finishedAt - merged.startedAt),
  });
  result.notes.unshift(`merged from ${args.files.length} load report(s): ${args.files.join(', ')}`);
  const written = await writeReports(result, args.out ?? 'reports');
  const outcome = loadOutcome(result);
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ run_id: result.runId, verdict: result.verdict, exit_code: exitCodeOf(outcome), report_dir: written.dir, files: written.files, rps: merged.rps, shards: merged.shards, totals: totalsJson(merged.totals), summary: result.summary, gates: gatesJson(merged.gates) })}\n`,
    );
  } else process.stdout.write(`merged ${args.files.length} load result(s)\n${loadResultLines(result, outcome, written.dir).join('\n')}\n`);
  return outcome;
}
