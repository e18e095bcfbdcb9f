import type { RegressionLimits } from '../../load/gate/regression-rule.js';
import { commandLine } from '../command-line.js';
import { createHarness } from '../../harness.js';
import { DefectSet } from '../../mock/defects/defect-set.js';
import { loadProgressBar, waitPrinter } from '../../load/progress.js';
import { readLoadReport, readThresholds } from '../../load/merge/read-load-inputs.js';
import { DEFAULT_FIXTURE } from '../../mock/index.js';
import { generateAgencies } from '../../mock/fixture/generate-agencies.js';
import { writeReports } from '../../report/write-reports.js';
import type { CommandContext } from '../command-spec.js';
import { exitCodeOf, loadOutcome, type CommandOutcome } from '../exit-codes.js';
import { gatesJson, totalsJson } from '../json-output.js';
import { loadResultLines } from '../load-summary.js';
import { readKnownIssues } from '../../known/read-known-issues.js';
import { applyKnownIssues, utcDay } from '../../known/apply-known-issues.js';
import { readKnownHistory } from '../read-known-history.js';
import { stopOnSignals, type SignalStop } from '../stop-on-signals.js';
import { newRunId } from '../../results/run-id.js';
import { startWatchers, type RunWatchers, type WatchArgs } from '../run-watchers.js';

/** Arguments of `svc-harness load`, as the shared option parsers leave them. */
export interface LoadCommandArgs extends WatchArgs {
  target?: string | undefined;
  agencies: number;
  'read-limit'?: number | undefined;
  'write-limit'?: number | undefined;
  /** Defects to switch on in the embedded mock. */
  'mock-defects'?: string[] | undefined;
  /** Deprecated name of `mock-defects`. */
  defects?: string[] | undefined;
  duration: number;
  requests?: number | undefined;
  connections?: number | undefined;
  scenario?: string[] | undefined;
  'scenarios-dir'?: string | undefined;
  search?: string | undefined;
  'push-limits': boolean;
  /** Seconds the requests in flight at the end get to finish before they are cut off. */
  'graceful-stop': number;
  shard?: { index: number; count: number } | undefined;
  threshold?: string[] | undefined;
  thresholds?: string | undefined;
  baseline?: string | undefined;
  /** Already parsed: how much worse than the baseline each kind of metric may get. */
  'max-regression': RegressionLimits;
  'report-dir': string;
  /** YAML list of failures known and excused until a date. */
  'known-issues'?: string | undefined;
  json: boolean;
}

/** `svc-harness load`: runs the load through the harness, writes the reports, prints a summary. */
export async function loadCommand(args: LoadCommandArgs, context: CommandContext): Promise<CommandOutcome> {
  // From the first line: a signal while the target is read (its accounts, its wallets) stops the load as well.
  const stop = stopOnSignals(context, 'the load');
  try {
    return await loadUntilStopped(args, stop);
  } finally {
    stop.dispose();
  }
}

