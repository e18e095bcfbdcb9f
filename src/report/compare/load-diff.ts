import {
  LATENCY_OUTCOMES,
  type LatencyOutcome,
  type LatencySummary,
  type LoadResult,
  type OperationFigures,
  type Spectrum,
} from '../../results/load-result.js';
import type { CompareMetricKind, Interval, LoadComparison, MetricDelta, RegressionLimits, SpectrumPair } from './comparison.js';
import { apart, decodeHistogram, proportionInterval, quantileInterval, rateInterval } from './metric-noise.js';

/** Percentiles judged, with their quantile; `max` is shown but never judged (one sample has no interval). */
const PERCENTILES = [
  ['p50', 0.5],
  ['p90', 0.9],
  ['p95', 0.95],
  ['p99', 0.99],
  ['p99_9', 0.999],
] as const;

/** One side of a metric: its value and the interval the samples allow. */
interface Side {
  value: number | undefined;
  interval: Interval | undefined;
  /** Whether the value had samples to come from at all. */
  measured: boolean;
}

interface MetricSpec {
  op: string;
  outcome: 'any' | LatencyOutcome;
  key: string;
  kind: CompareMetricKind;
  higherIsWorse: boolean;
  judged: boolean;
  side(load: LoadResult): Side;
}

const NONE: Side = { value: undefined, interval: undefined, measured: false };

