import type { BucketUse } from '../../load/live-load.js';
import { LATENCY_OUTCOMES, type LatencySummary, type LoadResult } from '../../results/load-result.js';

/** The latency of one class of answers (`all`, `2xx`, `429`, `other`), ms, as the report's `operations.all` holds it. */
export interface FrameLatency extends Pick<LatencySummary, 'count' | 'p50' | 'p90' | 'p95' | 'p99' | 'p99_9' | 'max'> {
  outcome: string;
}

/** What the live page shows at one instant: the report's own figures, so the last frame is the report's. */
export interface LiveFrame {
  state: 'running' | 'finished';
  runId: string;
  /** Seconds the load has run (the report's `durationS` once finished). */
  durationS: number;
  requests: number;
  ok: number;
  rateLimited: number;
  errors: number;
  expected: number;
  cutOff: number;
  /** Requests per second over the run so far. */
  rps: number;
  /** Requests that completed in the last whole second. */
  lastSecondRps: number;
  /** Share of answers that were 429. */
  rateLimitedRate: number;
  errorRate: number;
  latency: FrameLatency[];
  /** Answers neither 2xx nor 429, by status (`none`: no answer came), most first. */
  otherStatuses: Array<{ status: string; count: number }>;
  buckets: BucketUse[];
  gates: Array<{ id: string; gate: string; passed: boolean; actual: number | null; expected: string }>;
  /** Verdicts under load by verdict, once the load has ended (they are judged after it). */
  verdicts?: Record<string, number> | undefined;
}

function latencyOf(outcome: string, l: LatencySummary): FrameLatency {
  return { outcome, count: l.count, p50: l.p50, p90: l.p90, p95: l.p95, p99: l.p99, p99_9: l.p99_9, max: l.max };
}

/** The frame of a load result (as it stands, or final). */
export function liveFrame(runId: string, load: LoadResult, buckets: BucketUse[], state: LiveFrame['state'], verdicts?: Record<string, number>): LiveFrame {
  const all = load.operations['all'];
  const latency: FrameLatency[] = [];
  if (all) {
    latency.push(latencyOf('all', all.latency));
    for (const o of LATENCY_OUTCOMES) {
      const l = all.latencyByOutcome?.[o];
      if (l) latency.push(latencyOf(o, l.latency));
    }
  }
  // The last whole second: the newest may still be filling.
  const last = state === 'running' ? load.series.at(-2) : load.series.at(-1);
  return {
    state,
    runId,
    durationS: load.durationS,
    requests: load.totals.requests,
    ok: load.totals.ok,
    rateLimited: load.totals.rateLimited,
    errors: load.totals.errors,
    expected: load.totals.expected ?? 0,
    cutOff: load.totals.cutOff ?? 0,
    rps: load.rps,
    lastSecondRps: last?.requests ?? 0,
    rateLimitedRate: load.rateLimitedRate,
    errorRate: load.errorRate,
    latency,
    otherStatuses: Object.entries(all?.statuses ?? {})
      .filter(([s]) => !s.startsWith('2') && s !== '429')
      .map(([status, count]) => ({ status, count }))
      .sort((a, b) => b.count - a.count),
    buckets,
    gates: load.gates.map((g) => ({ id: g.id, gate: g.source, passed: g.passed, actual: g.actual ?? null, expected: g.expected })),
    ...(verdicts ? { verdicts } : {}),
  };
}
