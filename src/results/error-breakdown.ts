import type { GateResult, LoadResult, OperationFigures } from './load-result.js';

/** Counts by status and `error.code` as one phrase, most first: `402 INSUFFICIENT_FUNDS × 57, 500 × 1` (empty when none). */
export function breakdownText(by: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(by ?? {})
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([k, n]) => `${k === 'none' ? 'no answer' : k} × ${n}`)
    .join(', ');
}

/** The operation an `errors.*` gate metric counts (`errors.rate` every operation, `book.errors.count` the bookings), or undefined for another metric. */
function errorsGateOperation(load: LoadResult, metric: string): OperationFigures | undefined {
  const m = /^(?:(.+)\.)?errors\.(rate|count)$/.exec(metric);
  if (!m) return undefined;
  const op = m[1] === undefined || m[1] === 'latency' ? 'all' : m[1];
  return load.operations[op];
}

/**
 * What stands behind a gate's figure, for a broken gate's card: the errors
 * by status and code (and the refusals provoked on purpose, not counted),
 * or a baseline gate's two runs and their intervals; undefined otherwise.
 */
export function gateBreakdown(load: LoadResult, gate: GateResult): string | undefined {
  if (gate.id.startsWith('gate:baseline:')) return gate.message;
  const metric = /^\s*([A-Za-z0-9_.-]+)/.exec(gate.source)?.[1] ?? '';
  const op = errorsGateOperation(load, metric);
  if (!op) return undefined;
  const errors = breakdownText(op.errorsBy);
  const expected = breakdownText(op.expectedBy);
  return `errors by status and code: ${errors || (op.errors > 0 ? `${op.errors} (by status: not recorded)` : 'none')}${expected ? `; not counted, refusals the load provoked on purpose: ${expected}` : ''}`;
}