function finite(v: number | null | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function operation(load: LoadResult, op: string): OperationFigures | undefined {
  return load.operations[op];
}

/** The latency summary and histogram of an operation's answers of one outcome (`any`: all of them). */
function latencyOf(op: OperationFigures | undefined, outcome: 'any' | LatencyOutcome): { latency: LatencySummary; histogram: string } | undefined {
  if (!op) return undefined;
  if (outcome === 'any') return { latency: op.latency, histogram: op.histogram };
  return op.latencyByOutcome?.[outcome];
}

/** The metric name as a gate names it: `latency.p95` for every operation, `search.2xx.p99` for one outcome. */
function metricName(op: string, outcome: 'any' | LatencyOutcome, key: string): string {
  return [op === 'all' ? 'latency' : op, ...(outcome === 'any' ? [] : [outcome]), key].join('.');
}

function specsOf(op: string, outcomes: ReadonlyArray<'any' | LatencyOutcome>): MetricSpec[] {
  const specs: MetricSpec[] = [];
  for (const outcome of outcomes) {
    // Fewer 2xx per second is worse; more 429s or other statuses per second is worse.
    const fewerIsWorse = outcome === 'any' || outcome === '2xx';
    specs.push({
      op,
      outcome,
      key: 'rps',
      kind: 'rps',
      higherIsWorse: !fewerIsWorse,
      judged: true,
      side: (load) => {
        const l = latencyOf(operation(load, op), outcome);
        const count = outcome === 'any' ? operation(load, op)?.count : l?.latency.count;
        if (count === undefined || !(load.durationS > 0)) return NONE;
        return { value: count / load.durationS, interval: rateInterval(count, load.durationS), measured: true };
      },
    });
    for (const [key, q] of PERCENTILES) {
      specs.push({
        op,
        outcome,
        key,
        kind: 'latency',
        higherIsWorse: true,
        judged: true,
        side: (load) => {
          const l = latencyOf(operation(load, op), outcome);
          if (!l || !(l.latency.count > 0)) return NONE;
          return { value: finite(l.latency[key]), interval: quantileInterval(l.histogram, q), measured: true };
        },
      });
    }
    specs.push({
      op,
      outcome,
      key: 'max',
      kind: 'latency',
      higherIsWorse: true,
      judged: false,
      side: (load) => {
        const l = latencyOf(operation(load, op), outcome);
        return l && l.latency.count > 0 ? { value: finite(l.latency.max), interval: undefined, measured: true } : NONE;
      },
    });
    if (outcome !== 'any') continue;
    for (const [key, kind, pick] of [
      ['errors.rate', 'errors', (o: OperationFigures) => o.errors],
      ['429.rate', '429', (o: OperationFigures) => o.rateLimited],
    ] as const) {
      specs.push({
        op,
        outcome,
        key,
        kind,
        higherIsWorse: true,
        judged: true,
        side: (load) => {
          const o = operation(load, op);
          if (!o || !(o.count > 0)) return NONE;
          return { value: pick(o) / o.count, interval: proportionInterval(pick(o), o.count), measured: true };
        },
      });
    }
  }
  return specs;
}

/** Judges one metric: worse (or better) beyond its limit and beyond what the two runs' samples explain. */
function judge(spec: MetricSpec, base: Side, now: Side, limits: RegressionLimits): MetricDelta {
  const change = base.value !== undefined && now.value !== undefined ? now.value - base.value : undefined;
  const relative = change !== undefined && base.value ? change / base.value : undefined;
  // Rates move in percentage points; latency and throughput relative to BASE.
  const size = spec.kind === 'errors' || spec.kind === '429' ? change : relative;
  const worse = change !== undefined && (spec.higherIsWorse ? change > 0 : change < 0);
  const better = change !== undefined && (spec.higherIsWorse ? change < 0 : change > 0);
  const beyondLimit = size !== undefined && Math.abs(size) > limits[spec.kind];
  // Without a histogram (results of older versions) the samples' noise is unknown: the limit alone judges.
  const noiseKnown = base.interval !== undefined && now.interval !== undefined;
  const beyondNoise = spec.judged && base.measured && now.measured && (noiseKnown ? apart(base.interval, now.interval) : true);
  return {
    metric: metricName(spec.op, spec.outcome, spec.key),
    op: spec.op,
    outcome: spec.outcome,
    key: spec.key,
    kind: spec.kind,
    base: base.value,
    new: now.value,
    change,
    relative,
    baseInterval: base.interval,
    newInterval: now.interval,
    beyondLimit,
    beyondNoise,
    regression: spec.judged && worse && beyondLimit && beyondNoise,
    improvement: spec.judged && better && beyondLimit && beyondNoise,
  };
}

function spectrumOf(op: OperationFigures | undefined): Spectrum {
  if (!op || !(op.count > 0)) return [];
  const h = decodeHistogram(op.histogram);
  if (h && h.count > 0) return h.spectrum();
  const l = op.latency;
  return [50, 90, 95, 99, 99.9].map((p, i) => ({ percentile: p, ms: [l.p50, l.p90, l.p95, l.p99, l.p99_9][i]! })).concat([{ percentile: 100, ms: l.max }]);
}

/**
 * Compares two loads: for every operation (and `all`), run-wide and per
 * outcome (2xx, 429, other status), throughput, error and 429 rates and the
 * latency percentiles, each with its change in the metric's unit, judged
 * against `limits` and the noise of both runs' samples (metric-noise.ts).
 */
export function diffLoads(base: LoadResult, now: LoadResult, limits: RegressionLimits): LoadComparison {
  const names = [...new Set([...Object.keys(now.operations), ...Object.keys(base.operations)])];
  const ops = ['all', ...names.filter((o) => o !== 'all')].filter((o) => base.operations[o] || now.operations[o]);
  const metrics: MetricDelta[] = [];
  const spectra: SpectrumPair[] = [];
  for (const op of ops) {
    let outcomes = LATENCY_OUTCOMES.filter((o) => [base, now].some((l) => (operation(l, op)?.latencyByOutcome?.[o]?.latency.count ?? 0) > 0));
    // An operation whose every answer in both runs had one outcome would list each figure twice, the same.
    if (outcomes.length === 1 && [base, now].every((l) => operation(l, op)?.latencyByOutcome?.[outcomes[0]!]?.latency.count === operation(l, op)?.count))
      outcomes = [];
    for (const spec of specsOf(op, ['any', ...outcomes])) {
      const b = spec.side(base);
      const a = spec.side(now);
      if (!b.measured && !a.measured) continue;
      metrics.push(judge(spec, b, a, limits));
    }
    spectra.push({ op, base: spectrumOf(operation(base, op)), new: spectrumOf(operation(now, op)) });
  }
  return { limits, metrics, spectra, series: { base: base.series, new: now.series }, durationS: { base: base.durationS, new: now.durationS } };
}
