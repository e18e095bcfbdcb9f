import { HarnessError } from '../../errors/harness-error.js';
import { gateSentence } from '../../results/gate-units.js';
import type { GateResult } from '../../results/load-result.js';

/** A comparison in a threshold. */
export type Comparator = '<' | '<=' | '>' | '>=';

/** One threshold, e.g. `search.p95<200ms`: metric `search.p95`, `<`, 200 (ms). */
export interface Threshold {
  source: string;
  metric: string;
  comparator: Comparator;
  value: number;
}

const THRESHOLD_RE = /^\s*([A-Za-z0-9_.-]+)\s*(<=|>=|<|>)\s*([0-9]*\.?[0-9]+)\s*(ms|s|%)?\s*$/;

/**
 * Parses a threshold. Units: `ms` (default for latencies), `s` (converted to
 * ms), `%` (divided by 100, for rates). A malformed threshold is a usage error
 * quoting it.
 */
export function parseThreshold(text: string): Threshold {
  const m = THRESHOLD_RE.exec(text);
  if (!m) {
    throw new HarnessError('E_USAGE', `threshold "${text}" is not of the form <metric><op><number>[ms|s|%], e.g. search.p95<200ms, errors.rate<0.01, rps>=500`);
  }
  const [, metric, comparator, num, unit] = m;
  let value = Number(num);
  if (unit === 's') value *= 1000;
  if (unit === '%') value /= 100;
  return { source: text.trim(), metric: metric!, comparator: comparator as Comparator, value };
}

/** Parses a list of thresholds (flags, or lines of a file: `#` comments and blank lines ignored). */
export function parseThresholds(lines: readonly string[]): Threshold[] {
  return lines
    .flatMap((l) => l.split(','))
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '')
    .map(parseThreshold);
}

function compare(actual: number, c: Comparator, v: number): boolean {
  switch (c) {
    case '<':
      return actual < v;
    case '<=':
      return actual <= v;
    case '>':
      return actual > v;
    case '>=':
      return actual >= v;
  }
}

/** Looks up a metric by dotted name (e.g. `search.p95`, `errors.rate`, `rps`); undefined when unknown. */
export type MetricLookup = (metric: string) => number | undefined;

/** Evaluates thresholds; an unknown metric fails its gate and says which metrics exist. */
export function evaluateThresholds(thresholds: readonly Threshold[], lookup: MetricLookup, known: readonly string[]): GateResult[] {
  return thresholds.map((t) => {
    const actual = lookup(t.metric);
    if (actual === undefined || Number.isNaN(actual)) {
      return {
        id: `gate:${t.source}`,
        source: t.source,
        passed: false,
        actual: undefined,
        expected: `${t.comparator} ${t.value}`,
        message: `metric "${t.metric}" was not measured; known metrics: ${known.join(', ')}`,
      };
    }
    const passed = compare(actual, t.comparator, t.value);
    const gate: GateResult = { id: `gate:${t.source}`, source: t.source, passed, actual, expected: `${t.comparator} ${t.value}`, message: '' };
    // In the metric's unit, as every report prints gates: `search.p95 measured 11.3 ms, bound < 200 ms: held`.
    gate.message = `${gateSentence(gate)}: ${passed ? 'held' : 'broken'}`;
    return gate;
  });
}
