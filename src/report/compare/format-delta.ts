import { withUnit, type GateMetricKind } from '../../results/gate-units.js';
import { formatDecimal } from '../../results/units.js';
import type { CaseChange, CompareMetricKind, Interval, MetricDelta } from './comparison.js';

/*
 * Figures of a comparison as every printer shows them: values in the
 * metric's unit, changes in that unit too (`+12.3 ms (+15%)`, `−120 rps`,
 * `+1.2 pt` for rates), so the console, Markdown and HTML agree.
 */

/** The unit kind of the report's formatter for a comparison metric kind. */
function unitKind(kind: CompareMetricKind): GateMetricKind {
  return kind === 'latency' ? 'latency' : kind === 'rps' ? 'throughput' : 'rate';
}

/** A value in its metric's unit, or `–` when that run did not measure it. */
export function formatMetricValue(m: Pick<MetricDelta, 'kind'>, v: number | undefined): string {
  return v === undefined ? '–' : withUnit(v, unitKind(m.kind));
}

function signed(v: number, decimals: number): string {
  const text = formatDecimal(Math.abs(v), decimals);
  // A change that rounds to nothing has no sign: `−0` reads as a fall.
  if (Number(text.replace(/\s/g, '')) === 0) return text;
  return `${v < 0 ? '−' : '+'}${text}`;
}

/** The change in the metric's unit, with the relative change for latency and throughput: `+12.3 ms (+15%)` (`+12.3 ms, +15%` inside parentheses), `+1.2 pt`. */
export function formatMetricChange(m: MetricDelta, inParens = false): string {
  if (m.change === undefined) return m.base === undefined ? 'new' : 'gone';
  if (m.kind === 'errors' || m.kind === '429') return `${signed(m.change * 100, 2)} pt`;
  const abs =
    m.kind === 'latency'
      ? `${signed(m.change, Math.abs(m.change) < 1 ? 2 : 1)} ms`
      : `${signed(m.change, Math.abs(m.change) >= 100 ? 0 : Math.abs(m.change) < 1 ? 2 : 1)} rps`;
  const rel = m.relative === undefined ? undefined : `${signed(m.relative * 100, 1)}%`;
  return rel === undefined ? abs : inParens ? `${abs}, ${rel}` : `${abs} (${rel})`;
}

/** An interval in the metric's unit: `11.8–12.4 ms`, `≥ 99.6 ms` when the samples bound it from below only. */
export function formatInterval(m: Pick<MetricDelta, 'kind'>, i: Interval | undefined): string {
  if (!i) return '–';
  if (!Number.isFinite(i.hi)) return `≥ ${formatMetricValue(m, i.lo)}`;
  const [lo, hi] = [formatMetricValue(m, i.lo), formatMetricValue(m, i.hi)];
  const unit = /\s(\S+)$/.exec(hi)?.[1];
  return unit && lo.endsWith(` ${unit}`) ? `${lo.slice(0, -unit.length - 1)}–${hi}` : `${lo}–${hi}`;
}

/** Why a metric is (or is not) called a regression, in a few words. */
export function metricJudgement(m: MetricDelta): string {
  if (m.regression) return 'regression';
  if (m.improvement) return 'improvement';
  if (m.notJudged !== undefined) return `not judged: ${m.notJudged}`;
  if (m.beyondLimit && !m.beyondNoise) return 'within noise';
  return 'within limit';
}

/** A case change as a heading: `Newly failing`. */
export const CASE_CHANGE_TITLE: Record<CaseChange, string> = {
  'newly-failing': 'Newly failing',
  'still-failing': 'Still failing',
  'newly-skipped': 'Newly skipped',
  fixed: 'Fixed',
  changed: 'Other verdict changes',
  added: 'New cases',
  removed: 'Removed cases',
};

/** The operation as reports name it: `every operation` for `all`. */
export function opLabel(op: string): string {
  return op === 'all' ? 'every operation' : op;
}

/** Metrics worth a line of their own: regressions, then improvements, then changes past the limit that the noise explains. */
export function notableMetrics(metrics: readonly MetricDelta[]): {
  regressions: MetricDelta[];
  improvements: MetricDelta[];
  withinNoise: MetricDelta[];
  notJudged: MetricDelta[];
} {
  return {
    regressions: metrics.filter((m) => m.regression),
    improvements: metrics.filter((m) => m.improvement),
    withinNoise: metrics.filter((m) => m.notJudged === undefined && m.beyondLimit && !m.beyondNoise && !m.regression && !m.improvement),
    notJudged: metrics.filter((m) => m.notJudged !== undefined && m.key !== 'max' && m.beyondLimit),
  };
}

/** The headline figures of each operation (every answer): p95, throughput, error and 429 rates. */
export const HEADLINE_KEYS = ['p50', 'p95', 'p99', 'rps', 'errors.rate', '429.rate'] as const;

/**
 * A lookup of every operation's figures over every answer (`outcome` any) by
 * operation and key: the renderers read a few per operation, and a search of
 * the whole list for each (3 000 operations, 90 000 metrics) took minutes.
 */
export function headlineMetrics(metrics: readonly MetricDelta[]): (op: string, key: string) => MetricDelta | undefined {
  const index = new Map<string, MetricDelta>();
  for (const m of metrics) {
    const k = `${m.op}\u0000${m.key}`;
    if (m.outcome === 'any' && !index.has(k)) index.set(k, m);
  }
  return (op, key) => index.get(`${op}\u0000${key}`);
}
