import { LATENCY_OUTCOMES, type LatencyOutcome, type LatencySummary, type LoadResult, type OperationFigures } from '../../results/load-result.js';
import { apart, proportionInterval, quantileDesignEffect, quantileInterval, rateInterval, type Interval } from './metric-noise.js';

/*
 * The one rule that calls a change between two loads a regression, used by
 * `report compare` and by `load --baseline` alike. A regression is the
 * service getting worse, never the harness sending more:
 *
 * - a change counts only when it is worse than `--max-regression` for its
 *   kind AND the two runs' 95% intervals do not overlap (metric-noise.ts;
 *   a percentile's interval counts each second of the run as one cluster
 *   of samples, since a stall slows every answer of the seconds it lasts);
 * - a percentile is judged only when each run has at least
 *   MIN_SAMPLES_BEYOND answers above it (p99 needs 1 000 answers);
 * - what the offered load drives is shown, never judged: the throughput of
 *   every answer (in a closed model that is the rate the harness sent at),
 *   of 429s and of other statuses; 429s are judged as a share of the
 *   requests offered, and the 2xx throughput and that share only where the
 *   two runs offered comparable rates (within the throughput limit) and the
 *   base run stayed under the rate limit (past it, what is admitted is the
 *   limit less what the window held when the load began: back-to-back loads
 *   of one service alternate between a full and an empty window, 1 916 and
 *   27 answers 2xx; the window verdicts judge the limit itself);
 * - the harness's own requests around the load (`setup.*`, `teardown.*`:
 *   its wallet reads) are never judged.
 */

/** What a load metric measures, which fixes its unit and its regression limit. */
export type CompareMetricKind = 'latency' | 'rps' | 'errors' | '429';

/** Regression limits per metric kind: fractions for latency and throughput, percentage points (as fractions) for rates. */
export type RegressionLimits = Record<CompareMetricKind, number>;

export type { Interval } from './metric-noise.js';

/** One load metric of one operation (and outcome) in both runs, and the rule's word on it. */
export interface MetricDelta {
  /** Gate metric name (`search.p95`, `search.2xx.p99`, `latency.rps`), so it can be pasted into `--threshold`. */
  metric: string;
  /** The operation (`all` for every operation together). */
  op: string;
  /** `any` for every answer of the operation, else one outcome. */
  outcome: 'any' | LatencyOutcome;
  /** The key: p50 … p99_9, max, rps, errors.rate, 429.rate. */
  key: string;
  kind: CompareMetricKind;
  base: number | undefined;
  new: number | undefined;
  /** new − base, in the metric's unit (ms, rps, or a fraction for rates). */
  change: number | undefined;
  /** (new − base) / base; undefined when base is 0 or absent. */
  relative: number | undefined;
  baseInterval?: Interval | undefined;
  newInterval?: Interval | undefined;
  /** The change exceeds the configured limit of its kind, in the worse direction. */
  beyondLimit: boolean;
  /** The two intervals do not overlap: sampling and histogram resolution cannot explain the change. */
  beyondNoise: boolean;
  /** Why the rule does not judge this metric (offered load, too few samples, the harness's own request); absent when it does. */
  notJudged?: string | undefined;
  /** Worse beyond both the limit and the noise. */
  regression: boolean;
  /** Better beyond both the limit and the noise. */
  improvement: boolean;
}

/** Samples a run needs above a percentile for it to be judged: p50 needs 20 answers, p99 1 000, p99.9 10 000. */
export const MIN_SAMPLES_BEYOND = 10;

/** Percentiles judged, with their quantile; `max` is shown but never judged (one sample has no interval). */
const PERCENTILES = [
  ['p50', 0.5],
  ['p90', 0.9],
  ['p95', 0.95],
  ['p99', 0.99],
  ['p99_9', 0.999],
] as const;

/** The harness's own requests around the load (its wallet reads before and after): never the service's figure under load. */
function isHarnessOwn(op: string): boolean {
  return op.startsWith('setup.') || op.startsWith('teardown.');
}

/** One side of a metric: its value and the interval the samples allow. */
interface Side {
  value: number | undefined;
  interval: Interval | undefined;
  /** Whether the value had samples to come from at all. */
  measured: boolean;
  /** Samples the value comes from (percentiles: answers of the outcome). */
  samples?: number | undefined;
}

