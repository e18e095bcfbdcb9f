import { durationText } from '../../log/duration-text.js';
import { commandLine } from '../command-line.js';
import { createHarness } from '../../harness.js';
import { writeReports } from '../../report/write-reports.js';
import { progressPrinter } from '../../runner/progress-printer.js';
import { loadScenarios, runScenarios } from '../../scenario/index.js';
import { terminalSafe } from '../../log/terminal-safe.js';
import { verdictOutcome, type CommandOutcome } from '../exit-codes.js';
import { readKnownIssues } from '../../known/read-known-issues.js';
import { applyKnownIssues, knownListener, utcDay } from '../../known/apply-known-issues.js';
import { readKnownHistory } from '../read-known-history.js';
import { knownIssueLines } from '../known-issue-lines.js';

/** Options of `svc-harness scenario`, as the shared option parsers leave them. */
export interface ScenarioCommandOptions {
  files?: string[];
  target?: string;
  'report-dir'?: string;
  seed?: number;
  /** Longest single wait in real time, s. */
  'max-wait'?: number;
  /** YAML list of failures known and excused until a date. */
  'known-issues'?: string;
  json?: boolean;
}

/**
 * `svc-harness scenario <file…>`: runs scenarios alone (the shipped ones when
 * no file is named) against a target profile or the embedded mock, writes the
 * reports; passed when every scenario passed.
 */
export async function scenarioCommand(
  args: ScenarioCommandOptions,
  print: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<CommandOutcome> {
  // Notes and verdict lines quote the target: nothing it sent may drive the terminal.
  const out = (line: string): void => print(terminalSafe(line));
  const files = args.files ?? [];
  // Invalid files are a usage error before anything starts (judged again against the target's profile).
  await loadScenarios({ files });
  const known = args['known-issues'] !== undefined ? await readKnownIssues(args['known-issues'], files) : [];
  const history =
    known.length > 0
      ? await readKnownHistory(
          args['report-dir'] ?? 'reports',
          known.map((i) => i.id),
        )
      : undefined;
  const today = utcDay();
  const harness = createHarness({
    ...(args.target !== undefined ? { targetFile: args.target } : {}),
    parts: { scenarios: (ctx) => runScenarios(ctx, { files }) },
  });
  try {
    const target = await harness.prepare();
    if (!args.json)
      out(target.embedded ? `Target: embedded mock at ${target.profile.base_url}` : `Target: ${target.profile.name} at ${target.profile.base_url}`);
    const ran = await harness.run({
      only: 'scenarios',
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(args['max-wait'] !== undefined ? { maxWaitS: args['max-wait'] } : {}),
      command: commandLine(),
      ...(args.json ? {} : { onEvent: knownListener(progressPrinter(out), known, today, history) }),
    });
    const result = applyKnownIssues(ran, known, today, history);
    const written = await writeReports(result, args['report-dir'] ?? 'reports');
    const s = result.summary;
    if (args.json) {
      out(
        JSON.stringify({
          run_id: result.runId,
          verdict: result.verdict,
          summary: s,
          report_dir: written.dir,
          cases: result.cases.map((c) => ({ id: c.id, verdict: c.verdict, message: c.message, ...(c.known ? { known: c.known } : {}) })),
        }),
      );
    } else {
      for (const line of knownIssueLines(result.cases)) out(line);
      out(
        `${result.verdict}: ${s.PASS} passed, ${s.FAIL} failed, ${s.ERROR} errors, ${s.SKIP} skipped${s.KNOWN !== undefined ? `, ${s.KNOWN} known` : ''} of ${s.total} scenarios in ${durationText(result.durationMs)}`,
      );
      if (result.verdictReason !== undefined) out(`${result.verdict}: ${result.verdictReason}`);
      out(`Reports: ${written.dir}`);
    }
    return verdictOutcome(result.verdict);
  } finally {
    await harness.close();
  }
}
