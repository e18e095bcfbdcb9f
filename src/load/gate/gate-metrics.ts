import { HarnessError } from '../../errors/harness-error.js';
import { LATENCY_OUTCOMES, type LatencyOutcome } from '../../results/load-result.js';
import { STEP_ACTIONS } from '../../scenario/types.js';
import type { Threshold } from './gates.js';

/*
 * The vocabulary of gate metrics, known before any load runs, so that a
 * misspelt gate is refused at once instead of failing after the whole load.
 */

/** Metrics of the whole run. */
export const RUN_METRICS = ['rps', 'requests', 'errors.rate', 'errors.count', '429.rate', '429.count'] as const;

/** Other names accepted for run metrics. */
const RUN_ALIASES: Readonly<Record<string, string>> = { 'rate_limited.rate': '429.rate', 'rate_limited.count': '429.count' };

/** Other names accepted for operation keys. */
const KEY_ALIASES: Readonly<Record<string, string>> = { ...RUN_ALIASES, 'p99.9': 'p99_9', errors: 'errors.count', requests: 'count' };

/** What one operation (or `latency`, every operation together) answers: latencies in ms, counts, rates. */
export const OPERATION_METRICS = [
  'count',
  'rps',
  'min',
  'mean',
  'p50',
  'p90',
  'p95',
  'p99',
  'p99_9',
  'max',
  'errors.rate',
  'errors.count',
  '429.rate',
  '429.count',
] as const;

/** An operation key, after aliases. */
export type OperationMetric = (typeof OPERATION_METRICS)[number];

/** Operations a load can measure: scenario steps that send, and the limit pusher's requests; `latency` is all of them. */
const LOAD_OPERATIONS: readonly string[] = [
  'latency',
  ...STEP_ACTIONS.filter((a) => a !== 'wait' && a !== 'repeat' && a !== 'set'),
  'push.search',
  'push.book',
  'push.probe',
];

/** Keys an outcome of an operation answers (`search.2xx.p95`, `latency.429.count`): its latencies and how many answers it had. */
const OUTCOME_METRICS = ['count', 'min', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99_9', 'max'] as const satisfies readonly OperationMetric[];

/**
 * A gate metric split into what it measures: the whole run, or one key of one
 * operation, optionally of its answers of one outcome only (2xx, 429, other).
 */
type GateMetric = { scope: 'run'; name: (typeof RUN_METRICS)[number] } | { scope: 'operation'; op: string; key: OperationMetric; outcome?: LatencyOutcome };

const KEYS_LONGEST_FIRST = [...OPERATION_METRICS, ...Object.keys(KEY_ALIASES)].sort((a, b) => b.length - a.length);

/**
 * Splits a metric name: a run metric (`rps`, `429.rate`) or `<op>.<key>`
 * (`search.p95`, `push.search.p99`, `latency.mean`). Undefined when the key is
 * not one of {@link OPERATION_METRICS}; the operation is not checked here.
 */
export function splitGateMetric(metric: string): GateMetric | undefined {
  const run = RUN_ALIASES[metric] ?? metric;
  if ((RUN_METRICS as readonly string[]).includes(run)) return { scope: 'run', name: run as (typeof RUN_METRICS)[number] };
  for (const k of KEYS_LONGEST_FIRST) {
    if (!metric.endsWith(`.${k}`)) continue;
    const op = metric.slice(0, -(k.length + 1));
    if (op === '') return undefined;
    const key = (KEY_ALIASES[k] ?? k) as OperationMetric;
    const outcome = LATENCY_OUTCOMES.find((o) => op.endsWith(`.${o}`));
    if (outcome && (OUTCOME_METRICS as readonly string[]).includes(key)) return { scope: 'operation', op: op.slice(0, -(outcome.length + 1)), key, outcome };
    return { scope: 'operation', op, key };
  }
  return undefined;
}

/** Every metric a gate may name, as one line for a message. */
function describeGateMetrics(): string {
  return `${RUN_METRICS.join(', ')}, or <operation>.<${OPERATION_METRICS.join('|')}> where <operation> is ${LOAD_OPERATIONS.join(', ')} (latency = every operation together; times in ms), or <operation>.<${LATENCY_OUTCOMES.join('|')}>.<${OUTCOME_METRICS.join('|')}> for its answers of one outcome (e.g. search.2xx.p95)`;
}

/** Throws one E_USAGE naming every gate whose metric does not exist, and every metric that does. */
export function assertGateMetrics(thresholds: readonly Threshold[]): void {
  const wrong = thresholds.filter((t) => {
    const m = splitGateMetric(t.metric);
    return m === undefined || (m.scope === 'operation' && !LOAD_OPERATIONS.includes(m.op));
  });
  if (wrong.length === 0) return;
  throw new HarnessError(
    'E_USAGE',
    `unknown gate metric${wrong.length > 1 ? 's' : ''} ${wrong.map((t) => `"${t.metric}" (in ${t.source})`).join(', ')}; the metrics are ${describeGateMetrics()}`,
  );
}
