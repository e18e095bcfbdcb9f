import type { GateResult, LoadResult, OperationFigures } from '../../results/load-result.js';
import { formatGateValue } from '../../results/gate-units.js';
import { evaluateThresholds, type MetricLookup, type Threshold } from './gates.js';
import { judgeLoadMetrics, type MetricDelta, type RegressionLimits } from './regression-rule.js';
import { OPERATION_METRICS, RUN_METRICS, splitGateMetric, type OperationMetric } from './gate-metrics.js';
import type { Interval } from './metric-noise.js';

const LATENCY_KEYS = ['min', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99_9', 'max'] as const;

function opMetric(op: OperationFigures, key: OperationMetric, durationS: number): number | undefined {
  if ((LATENCY_KEYS as readonly string[]).includes(key)) return op.count === 0 ? undefined : op.latency[key as (typeof LATENCY_KEYS)[number]];
  switch (key) {
    case 'count':
      return op.count;
    case 'rps':
      return durationS > 0 ? op.count / durationS : undefined;
    case 'errors.rate':
      return op.count ? op.errors / op.count : 0;
    case 'errors.count':
      return op.errors;
    case '429.rate':
      return op.count ? op.rateLimited / op.count : 0;
    case '429.count':
      return op.rateLimited;
  }
  return undefined;
}

/**
 * Looks up a gate metric in a load result (names in gate-metrics.ts): a run
 * metric, or `<op>.<key>` for one operation (`latency.<key>` is every
 * operation together); undefined when the run did not measure it.
 */
export function loadMetricLookup(result: LoadResult): MetricLookup {
  return (metric) => {
    const m = splitGateMetric(metric);
    if (!m) return undefined;
    if (m.scope === 'run') {
      switch (m.name) {
        case 'rps':
          return result.rps;
        case 'requests':
          return result.totals.requests;
        case 'errors.rate':
          return result.errorRate;
        case 'errors.count':
          return result.totals.errors;
        case '429.rate':
          return result.rateLimitedRate;
        case '429.count':
          return result.totals.rateLimited;
      }
    }
    const op = m.op === 'latency' ? result.operations.all : result.operations[m.op];
    if (!op) return undefined;
    if (m.outcome !== undefined) {
      // Results of older versions have no split: the metric was not measured.
      const l = op.latencyByOutcome?.[m.outcome]?.latency;
      if (!l) return undefined;
      return m.key === 'count' ? l.count : l.count === 0 ? undefined : l[m.key as Exclude<keyof typeof l, 'count'>];
    }
    return opMetric(op, m.key, result.durationS);
  };
}

/** Metric names a load result can answer (for messages and baseline comparison). */
function knownLoadMetrics(result: LoadResult): string[] {
  const out: string[] = [...RUN_METRICS];
  for (const name of Object.keys(result.operations)) {
    const op = name === 'all' ? 'latency' : name;
    for (const k of OPERATION_METRICS) out.push(`${op}.${k}`);
  }
  return out;
}

/** Keys every baseline gate names when the rule judges them (a JUnit case each, so CI history follows them); any other regression is added. */
const BASELINE_KEYS: ReadonlySet<string> = new Set(['p50', 'p99', 'errors.rate']);

function fractionText(v: number): string {
  return `${Math.round(v * 10_000) / 100}%`;
}

/** One judged metric as a baseline gate: `gate:baseline:search.p99`, broken when the rule calls it a regression. */
function baselineGate(d: MetricDelta, limits: RegressionLimits): GateResult {
  const value = (v: number | undefined): string => (v === undefined ? 'not measured' : formatGateValue(d.metric, v));
  const points = d.kind === 'errors' || d.kind === '429';
  const limit = points ? `+${fractionText(limits[d.kind]).replace('%', ' pt')}` : fractionText(limits[d.kind]);
  const change =
    d.change === undefined
      ? ''
      : points
        ? ` (${d.change >= 0 ? '+' : ''}${fractionText(d.change).replace('%', ' pt')})`
        : d.relative !== undefined
          ? ` (${d.relative >= 0 ? '+' : ''}${fractionText(d.relative)})`
          : '';
  // An interval the samples bound from below only (too few independent seconds for the quantile) reads `≥ lo`.
  const interval = (i: Interval): string => (Number.isFinite(i.hi) ? `${value(i.lo)}–${value(i.hi)}` : `≥ ${value(i.lo)}`);
  const noise = d.baseInterval && d.newInterval ? `; 95% intervals ${interval(d.baseInterval)} vs ${interval(d.newInterval)}` : '';
  const unbounded = [d.baseInterval, d.newInterval].some((i) => i !== undefined && !Number.isFinite(i.hi));
  const why = d.regression
    ? `worse beyond ${limit} and beyond the noise`
    : !d.beyondLimit
      ? `within ${limit}`
      : unbounded
        ? `within the noise: too few independent seconds to bound it from above (a longer load can judge it)`
        : `within the noise of the two runs`;
  return {
    id: `gate:baseline:${d.metric}`,
    source: `baseline ${d.metric}`,
    passed: !d.regression,
    actual: d.new,
    expected: `within ${limit} of ${value(d.base)}, or within the noise`,
    message: `${d.metric} ${value(d.base)} → ${value(d.new)}${change}${noise}: ${why}`,
  };
}

/**
 * Gates against a baseline run, by the one rule `report compare` applies
 * (regression-rule.ts): each operation's p50, p99 and error rate where the
 * rule judges them, and every other metric it calls a regression.
 */
function baselineGates(result: LoadResult, baseline: LoadResult, limits: RegressionLimits): GateResult[] {
  return judgeLoadMetrics(baseline, result, limits)
    .filter((d) => d.notJudged === undefined && (d.regression || (d.outcome === 'any' && BASELINE_KEYS.has(d.key))))
    .map((d) => baselineGate(d, limits));
}

/** Gates of a load run: thresholds, then (when a baseline is given) regression against it. */
export function evaluateLoadGates(
  result: LoadResult,
  thresholds: readonly Threshold[],
  baseline?: { result: LoadResult; limits: RegressionLimits },
): GateResult[] {
  const gates = evaluateThresholds(thresholds, loadMetricLookup(result), knownLoadMetrics(result));
  if (baseline) gates.push(...baselineGates(result, baseline.result, baseline.limits));
  return gates;
}
