import { durationText } from '../../log/duration-text.js';
import { randomInt } from 'node:crypto';
import { commandLine } from '../command-line.js';
import { defaultRegistry } from '../../checks/index.js';
import type { Selection } from '../../checks/registry.js';
import { HarnessError } from '../../errors/harness-error.js';
import { DefectSet } from '../../mock/defects/defect-set.js';
import { createHarness } from '../../harness.js';
import { PROBE_TOO_LARGE } from '../../runner/run-on-target.js';
import { writeReports } from '../../report/write-reports.js';
import { progressPrinter } from '../../runner/progress-printer.js';
import { allOf, logEvents } from '../../runner/log-events.js';
import { logger } from '../../log/current-logger.js';
import { terminalSafe } from '../../log/terminal-safe.js';
import type { CommandContext } from '../command-spec.js';
import { verdictOutcome, type CommandOutcome } from '../exit-codes.js';
import { runProgress } from '../run-progress.js';
import { stopOnSignals } from '../stop-on-signals.js';
import { readKnownIssues } from '../../known/read-known-issues.js';
import { applyKnownIssues, knownListener, utcDay } from '../../known/apply-known-issues.js';
import { readKnownHistory } from '../read-known-history.js';
import { knownIssueLines } from '../known-issue-lines.js';
import { newRunId } from '../../results/run-id.js';
import type { OutTarget } from '../../outputs/out-target.js';
import { startWatchers } from '../run-watchers.js';

/** Options of `svc-harness run`, as the shared option parsers leave them. */
export interface RunCommandOptions {
  target?: string;
  only?: string;
  'report-dir'?: string;
  seed?: number;
  'receiver-host'?: string;
  'receiver-port'?: number;
  'receiver-url'?: string;
  'property-path'?: string;
  'property-replay-path'?: string;
  /** Runs of property:openapi-inputs. */
  'fuzz-runs'?: number;
  /** Longest single wait in real time, s. */
  'max-wait'?: number;
  /** Defects to switch on in the embedded mock, to watch the suite catch them. */
  'mock-defects'?: string[];
  /** YAML list of failures known and excused until a date. */
  'known-issues'?: string;
  json?: boolean;
  /** Metrics outputs: verdict counts and duration, pushed while the suite runs. */
  out?: OutTarget[];
}

