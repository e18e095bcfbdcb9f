import { UNKNOWN_OUTCOME, type RecordedRequest } from '../load/measure/load-recorder.js';

/** Upper bounds (seconds) of the latency histogram's buckets, `+Inf` implied: classic Prometheus buckets, OTLP explicit bounds. */
export const LATENCY_BOUNDS_S: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The class of a status (`2xx`, `4xx`, …), `none` when no answer came. */
function statusClass(status: number): string {
  return status === UNKNOWN_OUTCOME ? 'none' : `${Math.floor(status / 100)}xx`;
}

/**
 * What went wrong with a request counted as an error, named as OpenTelemetry's
 * `error.type` names it for HTTP: the status code, or `no_response` when none
 * came (a timeout, a lost connection). Undefined for a request that was no error.
 */
function errorType(r: Pick<RecordedRequest, 'outcome' | 'status'>): string | undefined {
  if (r.outcome !== 'errors') return undefined;
  return r.status === UNKNOWN_OUTCOME ? 'no_response' : String(r.status);
}

/** One request counter: its labels and count. */
interface CountCell {
  operation: string;
  /** HTTP method (OpenTelemetry's `http.request.method`). */
  method: string;
  /** UNKNOWN_OUTCOME when no answer came. */
  status: number;
  outcome: string;
  statusClass: string;
  errorType: string | undefined;
  count: number;
}

/** One latency histogram: counts per bucket of {@link LATENCY_BOUNDS_S} (the last is +Inf), sum in seconds. */
interface DurationCell {
  operation: string;
  method: string;
  status: number;
  outcome: string;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * The requests of a load counted by operation, method, outcome and status, and their
 * latencies in buckets, as the recorder tells them: the one count both
 * metrics outputs send while the load runs (no per-request work in either).
 */
export class RequestTally {
  private readonly counts = new Map<string, CountCell>();
  private readonly durations = new Map<string, DurationCell>();
  private readonly cutOffs = new Map<string, number>();

  /** Counts one request (a recorder subscriber). */
  readonly add = (r: RecordedRequest): void => {
    if (r.outcome === 'cutOff') {
      this.cutOffs.set(r.op, (this.cutOffs.get(r.op) ?? 0) + 1);
      return;
    }
    const key = `${r.op}\u0000${r.method}\u0000${r.outcome}\u0000${r.status}`;
    let c = this.counts.get(key);
    // The class and error type follow from the key: worked out once, when its cell is made.
    if (!c)
      this.counts.set(
        key,
        (c = {
          operation: r.op,
          method: r.method,
          status: r.status,
          outcome: r.outcome,
          statusClass: statusClass(r.status),
          errorType: errorType(r),
          count: 0,
        }),
      );
    c.count += 1;
    // As in the recorder's histograms: a request with no answer has no latency.
    if (r.status === UNKNOWN_OUTCOME) return;
    let d = this.durations.get(key);
    if (!d)
      this.durations.set(
        key,
        (d = {
          operation: r.op,
          method: r.method,
          status: r.status,
          outcome: r.outcome,
          buckets: new Array<number>(LATENCY_BOUNDS_S.length + 1).fill(0),
          sum: 0,
          count: 0,
        }),
      );
    const s = r.latencyMs / 1000;
    let i = 0;
    while (i < LATENCY_BOUNDS_S.length && s > LATENCY_BOUNDS_S[i]!) i++;
    d.buckets[i]! += 1;
    d.sum += s;
    d.count += 1;
  };

  /** Request counts, one cell per label set. */
  countCells(): CountCell[] {
    return [...this.counts.values()];
  }

  /** Latency histograms, one per operation, method, outcome and status. */
  durationCells(): DurationCell[] {
    return [...this.durations.values()];
  }

  /** Requests cut off at the stop, by operation. */
  cutOffCells(): Array<{ operation: string; count: number }> {
    return [...this.cutOffs].map(([operation, count]) => ({ operation, count }));
  }
}
