import type { LoadResult, OperationFigures, Spectrum } from '../../results/load-result.js';
import { decodeHistogram } from '../../load/gate/metric-noise.js';
import { judgeLoadMetrics, type RegressionLimits } from '../../load/gate/regression-rule.js';
import type { LoadComparison, SpectrumPair } from './comparison.js';

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
 * latency percentiles, each with its change in the metric's unit, judged by
 * the one regression rule `load --baseline` uses too (regression-rule.ts).
 */
export function diffLoads(base: LoadResult, now: LoadResult, limits: RegressionLimits): LoadComparison {
  const metrics = judgeLoadMetrics(base, now, limits);
  const ops = [...new Set(metrics.map((m) => m.op))];
  const spectra: SpectrumPair[] = ops.map((op) => ({ op, base: spectrumOf(base.operations[op]), new: spectrumOf(now.operations[op]) }));
  return { limits, metrics, spectra, series: { base: base.series, new: now.series }, durationS: { base: base.durationS, new: now.durationS } };
}
