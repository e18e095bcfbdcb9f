import type { FinalFigures } from './run-figures.js';
import type { RequestTally } from './request-tally.js';

/** What a metrics output sends at one instant: the requests so far, the verdicts so far, the time run, and once the run has ended its final figures. */
export interface RunSnapshot {
  /** Wall-clock ms of the snapshot (the samples' timestamp). */
  at: number;
  /** Requests of a load so far; empty for a suite run. */
  tally: RequestTally;
  /** Seconds since the run started, or the run's duration once it has ended. */
  durationS: number;
  /** Verdicts so far, by area. */
  verdicts: FinalFigures['verdicts'];
  /** Set once the run has ended. */
  final?: FinalFigures | undefined;
}

/** An output that sends snapshots (Prometheus remote write) or keeps its own instruments fed (OpenTelemetry). */
export interface MetricsOutput {
  /** Sends what the run has measured so far; resolves when sent or failed (a failure is warned of, never thrown). */
  send(s: RunSnapshot): Promise<void>;
  /** Sends the final snapshot and releases what the output holds. */
  finish(s: RunSnapshot): Promise<void>;
}
