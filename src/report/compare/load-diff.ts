import type { LoadResult, OperationFigures, Spectrum } from '../../results/load-result.js';
import { decodeHistogram } from '../../load/gate/metric-noise.js';
import { judgeLoadMetrics, type RegressionLimits } from '../../load/gate/regression-rule.js';
import type { LoadComparison, SpectrumPair } from './comparison.js';

/** Most latency spectra drawn: a chart per operation is readable for tens, not thousands (3 000 made a 25 MB page). */
const MAX_SPECTRA = 24;

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
 * Spectra are drawn for `all` and the regressed operations first, at most
 * {@link MAX_SPECTRA}; only those are read from their histograms.
 */
export function diffLoads(base: LoadResult, now: LoadResult, limits: RegressionLimits): LoadComparison {
  const metrics = judgeLoadMetrics(base, now, limits);
  // An operation has a spectrum when either run measured it (a histogram, or else its summary's percentiles).
  const measured = [...new Set(metrics.map((m) => m.op))].filter((op) => [base, now].some((l) => (l.operations[op]?.count ?? 0) > 0));
  const regressed = new Set(metrics.filter((m) => m.regression).map((m) => m.op));
  const rank = (op: string): number => (op === 'all' ? 0 : regressed.has(op) ? 1 : 2);
  const charted = measured
    .map((op, i) => ({ op, i }))
    .sort((a, b) => rank(a.op) - rank(b.op) || a.i - b.i)
    .slice(0, MAX_SPECTRA)
    .sort((a, b) => a.i - b.i);
  const spectra: SpectrumPair[] = charted.map(({ op }) => ({ op, base: spectrumOf(base.operations[op]), new: spectrumOf(now.operations[op]) }));
  return {
    limits,
    metrics,
    spectra,
    spectrumOps: measured.length,
    series: { base: base.series, new: now.series },
    durationS: { base: base.durationS, new: now.durationS },
  };
}
