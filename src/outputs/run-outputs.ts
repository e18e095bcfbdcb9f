import type { LiveLoad } from '../load/live-load.js';
import type { RunResult } from '../results/run-result.js';
import type { OutTarget } from './out-target.js';
import { openTelemetryOutput } from './otlp-output.js';
import { prometheusRemoteWrite } from './prometheus-rw-output.js';
import { RequestTally } from './request-tally.js';
import { finalFigures, verdictCounts, type RunIdentity } from './run-figures.js';
import type { MetricsOutput, RunSnapshot } from './run-snapshot.js';

/** Milliseconds between two pushes while a run runs (k6's remote write pushes every 5 s too). */
const PUSH_INTERVAL_MS = 5000;

/** Options of {@link startOutputs}. */
interface OutputsOptions {
  targets: readonly OutTarget[];
  id: RunIdentity;
  /** The harness's version (OpenTelemetry resource). */
  version: string;
  /** Base address of the target. */
  baseUrl?: string | undefined;
  /** @defaultValue PUSH_INTERVAL_MS */
  intervalMs?: number | undefined;
  /** Where a failed push is told, one line (the CLI prints it on stderr). */
  warn: (line: string) => void;
}

/** The metrics outputs of one run, fed from the run as it goes and closed with its result. */
interface RunOutputs {
  /** Feeds the outputs from a running load's recorder. */
  watchLoad(live: LiveLoad): void;
  /** Counts a case of a suite run as it ends. */
  caseFinished(c: { area: string; verdict: string }): void;
  /** Sends the final figures (the result's, as its report holds them) and stops. */
  finish(result: RunResult): Promise<void>;
  /** Sends what was measured, without final figures, and stops (the run failed before it had a result). */
  close(): Promise<void>;
}

/** Starts the outputs `--out` named: pushes every `intervalMs` until {@link RunOutputs.finish}. */
export function startOutputs(o: OutputsOptions): RunOutputs {
  const startedMs = Date.now();
  const intervalMs = o.intervalMs ?? PUSH_INTERVAL_MS;
  const tally = new RequestTally();
  const cases: Array<{ area: string; verdict: string }> = [];
  const outputs: MetricsOutput[] = o.targets.map((t) =>
    t.kind === 'prometheus-rw'
      ? prometheusRemoteWrite(t.url, o.id, o.warn)
      : openTelemetryOutput({ id: o.id, version: o.version, baseUrl: o.baseUrl, url: t.url, tally, intervalMs, warn: o.warn }),
  );
  let unsubscribe: (() => void) | undefined;
  let inFlight: Promise<unknown> | undefined;
  const snapshot = (): RunSnapshot => ({ at: Date.now(), tally, durationS: (Date.now() - startedMs) / 1000, verdicts: verdictCounts(cases) });
  const timer = setInterval(() => {
    // A push still under way (a slow receiver) is not queued behind: the next one carries the same counters, further on.
    if (inFlight) return;
    const s = snapshot();
    inFlight = Promise.allSettled(outputs.map((out) => out.send(s))).finally(() => (inFlight = undefined));
  }, intervalMs);
  timer.unref();
  const stop = async (): Promise<void> => {
    clearInterval(timer);
    unsubscribe?.();
    await inFlight;
  };
  return {
    watchLoad(live) {
      unsubscribe = live.subscribe(tally.add);
    },
    caseFinished(c) {
      cases.push({ area: c.area, verdict: c.verdict });
    },
    async finish(result) {
      await stop();
      const final = finalFigures(result);
      const s: RunSnapshot = { at: Date.now(), tally, durationS: final.durationS, verdicts: final.verdicts, final };
      await Promise.allSettled(outputs.map((out) => out.finish(s)));
    },
    async close() {
      await stop();
      const s = snapshot();
      await Promise.allSettled(outputs.map((out) => out.finish(s)));
    },
  };
}
