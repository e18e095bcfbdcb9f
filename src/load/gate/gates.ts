import { HarnessError } from '../../errors/harness-error.js';
import { formatGateValue, gateSentence } from '../../results/gate-units.js';
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

/** Which direction is worse for a metric: latencies and error rates up, throughput down. */
function higherIsWorse(metric: string): boolean {
  return !/(^|\.)rps$/.test(metric);
}

/**
 * Compares metrics against a baseline: a metric that got worse by more than
 * `maxRegression` (a fraction: 0.1 = 10%) fails. Metrics absent from either
 * side are not compared.
 */
export function compareWithBaseline(metrics: readonly string[], current: MetricLookup, baseline: MetricLookup, maxRegression: number): GateResult[] {
  const out: GateResult[] = [];
  for (const metric of metrics) {
    const now = current(metric);
    const before = baseline(metric);
    if (now === undefined || before === undefined || before === 0) continue;
    const change = (now - before) / before;
    const worse = higherIsWorse(metric) ? change : -change;
    const passed = worse <= maxRegression;
    out.push({
      id: `gate:baseline:${metric}`,
      source: `baseline ${metric}`,
      passed,
      actual: now,
      expected: `within ${round(maxRegression * 100)}% of ${formatGateValue(metric, before)}`,
      message: `${metric} ${formatGateValue(metric, before)} → ${formatGateValue(metric, now)} (${change >= 0 ? '+' : ''}${round(change * 100)}%, ${passed ? 'within' : 'beyond'} ${round(maxRegression * 100)}%)`,
    });
  }
  return out;
}

/** Parses `10%` or `0.1` into a fraction. */
export function parseRegression(text: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*(%)?\s*$/.exec(text);
  if (!m) throw new HarnessError('E_USAGE', `--max-regression must be a percentage like 10% or a fraction like 0.1, got "${text}"`);
  const v = Number(m[1]);
  return m[2] ? v / 100 : v;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
