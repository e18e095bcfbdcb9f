import type { GateResult, LoadResult, OperationFigures } from '../report/load-result.js';
import { compareWithBaseline, evaluateThresholds, type MetricLookup, type Threshold } from './gates.js';

const LATENCY_KEYS = ['min', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99_9', 'max'] as const;

function opMetric(op: OperationFigures, key: string, durationS: number): number | undefined {
  const k = key === 'p99.9' ? 'p99_9' : key;
  if ((LATENCY_KEYS as readonly string[]).includes(k)) return op.count === 0 ? undefined : op.latency[k as (typeof LATENCY_KEYS)[number]];
  if (k === 'count' || k === 'requests') return op.count;
  if (k === 'rps') return durationS > 0 ? op.count / durationS : undefined;
  if (k === 'errors.rate') return op.count ? op.errors / op.count : 0;
  if (k === 'errors.count' || k === 'errors') return op.errors;
  if (k === '429.rate' || k === 'rate_limited.rate') return op.count ? op.rateLimited / op.count : 0;
  if (k === '429.count' || k === 'rate_limited.count') return op.rateLimited;
  return undefined;
}

/**
 * Looks up a gate metric in a load result: `rps`, `requests`, `errors.rate`,
 * `429.rate`, and per operation `<op>.<p50|p90|p95|p99|p99_9|max|mean|rps|errors.rate|429.rate|count>`
 * (`latency.<…>` is every operation together).
 */
export function loadMetricLookup(result: LoadResult): MetricLookup {
  return (metric) => {
    const all = result.operations.all;
    switch (metric) {
      case 'rps':
        return result.rps;
      case 'requests':
        return result.totals.requests;
      case 'errors.rate':
        return result.errorRate;
      case 'errors.count':
        return result.totals.errors;
      case '429.rate':
      case 'rate_limited.rate':
        return result.rateLimitedRate;
    }
    const dot = metric.indexOf('.');
    if (dot === -1) return undefined;
    const opName = metric.slice(0, dot);
    const op = opName === 'latency' ? all : result.operations[opName];
    return op ? opMetric(op, metric.slice(dot + 1), result.durationS) : undefined;
  };
}

/** Metric names a load result can answer (for messages and baseline comparison). */
export function knownLoadMetrics(result: LoadResult): string[] {
  const out = ['rps', 'requests', 'errors.rate', '429.rate'];
  for (const name of Object.keys(result.operations)) {
    const op = name === 'all' ? 'latency' : name;
    for (const k of ['p50', 'p90', 'p95', 'p99', 'p99_9', 'max', 'rps', 'errors.rate']) out.push(`${op}.${k}`);
  }
  return out;
}

/** Gates of a load run: thresholds, then (when a baseline is given) regression against it. */
export function evaluateLoadGates(result: LoadResult, thresholds: readonly Threshold[], baseline?: { result: LoadResult; maxRegression: number }): GateResult[] {
  const lookup = loadMetricLookup(result);
  const gates = evaluateThresholds(thresholds, lookup, knownLoadMetrics(result));
  if (baseline) {
    const compared = ['rps', 'errors.rate', 'latency.p50', 'latency.p99', ...Object.keys(result.operations).filter((n) => n !== 'all').flatMap((n) => [`${n}.p50`, `${n}.p99`])];
    gates.push(...compareWithBaseline(compared, lookup, loadMetricLookup(baseline.result), baseline.maxRegression));
  }
  return gates;
}
