import type { Verdict } from './model.js';

/*
 * The result of a load (src/load), as report.json carries it under `load`.
 * It lives with the run result model so that every renderer reads one
 * declared shape, and the load area depends on it rather than the reverse.
 */

/** Percentiles and counts of one histogram, in milliseconds. */
export interface LatencySummary {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p99_9: number;
  max: number;
}

/** The percentile spectrum: (percentile, value ms) pairs for charts. */
export type Spectrum = Array<{ percentile: number; ms: number }>;

/** Classes of answers whose latency is kept apart: 2xx, 429, and any other status (a response that never came has no latency). */
export const LATENCY_OUTCOMES = ['2xx', '429', 'other'] as const;

/** One class of answers, see {@link LATENCY_OUTCOMES}. */
export type LatencyOutcome = (typeof LATENCY_OUTCOMES)[number];

/** The latency of one class of answers: percentiles, and the HDR histogram they come from (merged exactly across shards). */
export interface OutcomeLatency {
  latency: LatencySummary;
  /** HDR compressed base64 histogram (µs). */
  histogram: string;
}

/** The verdict of one gate. */
export interface GateResult {
  id: string;
  source: string;
  passed: boolean;
  actual: number | undefined;
  expected: string;
  message: string;
}

/** Figures of one operation (or of all of them, under `all`). */
export interface OperationFigures {
  /** Responses received (any status). */
  count: number;
  /** 2xx responses. */
  ok: number;
  /** 429 responses. */
  rateLimited: number;
  /** Transport failures, timeouts and responses neither 2xx nor 429 that the sender did not expect. */
  errors: number;
  /**
   * Responses neither 2xx nor 429 that the sender provoked on purpose (a scenario step's `expect`,
   * the limit pusher's reused quote): counted apart, never as errors. Absent in results of older versions.
   */
  expected?: number;
  /** Requests still in flight when the load stopped and its grace period ran out: no answer, never an error. Absent when none. */
  cutOff?: number;
  /** `errors` by status and `error.code`: `402 INSUFFICIENT_FUNDS`, `500` (no code), `none` (no answer), most first. Absent when none. */
  errorsBy?: Record<string, number>;
  /** `expected` by status and `error.code`, as `errorsBy`. Absent when none. */
  expectedBy?: Record<string, number>;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Latency percentiles in ms (HDR, from the encoded histogram). */
  latency: LatencySummary;
  /** HDR compressed base64 histogram (µs): the exact source of `latency`, added when shards merge. */
  histogram: string;
  /**
   * Latency split by outcome, since a run pushed past its limits is mostly
   * fast 429s that would hide the 2xx latency. Absent in results of older
   * versions (a merge with one of them leaves it out).
   */
  latencyByOutcome?: Record<LatencyOutcome, OutcomeLatency> | undefined;
}

/** One second of the run (target clock), for the charts. */
export interface SecondFigures {
  /** Unix second of the target clock. */
  second: number;
  requests: number;
  ok: number;
  rateLimited: number;
  errors: number;
  /** HDR histogram of the latencies that completed in this second (merged exactly across shards). */
  histogram: string;
  p50: number;
  p99: number;
  max: number;
}

/** What a verdict under load is about. */
export type LoadVerdictKind = 'window-limit' | 'early-throttle' | 'retry-after' | 'headers' | 'wallet';

/** One verdict under load, for one agency (and bucket). Ids are unique per agency, so shards union without clashes. */
export interface LoadVerdict {
  id: string;
  kind: LoadVerdictKind;
  agency: string;
  bucket?: string;
  verdict: Verdict;
  message: string;
  /** Counts and examples that show the verdict. */
  details: Record<string, unknown>;
}

/** The serialisable result of a load run: exact to merge (`mergeLoadResults`). */
export interface LoadResult {
  schema: 'svc-harness/load@1';
  /** The service the load ran against (its profile's name and base address); absent in results of older versions. */
  target?: { name: string; baseUrl: string } | undefined;
  /** What drove the load: autocannon scenarios, the signed search template, the paced limit pusher. */
  modes: Array<'scenarios' | 'search' | 'push-limits'>;
  /** The shard(s) this result covers, e.g. [{index:1,count:2}]; empty when unsharded. */
  shards: Array<{ index: number; count: number }>;
  agencies: string[];
  scenarios: string[];
  connections: number;
  /** Target clock, ms since epoch. */
  startedAt: number;
  finishedAt: number;
  /** Seconds the load ran (max over shards when merged). */
  durationS: number;
  /** Whether the run was stopped early (Ctrl-C). */
  interrupted: boolean;
  /** Clock the load ran in. */
  clock: 'real-time';
  /** `cutOff`: requests in flight when the grace period after the stop ran out (absent in results of older versions). */
  totals: { requests: number; ok: number; rateLimited: number; errors: number; expected?: number; cutOff?: number };
  /** Requests per second over the run. */
  rps: number;
  /** errors / requests. */
  errorRate: number;
  /** 429s / requests. */
  rateLimitedRate: number;
  /** Per operation (`search`, `book`, … `push.read`), plus `all`. */
  operations: Record<string, OperationFigures>;
  /** Percentile spectrum of `all`, for the chart. */
  spectrum: Spectrum;
  series: SecondFigures[];
  verdicts: LoadVerdict[];
  gates: GateResult[];
  notes: string[];
  /**
   * The transport failure that cut the load short (the target stopped
   * answering): the figures hold what was measured up to it. The CLI exits 3.
   */
  targetError?: { code: string; message: string } | undefined;
}
