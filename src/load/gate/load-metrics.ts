import type { GateResult, LoadResult, OperationFigures } from '../../results/load-result.js';
import { compareWithBaseline, evaluateThresholds, type MetricLookup, type Threshold } from './gates.js';
import { OPERATION_METRICS, RUN_METRICS, splitGateMetric, type OperationMetric } from './gate-metrics.js';

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

/** Gates of a load run: thresholds, then (when a baseline is given) regression against it. */
export function evaluateLoadGates(
  result: LoadResult,
  thresholds: readonly Threshold[],
  baseline?: { result: LoadResult; maxRegression: number },
): GateResult[] {
  const lookup = loadMetricLookup(result);
  const gates = evaluateThresholds(thresholds, lookup, knownLoadMetrics(result));
  if (baseline) {
    const compared = [
      'rps',
      'errors.rate',
      'latency.p50',
      'latency.p99',
      ...Object.keys(result.operations)
        .filter((n) => n !== 'all')
        .flatMap((n) => [`${n}.p50`, `${n}.p99`]),
    ];
    gates.push(...compareWithBaseline(compared, lookup, loadMetricLookup(baseline.result), baseline.maxRegression));
  }
  return gates;
}