interface MetricSpec {
  op: string;
  outcome: 'any' | LatencyOutcome;
  key: string;
  kind: CompareMetricKind;
  higherIsWorse: boolean;
  /** Why the metric is never judged (shown only), if so. */
  shownOnly?: string | undefined;
  /** Judged only where the two runs offered comparable rates. */
  needsComparableOffer?: boolean;
  /** A percentile's quantile: judged only with enough samples above it. */
  quantile?: number | undefined;
  side(load: LoadResult): Side;
}

const NONE: Side = { value: undefined, interval: undefined, measured: false };

function finite(v: number | null | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
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

const OFFERED = 'driven by the offered load: the rate the harness sent at, not the service';

const PAST_THE_LIMIT =
  "past the limit in the base run: what is admitted follows the limit and what the window held when each load began (the run before's requests among them), not the service; the window verdicts judge the limit";

function specsOf(op: string, outcomes: ReadonlyArray<'any' | LatencyOutcome>): MetricSpec[] {
  const specs: MetricSpec[] = [];
  for (const outcome of outcomes) {
    specs.push({
      op,
      outcome,
      key: 'rps',
      kind: 'rps',
      // Fewer 2xx per second is worse; every other throughput follows what was sent.
      higherIsWorse: false,
      ...(outcome === '2xx' ? { needsComparableOffer: true } : { shownOnly: OFFERED }),
      side: (load) => {
        const o = load.operations[op];
        const count = outcome === 'any' ? o?.count : latencyOf(o, outcome)?.latency.count;
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
        quantile: q,
        side: (load) => {
          const l = latencyOf(load.operations[op], outcome);
          if (!l || !(l.latency.count > 0)) return NONE;
          // Slow answers come in clusters of time (a stall slows a whole second): the interval is widened by their design effect.
          const designEffect = quantileDesignEffect(load, q, op, outcome, l.latency.count);
          return { value: finite(l.latency[key]), interval: quantileInterval(l.histogram, q, designEffect), measured: true, samples: l.latency.count };
        },
      });
    }
    specs.push({
      op,
      outcome,
      key: 'max',
      kind: 'latency',
      higherIsWorse: true,
      shownOnly: 'one sample has no interval',
      side: (load) => {
        const l = latencyOf(load.operations[op], outcome);
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
        // A share of the requests offered: more offered past the limit means a higher share, the limit at work.
        ...(kind === '429' ? { needsComparableOffer: true } : {}),
        side: (load) => {
          const o = load.operations[op];
          if (!o || !(o.count > 0)) return NONE;
          return { value: pick(o) / o.count, interval: proportionInterval(pick(o), o.count), measured: true };
        },
      });
    }
  }
  return specs;
}

/** Requests offered per second to one operation (every answer, and those cut off at the stop). */
function offeredRate(load: LoadResult, op: string): number | undefined {
  const o = load.operations[op];
  if (!o || !(load.durationS > 0)) return undefined;
  return (o.count + (o.cutOff ?? 0)) / load.durationS;
}

/** Why a metric is not judged for this pair of runs, or undefined when it is. */
function notJudgedWhy(
  spec: MetricSpec,
  base: Side,
  now: Side,
  offered: { base?: number | undefined; new?: number | undefined; limitedBase?: boolean },
  limits: RegressionLimits,
): string | undefined {
  if (isHarnessOwn(spec.op)) return "the harness's own request around the load, not the service under load";
  if (spec.shownOnly) return spec.shownOnly;
  if (!base.measured || !now.measured) return 'measured in one run only';
  if (spec.needsComparableOffer) {
    const b = offered.base;
    const n = offered.new;
    if (b === undefined || n === undefined || !(b > 0) || Math.abs(n / b - 1) > limits.rps) {
      const show = (v: number | undefined): string => (v === undefined ? '?' : `${Math.round(v * 10) / 10}`);
      return `the runs offered different rates (${show(b)} → ${show(n)} requests/s, beyond ${Math.round(limits.rps * 1000) / 10}%): this figure follows what was sent`;
    }
    // Past the limit, what is admitted is the limit less what the window still held when the load began (the run before's requests among them).
    if (offered.limitedBase) return PAST_THE_LIMIT;
  }
  if (spec.quantile !== undefined) {
    const need = Math.ceil(MIN_SAMPLES_BEYOND / (1 - spec.quantile) - 1e-9);
    const fewest = Math.min(base.samples ?? 0, now.samples ?? 0);
    if (fewest < need) return `too few samples: ${fewest} answer(s), ${spec.key} needs ${need} (${MIN_SAMPLES_BEYOND} above it)`;
  }
  return undefined;
}

/**
 * Why an outcome's percentiles are not judged: that outcome made a share of
 * one run more than twice or less than half its share of the other, so its
 * answers came under other conditions (a load that began with a full window
 * admits its 2xx one by one among 429s); every answer's percentiles are
 * judged still.
 */
function otherConditions(spec: MetricSpec, shares: { base: number; new: number } | undefined): string | undefined {
  if (!shares || !(shares.base > 0) || !(shares.new > 0)) return undefined;
  const ratio = shares.new / shares.base;
  if (ratio >= 0.5 && ratio <= 2) return undefined;
  const pct = (v: number): string => `${Math.round(v * 1000) / 10}%`;
  return `${spec.outcome} answers made ${pct(shares.base)} of one run and ${pct(shares.new)} of the other: they came under other conditions (the window's state when each load began); every answer's percentiles are judged`;
}

/** Judges one metric: worse (or better) beyond its limit and beyond what the two runs' samples explain. */
function judge(spec: MetricSpec, base: Side, now: Side, limits: RegressionLimits, notJudged: string | undefined): MetricDelta {
  const change = base.value !== undefined && now.value !== undefined ? now.value - base.value : undefined;
  const relative = change !== undefined && base.value ? change / base.value : undefined;
  // Rates move in percentage points; latency and throughput relative to BASE.
  const size = spec.kind === 'errors' || spec.kind === '429' ? change : relative;
  const worse = change !== undefined && (spec.higherIsWorse ? change > 0 : change < 0);
  const better = change !== undefined && (spec.higherIsWorse ? change < 0 : change > 0);
  const beyondLimit = size !== undefined && Math.abs(size) > limits[spec.kind];
  // Without a histogram (results of older versions) the samples' noise is unknown: the limit alone judges.
  const noiseKnown = base.interval !== undefined && now.interval !== undefined;
  const beyondNoise = base.measured && now.measured && (noiseKnown ? apart(base.interval, now.interval) : true);
  const judged = notJudged === undefined;
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
    beyondNoise: judged && beyondNoise,
    ...(judged ? {} : { notJudged }),
    regression: judged && worse && beyondLimit && beyondNoise,
    improvement: judged && better && beyondLimit && beyondNoise,
  };
}

