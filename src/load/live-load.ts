import type { Profile } from '../profile/index.js';
import type { LoadResult, OperationFigures } from '../results/load-result.js';
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
  /** Requests sent within the last window of the target clock and not refused with a 429 (an unanswered one may have been admitted). */
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
   * `view()` is the load as it stands, from the recorder's feed into fast
   * histograms, cheap enough for once a second; the report's own figures
   * (encoded histograms, series, spectrum) are made once, at the end.
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
      const figures = new LiveFigures();
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
        if (log.sentAt[i]! >= from && log.status[i] !== 429) used += 1;
      }
      const own = limits.get(log.agency);
      const limit = log.start?.limit ?? (own ? (log.bucket === profile.values.bucket_read ? own.read : own.write) : 0);
      return { agency: log.agency, bucket: log.bucket, used, limit };
    })
    .sort((a, b) => a.agency.localeCompare(b.agency) || a.bucket.localeCompare(b.bucket));
}

/** Counts of one operation so far, with one fast histogram of its answers' latency (and, for all operations together, one per outcome). */
interface LiveOp {
  count: number;
  ok: number;
  rateLimited: number;
  errors: number;
  expected: number;
  cutOff: number;
  statuses: Map<number, number>;
  latency: LatencyHistogram;
  byOutcome?: [LatencyHistogram, LatencyHistogram, LatencyHistogram];
}

const newLiveOp = (): LiveOp => ({
  count: 0,
  ok: 0,
  rateLimited: 0,
  errors: 0,
  expected: 0,
  cutOff: 0,
  statuses: new Map(),
  latency: new LatencyHistogram('fast'),
});

/** The load's figures so far, kept from the recorder's feed. */
class LiveFigures {
  private readonly ops = new Map<string, LiveOp>();
  private readonly all: LiveOp = { ...newLiveOp(), byOutcome: [new LatencyHistogram('fast'), new LatencyHistogram('fast'), new LatencyHistogram('fast')] };
  private readonly perSecond = new Map<number, number>();
  /** Target-clock instant of the latest request recorded. */
  lastAt = Number.POSITIVE_INFINITY;

  readonly add = (r: RecordedRequest): void => {
    let op = this.ops.get(r.op);
    if (!op) this.ops.set(r.op, (op = newLiveOp()));
    for (const o of [op, this.all]) {
      if (r.outcome === 'cutOff') {
        o.cutOff += 1;
        continue;
      }
      o.count += 1;
      o[r.outcome] += 1;
      o.statuses.set(r.status, (o.statuses.get(r.status) ?? 0) + 1);
      if (r.status === UNKNOWN_OUTCOME) continue;
      o.latency.recordMs(r.latencyMs);
      o.byOutcome?.[r.outcome === 'ok' ? 0 : r.outcome === 'rateLimited' ? 1 : 2].recordMs(r.latencyMs);
    }
    this.lastAt = this.lastAt === Number.POSITIVE_INFINITY ? r.receivedAt : Math.max(this.lastAt, r.receivedAt);
    if (r.outcome !== 'cutOff') {
      const second = Math.floor(r.receivedAt / 1000);
      this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    }
  };

  /** The figures so far in the report's shape: no encoded histograms, no spectrum, per-second counts only. */
  result(f: LiveLoadFacts, at: number): LoadResult {
    const durationS = Math.max(0.001, (at - f.startedAt) / 1000);
    const operations: Record<string, OperationFigures> = {};
    for (const [name, op] of [...this.ops].sort(([a], [b]) => a.localeCompare(b))) operations[name] = liveOpFigures(op);
    operations['all'] = liveOpFigures(this.all);
    const totals = {
      requests: this.all.count,
      ok: this.all.ok,
      rateLimited: this.all.rateLimited,
      errors: this.all.errors,
      expected: this.all.expected,
      cutOff: this.all.cutOff,
    };
    const modes: LoadResult['modes'] = [];
    if (f.connections > 0) modes.push(f.plan.mode);
    if (f.pushLimits) modes.push('push-limits');
    return {
      schema: 'svc-harness/load@1',
      modes,
      shards: f.shard ? [f.shard] : [],
      agencies: f.agencies.map((a) => a.id),
      scenarios: [],
      connections: f.connections,
      startedAt: f.startedAt,
      finishedAt: at,
      durationS,
      interrupted: false,
      clock: 'real-time',
      totals,
      rps: totals.requests / durationS,
      errorRate: totals.requests ? totals.errors / totals.requests : 0,
      rateLimitedRate: totals.requests ? totals.rateLimited / totals.requests : 0,
      operations,
      spectrum: [],
      series: [...this.perSecond]
        .sort(([a], [b]) => a - b)
        .map(([second, requests]) => ({ second, requests, ok: 0, rateLimited: 0, errors: 0, histogram: '', p50: 0, p99: 0, max: 0 })),
      verdicts: [],
      gates: [],
      notes: [],
    };
  }
}

function liveOpFigures(op: LiveOp): OperationFigures {
  return {
    count: op.count,
    ok: op.ok,
    rateLimited: op.rateLimited,
    errors: op.errors,
    expected: op.expected,
    ...(op.cutOff > 0 ? { cutOff: op.cutOff } : {}),
    statuses: Object.fromEntries([...op.statuses].sort(([a], [b]) => a - b).map(([k, v]) => [k === UNKNOWN_OUTCOME ? 'none' : String(k), v])),
    latency: op.latency.summary(),
    histogram: '',
    ...(op.byOutcome ? { latencyByOutcome: latencyByOutcomeSummaries(op.byOutcome) } : {}),
  };
}