/** Scenario and property names picked one by one must exist. */
async function checkPartNames(selection: Selection): Promise<void> {
  const problems: string[] = [];
  if (selection.propertyNames.length > 0) {
    const { PROPERTIES } = await import('../../../properties/index.js');
    const known = PROPERTIES.map((p) => p.name);
    const unknown = selection.propertyNames.filter((n) => !known.includes(n));
    if (unknown.length > 0) problems.push(`unknown property ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
  if (selection.scenarioNames.length > 0) {
    const { loadScenarios } = await import('../../scenario/index.js');
    const known = (await loadScenarios()).map((s) => s.name);
    const unknown = selection.scenarioNames.filter((n) => !known.includes(n));
    if (unknown.length > 0) problems.push(`unknown scenario ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
  if (problems.length > 0) throw new HarnessError('E_USAGE', `--only: ${problems.join('; ')}`);
}

/**
 * `svc-harness run`: runs the suite, writes the reports, prints a line per
 * case and where the reports are on stdout (the results), and its progress on
 * stderr. Passed when every case passed (SKIP and WARN allowed). SIGINT or
 * SIGTERM stops it: the report of what ran is written, marked INTERRUPTED,
 * and the exit status names the signal.
 */
export async function runCommand(
  args: RunCommandOptions,
  context: CommandContext,
  print: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<CommandOutcome> {
  // Notes and verdict lines quote the target: nothing it sent may drive the terminal.
  const out = (line: string): void => print(terminalSafe(line));
  // A wrong --only is a usage error before anything starts.
  await checkPartNames(defaultRegistry().select(args.only));
  const receiver = {
    ...(args['receiver-host'] !== undefined ? { host: args['receiver-host'] } : {}),
    ...(args['receiver-port'] !== undefined ? { port: args['receiver-port'] } : {}),
    ...(args['receiver-url'] !== undefined ? { publicUrl: args['receiver-url'] } : {}),
  };
  const defects = args['mock-defects'] ?? [];
  if (defects.length > 0) new DefectSet(defects); // an unknown name is a usage error before anything starts
  const known = args['known-issues'] !== undefined ? await readKnownIssues(args['known-issues']) : [];
  // A passing known issue is called fixed only when the earlier runs of the same reports folder agree.
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
    ...(defects.length > 0 ? { mock: { defects } } : {}),
    receiver,
  });
  const stop = stopOnSignals(context, 'the run');
  try {
    const target = await harness.prepare();
    if (!args.json)
      out(target.embedded ? `Target: embedded mock at ${target.profile.base_url}` : `Target: ${target.profile.name} at ${target.profile.base_url}`);
    // Deeper fuzzing says its seed before it starts, so that an interrupted run can be replayed.
    const seed = args.seed ?? (args['fuzz-runs'] !== undefined ? randomInt(2 ** 31) : undefined);
    if (args['fuzz-runs'] !== undefined && !args.json) out(`Fuzzing: property:openapi-inputs, ${args['fuzz-runs']} runs, seed ${seed}`);
    // Results (a line per case) on stdout; the plan, the waits and the bar on stderr.
    const progress = args.json ? undefined : runProgress();
    const caseLines = knownListener(progressPrinter(out), known, today, history);
    const runId = newRunId();
    const watchers = await startWatchers(args, { runId, command: 'run', target: target.profile.name, shard: 'all' }, target.profile.base_url);
    let ran;
    try {
      ran = await harness
        .run({
          ...(args.only !== undefined ? { only: args.only } : {}),
          ...(seed !== undefined ? { seed } : {}),
          ...(args['fuzz-runs'] !== undefined ? { fuzzRuns: args['fuzz-runs'] } : {}),
          ...(args['max-wait'] !== undefined ? { maxWaitS: args['max-wait'] } : {}),
          ...(args['property-path'] ? { propertyPath: args['property-path'] } : {}),
          ...(args['property-replay-path'] ? { propertyReplayPath: args['property-replay-path'] } : {}),
          command: commandLine(),
          runId,
          signal: stop.signal,
          onEvent: allOf(
            (event) => {
              if (event.type === 'case-finished') watchers.caseFinished(event.result);
            },
            progress
              ? (event) => {
                  if (event.type === 'case-finished') {
                    progress.beforeResultLine();
                    caseLines(event);
                  }
                  progress.update(event);
                }
              : undefined,
            logEvents(logger()),
          ),
        })
        .catch((err: unknown) => {
          // Stopped before the run could judge anything (reading the target): nothing to report.
          if (stop.stoppedBy() !== undefined) return undefined;
          throw err;
        });
    } catch (e) {
      await watchers.close();
      throw e;
    } finally {
      progress?.done();
    }
    if (ran === undefined) {
      const signal = stop.stoppedBy();
      await watchers.close(signal !== undefined);
      process.stderr.write(`INTERRUPTED by ${signal ?? 'a signal'} before any case ran: no report written\n`);
      return { kind: 'interrupted', signal };
    }
    const result = applyKnownIssues(ran, known, today, history);
    const written = await writeReports(result, args['report-dir'] ?? 'reports');
    await watchers.finish(result, stop.stoppedBy() !== undefined);
    const stoppedBy = stop.stoppedBy();
    const s = result.summary;
    if (args.json) {
      out(
        JSON.stringify({
          run_id: result.runId,
          verdict: result.verdict,
          ...(result.verdictReason !== undefined ? { verdict_reason: result.verdictReason } : {}),
          summary: s,
          seed: result.seed,
          report_dir: written.dir,
          files: written.files,
          cases: result.cases.map((c) => ({
            id: c.id,
            kind: c.kind,
            verdict: c.verdict,
            title: c.title,
            message: c.message,
            duration_ms: c.durationMs,
            ...(c.known ? { known: c.known } : {}),
          })),
        }),
      );
    } else {
      for (const note of result.notes) out(`note: ${note}`);
      for (const line of knownIssueLines(result.cases)) out(line);
      out(
        `${result.verdict}: ${s.PASS} passed, ${s.FAIL} failed, ${s.ERROR} errors, ${s.WARN} warnings, ${s.SKIP} skipped${s.KNOWN !== undefined ? `, ${s.KNOWN} known` : ''} of ${s.total} in ${durationText(result.durationMs)} (seed ${result.seed})`,
      );
      if (result.verdictReason !== undefined) out(`${result.verdict}: ${result.verdictReason}`);
      if (stoppedBy !== undefined) out(`INTERRUPTED by ${stoppedBy}: the run stopped before its end; the report lists what finished and what did not run`);
      out(`Reports: ${written.dir}`);
    }
    // A stopped run is neither a pass nor a fail: its report says INTERRUPTED and the exit status names the signal.
    if (stoppedBy !== undefined) return { kind: 'interrupted', signal: stoppedBy };
    // A target whose very first answer could not be read, and on which nothing could pass, is as unusable as one that does not answer.
    const unusable = result.verdict === 'INCONCLUSIVE' && result.notes.some((n) => n.startsWith(PROBE_TOO_LARGE));
    if (unusable && !args.json) out(`The target is unusable: ${PROBE_TOO_LARGE}, and no case could pass (exit 3).`);
    return unusable ? { kind: 'inconclusive', targetUnusable: true } : verdictOutcome(result.verdict);
  } finally {
    try {
      await harness.close();
    } finally {
      // Until the report is written and the target closed, a second signal quits at once rather than end the process unhandled.
      stop.dispose();
    }
  }
}
