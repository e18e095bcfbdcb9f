import type { GateResult } from './load-result.js';
import { formatDecimal } from './units.js';

/*
 * The one unit formatter of gates: the HTML report, the console summary and
 * JUnit all print a gate through it, so `search.p95<200ms` reads `11.3 ms`
 * against `< 200 ms` everywhere, never two bare numbers.
 */

/** A gate as people read it: metric, comparison and both sides in the metric's unit. */
interface GateFigures {
  metric: string;
  comparator: string;
  /** The measured value with its unit, or `not measured`. */
  actual: string;
  /** The bound with its unit. */
  limit: string;
  /** The bound in the metric's base unit (ms for latencies), for drawing. */
  bound: number | undefined;
  kind: GateMetricKind;
}

/** What a gate metric measures, which fixes its unit. */
export type GateMetricKind = 'latency' | 'rate' | 'throughput' | 'count';

const LATENCY = /(^|\.)(min|mean|p50|p90|p95|p99|p99_9|p99\.9|max)$/;

/** The kind of a gate metric, from its name (`search.p95` a latency, `errors.rate` a rate, `rps` a throughput). */
function gateMetricKind(metric: string): GateMetricKind {
  if (/(^|\.)rate$/.test(metric)) return 'rate';
  if (/(^|\.)rps$/.test(metric)) return 'throughput';
  if (LATENCY.test(metric)) return 'latency';
  return 'count';
}

/** A value in the unit of its kind: `11.3 ms`, `0.01%`, `7 531 rps`, `1 085`. */
export function withUnit(v: number, kind: GateMetricKind): string {
  switch (kind) {
    case 'latency':
      return `${formatDecimal(v, 1)} ms`;
    case 'rate': {
      const pct = v * 100;
      // A rate above zero never reads as 0%: below 0.01% it keeps two significant digits (a bound of 0.00001 is 0.001%).
      if (pct > 0 && pct < 0.01) return `${pct.toFixed(Math.min(20, 1 - Math.floor(Math.log10(pct)))).replace(/0+$/, '')}%`;
      return `${formatDecimal(pct, 2)}%`;
    }
    case 'throughput':
      return `${formatDecimal(v, v >= 100 ? 0 : 1)} rps`;
    case 'count':
      return formatDecimal(v, 0);
  }
}

/** A value of a gate metric in its unit: `formatGateValue('search.p95', 11.27)` is `11.3 ms`. */
export function formatGateValue(metric: string, v: number): string {
  return withUnit(v, gateMetricKind(metric));
}

/**
 * The figures of a gate in the unit of its metric: latencies in ms, rates in
 * percent, throughput in requests per second, so `search.p95<200ms` reads
 * `5 398.5 ms` against `< 200 ms` rather than two bare numbers.
 */
export function gateFigures(g: GateResult): GateFigures {
  const m = /^\s*([A-Za-z0-9_.-]+)\s*(<=|>=|<|>)/.exec(g.source);
  const metric = m?.[1] ?? g.source;
  const e = /^(<=|>=|<|>)\s*(-?[0-9.eE+-]+)$/.exec(g.expected.trim());
  const comparator = e?.[1] ?? m?.[2] ?? '';
  const bound = e ? Number(e[2]) : undefined;
  const kind = gateMetricKind(metric);
  return {
    metric,
    comparator,
    actual: g.actual === undefined || !Number.isFinite(g.actual) ? 'not measured' : withUnit(g.actual, kind),
    limit: bound === undefined || !Number.isFinite(bound) ? g.expected : `${comparator} ${withUnit(bound, kind)}`,
    bound: bound !== undefined && Number.isFinite(bound) ? bound : undefined,
    kind,
  };
}

/** One line for a gate, in units: `search.p95 measured 11.3 ms, bound < 200 ms`. */
export function gateSentence(g: GateResult): string {
  const f = gateFigures(g);
  return `${f.metric} measured ${f.actual}, bound ${f.limit}`;
}
