import type { GateResult } from '../load-result.js';

/** A gate as people read it: metric, comparison and both sides in the metric's unit. */
export interface GateFigures {
  metric: string;
  comparator: string;
  /** The measured value with its unit, or `not measured`. */
  actual: string;
  /** The bound with its unit. */
  limit: string;
  /** The bound in the metric's base unit (ms for latencies), for drawing. */
  bound: number | undefined;
  kind: 'latency' | 'rate' | 'throughput' | 'count';
}

const LATENCY = /(^|\.)(min|mean|p50|p90|p95|p99|p99_9|max)$/;

function kindOf(metric: string): GateFigures['kind'] {
  if (/(^|\.)rate$/.test(metric)) return 'rate';
  if (/(^|\.)rps$/.test(metric)) return 'throughput';
  if (LATENCY.test(metric)) return 'latency';
  return 'count';
}

function withUnit(v: number, kind: GateFigures['kind']): string {
  const round = (x: number, d: number): string => String(Number(x.toFixed(d)));
  switch (kind) {
    case 'latency':
      return `${round(v, 1)} ms`;
    case 'rate':
      return `${round(v * 100, 2)}%`;
    case 'throughput':
      return `${round(v, 1)} req/s`;
    case 'count':
      return round(v, 0);
  }
}

/**
 * The figures of a gate in the unit of its metric: latencies in ms, rates in
 * percent, throughput in requests per second, so `search.p95<200ms` reads
 * `5398.5 ms` against `< 200 ms` rather than two bare numbers.
 */
export function gateFigures(g: GateResult): GateFigures {
  const m = /^\s*([A-Za-z0-9_.-]+)\s*(<=|>=|<|>)/.exec(g.source);
  const metric = m?.[1] ?? g.source;
  const e = /^(<=|>=|<|>)\s*(-?[0-9.eE+-]+)$/.exec(g.expected.trim());
  const comparator = e?.[1] ?? m?.[2] ?? '';
  const bound = e ? Number(e[2]) : undefined;
  const kind = kindOf(metric);
  return {
    metric,
    comparator,
    actual: g.actual === undefined || !Number.isFinite(g.actual) ? 'not measured' : withUnit(g.actual, kind),
    limit: bound === undefined || !Number.isFinite(bound) ? g.expected : `${comparator} ${withUnit(bound, kind)}`,
    bound: bound !== undefined && Number.isFinite(bound) ? bound : undefined,
    kind,
  };
}