async function loadUntilStopped(args: LoadCommandArgs, stop: SignalStop): Promise<CommandOutcome> {
  const thresholds = await readThresholds(args.threshold, args.thresholds);
  if (args.defects !== undefined) process.stderr.write('svc-harness: load --defects is deprecated, use --mock-defects (the same comma list)\n');
  const defects = [...(args['mock-defects'] ?? []), ...(args.defects ?? [])];
  if (defects.length > 0) new DefectSet(defects); // an unknown name is a usage error before anything starts
  const known = args['known-issues'] !== undefined ? await readKnownIssues(args['known-issues']) : [];
  const history =
    known.length > 0
      ? await readKnownHistory(
          args['report-dir'],
          known.map((i) => i.id),
        )
      : undefined;
  const baseline = args.baseline ? { result: await readLoadReport(args.baseline), limits: args['max-regression'] } : undefined;
  const harness = createHarness(
    args.target !== undefined
      ? { targetFile: args.target }
      : {
          mock: {
            admin: false,
            fixture: { agencies: [...structuredClone(DEFAULT_FIXTURE.agencies), ...generateAgencies(args.agencies, limitsOverride(args))] },
            defects,
          },
        },
  );
  try {
    const progress = args.json ? undefined : loadProgressBar();
    // Waits are announced even with --json: stderr is for people, stdout stays one JSON line.
    const waits = waitPrinter();
    let ran;
    let watchers: RunWatchers | undefined;
    const runId = newRunId();
    try {
      const prepared = await harness.prepare();
      watchers = await startWatchers(
        args,
        { runId, command: 'load', target: prepared.profile.name, shard: args.shard ? `${args.shard.index}/${args.shard.count}` : 'all' },
        prepared.profile.base_url,
      );
      ran = await harness
        .load({
          scenarios: { ...(args.scenario ? { files: args.scenario } : {}), ...(args['scenarios-dir'] !== undefined ? { dir: args['scenarios-dir'] } : {}) },
          ...(args.search !== undefined ? { search: args.search } : {}),
          durationS: args.duration,
          ...(args.requests !== undefined ? { maxRequests: args.requests } : {}),
          ...(args.connections !== undefined ? { connections: args.connections } : {}),
          pushLimits: args['push-limits'],
          ...(args.shard ? { shard: args.shard } : {}),
          thresholds,
          ...(baseline ? { baseline } : {}),
          signal: stop.signal,
          ...(progress ? { onProgress: (p) => progress.update(p) } : {}),
          onWait: (w) => {
            // A wait comes before the bar starts or after it ends: end its line first, so the countdown gets its own.
            progress?.done();
            waits.wait(w);
          },
          gracefulStopS: args['graceful-stop'],
          command: commandLine(),
          runId,
          ...(watchers.onStart ? { onStart: watchers.onStart } : {}),
        })
        .catch((err: unknown) => {
          // Stopped before the load could start (reading the target's accounts): nothing ran, nothing to report.
          if (stop.stoppedBy() !== undefined) return undefined;
          throw err;
        });
    } catch (e) {
      await watchers?.close();
      throw e;
    } finally {
      progress?.done();
      waits.done();
    }
    const stoppedBy = stop.stoppedBy();
    if (ran === undefined) {
      await watchers?.close(stoppedBy !== undefined);
      process.stderr.write(`INTERRUPTED by ${stoppedBy ?? 'a signal'} before the load started: no report written\n`);
      return { kind: 'interrupted', signal: stoppedBy };
    }
    const result = applyKnownIssues(ran, known, utcDay(), history);
    const written = await writeReports(result, args['report-dir']);
    // After the report is on disk: a slow receiver delays the exit by its timeout at most (a second after a signal), and changes nothing in the result.
    await watchers.finish(result, stoppedBy !== undefined);
    // A stopped load is neither a pass nor a fail: its report says INTERRUPTED and the exit status names the signal.
    const outcome: CommandOutcome = stoppedBy !== undefined ? { kind: 'interrupted', signal: stoppedBy } : loadOutcome(result);
    const load = result.load;
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ run_id: result.runId, verdict: result.verdict, exit_code: exitCodeOf(outcome), report_dir: written.dir, files: written.files, rps: load.rps, interrupted: load.interrupted, totals: totalsJson(load.totals), summary: result.summary, gates: gatesJson(load.gates) })}\n`,
      );
    } else {
      if (stoppedBy !== undefined)
        process.stderr.write(
          `INTERRUPTED by ${stoppedBy}: the load stopped after ${load.durationS.toFixed(1)} s; figures, verdicts and gates cover only what ran\n`,
        );
      // The summary is the command's output (a pipeline captures it); progress and notices stay on stderr.
      process.stdout.write(`${loadResultLines(result, outcome, written.dir).join('\n')}\n`);
    }
    return outcome;
  } finally {
    await harness.close();
  }
}

function limitsOverride(args: LoadCommandArgs): { limits: { read: number; write: number } } | Record<string, never> {
  if (args['read-limit'] === undefined && args['write-limit'] === undefined) return {};
  return { limits: { read: args['read-limit'] ?? 600, write: args['write-limit'] ?? 60 } };
}
