import type { Profile } from '../profile/index.js';
import type { LoadResult, OperationFigures } from '../results/load-result.js';
import { loadResult } from './load-result-of.js';
import type { Threshold } from './gate/gates.js';
import { evaluateLoadGates } from './gate/load-metrics.js';
import type { RegressionLimits } from './gate/regression-rule.js';
import type { LoadPlan } from './generate/load-plan.js';
import type { LoadAgency } from './generate/load-agency.js';
import { LatencyHistogram } from './measure/latency-histogram.js';
import { latencyByOutcomeSummaries, UNKNOWN_OUTCOME, type LoadRecorder, type RecordedRequest, type RecorderSubscriber } from './measure/load-recorder.js';

/** How full one agency's bucket is: requests it admitted within the last window, against its limit. */
export interface BucketUse {
  agency: string;
  bucket: string;
  /** Requests sent within the last window of the target clock and not refused by the rate limit (an unanswered one may have been admitted). */
  used: number;
  /** The limit the bucket's answers told, else the agency's. */
  limit: number;
}

/** The load as it stands: its figures so far, with the gates evaluated on them (verdicts come only at the end). */
export interface LiveLoadView {
  load: LoadResult;
  buckets: BucketUse[];
}

/** A running load, for what watches it (a live page, metrics outputs): one feed, from the recorder the report is built from. */
export interface LiveLoad {
  /** Tells `s` of every request recorded from now on; returns the function that stops it. */
  subscribe(s: RecorderSubscriber): () => void;
  /**
   * Follows the load from now on (call it before the first request): its
   * `view()` is the load as it stands, the recorder's own counts with the
   * latencies of its feed in fast histograms, cheap enough for once a second;
   * the report's own figures (encoded histograms, series, spectrum) are made
   * once, at the end.
   */
  track(): { view(): LiveLoadView; stop(): void };
}

/** What the run knows, for {@link liveLoad}. */
interface LiveLoadFacts {
  recorder: LoadRecorder;
  profile: Profile;
  plan: LoadPlan;
  agencies: readonly LoadAgency[];
  connections: number;
  pushLimits: boolean;
  shard?: { index: number; count: number } | undefined;
  thresholds: readonly Threshold[];
  baseline?: { result: LoadResult; limits: RegressionLimits } | undefined;
  /** Target clock, ms since epoch. */
  now: () => number;
  startedAt: number;
}

/** The watchable side of a running load. */
export function liveLoad(f: LiveLoadFacts): LiveLoad {
  return {
    subscribe: (s) => f.recorder.subscribe(s),
    track() {
      const figures = new LiveLatency();
      const stop = f.recorder.subscribe(figures.add);
      return {
        view() {
          const at = f.now();
          const load = figures.result(f, at);
          load.gates = evaluateLoadGates(load, f.thresholds, f.baseline);
          // The window ends at the last answer: after the load the embedded mock's clock jumps a window ahead to read the wallets.
          return { load, buckets: bucketUse(f, Math.min(at, figures.lastAt)) };
        },
        stop,
      };
    },
  };
}

/** Every bucket's use over the window ending at `at`, in agency and bucket order. */
function bucketUse({ recorder, profile, agencies }: LiveLoadFacts, at: number): BucketUse[] {
  const from = at - profile.limits.window_s * 1000;
  const limits = new Map(agencies.map((a) => [a.id, a.limits]));
  return recorder
    .bucketLogs()
    .map((log) => {
      let used = 0;
      // Requests are logged about in the order they end: walk back from the newest until the window is left.
      for (let i = log.sentAt.length - 1; i >= 0; i--) {
        if (log.receivedAt[i]! < from) break;
        if (log.sentAt[i]! >= from && log.status[i] !== log.rateLimitedStatus) used += 1;
      }
      const own = limits.get(log.agency);
      const limit = log.start?.limit ?? (own ? (log.bucket === profile.values.bucket_read ? own.read : own.write) : 0);
      return { agency: log.agency, bucket: log.bucket, used, limit };
    })
    .sort((a, b) => a.agency.localeCompare(b.agency) || a.bucket.localeCompare(b.bucket));
}

/**
 * The latency of the load's answers so far, kept from the recorder's feed in
 * fast histograms (one per operation, and one per outcome of all of them):
 * what the recorder holds only as per-second counts until the end. The
 * counts are the recorder's own, read when a view is made.
 */
class LiveLatency {
  private readonly ops = new Map<string, LatencyHistogram>();
  private readonly all = new LatencyHistogram('fast');
  private readonly byOutcome: [LatencyHistogram, LatencyHistogram, LatencyHistogram] = [
    new LatencyHistogram('fast'),
    new LatencyHistogram('fast'),
    new LatencyHistogram('fast'),
  ];
  /** Target-clock instant of the latest request recorded. */
  lastAt = Number.POSITIVE_INFINITY;

  readonly add = (r: RecordedRequest): void => {
    this.lastAt = this.lastAt === Number.POSITIVE_INFINITY ? r.receivedAt : Math.max(this.lastAt, r.receivedAt);
    if (r.status === UNKNOWN_OUTCOME) return;
    let h = this.ops.get(r.op);
    if (!h) this.ops.set(r.op, (h = new LatencyHistogram('fast')));
    h.recordMs(r.latencyMs);
    this.all.recordMs(r.latencyMs);
    this.byOutcome[r.outcome === 'ok' ? 0 : r.outcome === 'rateLimited' ? 1 : 2].recordMs(r.latencyMs);
  };

  /** The figures so far in the report's shape: the recorder's counts, these latencies; no encoded histograms, no spectrum, per-second counts only. */
  result(f: LiveLoadFacts, at: number): LoadResult {
    const operations: Record<string, OperationFigures> = {};
    for (const [name, counts] of Object.entries(f.recorder.operationCounts())) {
      const all = name === 'all';
      const h = all ? this.all : this.ops.get(name);
      operations[name] = {
        ...counts,
        latency: (h ?? new LatencyHistogram('fast')).summary(),
        histogram: '',
        ...(all ? { latencyByOutcome: latencyByOutcomeSummaries(this.byOutcome) } : {}),
      };
    }
    return loadResult(
      { ...f, agencies: f.agencies.map((a) => a.id) },
      { startedAt: f.startedAt, finishedAt: at, interrupted: false },
      {
        totals: f.recorder.counts(),
        operations,
        spectrum: [],
        series: f.recorder.secondCounts().map((c) => ({ ...c, histogram: '', p50: 0, p99: 0, max: 0 })),
        verdicts: [],
        notes: [],
      },
    );
  }
}