/**
 * Every load metric of two runs, for every operation (and `all`), run-wide
 * and per outcome (2xx, 429, other status), in operation order, each judged
 * by the one rule (see the top of this file).
 */
export function judgeLoadMetrics(base: LoadResult, now: LoadResult, limits: RegressionLimits): MetricDelta[] {
  const names = [...new Set([...Object.keys(now.operations), ...Object.keys(base.operations)])];
  const ops = ['all', ...names.filter((o) => o !== 'all')].filter((o) => base.operations[o] || now.operations[o]);
  const metrics: MetricDelta[] = [];
  for (const op of ops) {
    let outcomes = LATENCY_OUTCOMES.filter((o) => [base, now].some((l) => (l.operations[op]?.latencyByOutcome?.[o]?.latency.count ?? 0) > 0));
    // An operation whose every answer in both runs had one outcome would list each figure twice, the same.
    if (outcomes.length === 1 && [base, now].every((l) => l.operations[op]?.latencyByOutcome?.[outcomes[0]!]?.latency.count === l.operations[op]?.count))
      outcomes = [];
    const offered = { base: offeredRate(base, op), new: offeredRate(now, op), limitedBase: (base.operations[op]?.rateLimited ?? 0) > 0 };
    const shareOf = (load: LoadResult, outcome: LatencyOutcome): number => {
      const o = load.operations[op];
      return o && o.count > 0 ? (latencyOf(o, outcome)?.latency.count ?? 0) / o.count : 0;
    };
    for (const spec of specsOf(op, ['any', ...outcomes])) {
      const b = spec.side(base);
      const a = spec.side(now);
      if (!b.measured && !a.measured) continue;
      const shares = spec.outcome === 'any' || spec.kind !== 'latency' ? undefined : { base: shareOf(base, spec.outcome), new: shareOf(now, spec.outcome) };
      metrics.push(judge(spec, b, a, limits, notJudgedWhy(spec, b, a, offered, limits) ?? otherConditions(spec, shares)));
    }
  }
  return metrics;
}
