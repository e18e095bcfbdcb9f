import { LATENCY_OUTCOMES, type LatencySummary, type LoadResult, type OperationFigures } from '../../results/load-result.js';

/**
 * The load figures the text writers show: headline scalars and a table per
 * operation (percentiles as columns); the rest stays in report.json.
 */

/** One row of the per-operation table. */
interface LoadRow {
  name: string;
  values: Record<string, string>;
}

/** What the text writers show of a load result. */
interface LoadTables {
  scalars: [string, string][];
  operations: { columns: string[]; rows: LoadRow[] };
}

/** The headline figures, in the order the load result declares them. */
const SCALARS = [
  'schema',
  'connections',
  'startedAt',
  'finishedAt',
  'durationS',
  'interrupted',
  'clock',
  'rps',
  'errorRate',
  'rateLimitedRate',
] as const satisfies ReadonlyArray<keyof LoadResult>;

const COUNTS = ['count', 'ok', 'rateLimited', 'errors', 'expected'] as const satisfies ReadonlyArray<keyof OperationFigures>;

const LATENCY = ['count', 'min', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99_9', 'max'] as const satisfies ReadonlyArray<keyof LatencySummary>;

function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

function formatScalar(v: string | number | boolean): string {
  return typeof v === 'number' ? formatNumber(v) : String(v);
}

/** One operation's cells: its counts, its responses by status, its latency percentiles. */
function operationValues(op: OperationFigures): Record<string, string> {
  const values: Record<string, string> = {};
  for (const k of COUNTS) {
    const v = op[k];
    if (v !== undefined) values[k] = formatNumber(v);
  }
  for (const [status, n] of Object.entries(op.statuses)) values[`statuses.${status}`] = formatNumber(n);
  // What `errors` and `expected` hold, by status and error.code.
  for (const [key, n] of Object.entries(op.errorsBy ?? {})) values[`errors.${key}`] = formatNumber(n);
  for (const [key, n] of Object.entries(op.expectedBy ?? {})) values[`expected.${key}`] = formatNumber(n);
  return { ...values, ...latencyValues(op.latency) };
}

/** The latency cells of a summary. */
function latencyValues(l: LatencySummary): Record<string, string> {
  const values: Record<string, string> = {};
  for (const k of LATENCY) values[`latency.${k}`] = formatNumber(l[k]);
  return values;
}

/** The scalar figures and the per-operation table of a load result. */
export function loadTables(load: LoadResult): LoadTables {
  const scalars = SCALARS.map((k): [string, string] => [k, formatScalar(load[k])]);
  const columns: string[] = [];
  // Each operation is followed by one row per outcome it had (`search 2xx`, `search 429`): the 2xx latency apart from fast 429s.
  const rows = Object.entries(load.operations).flatMap(([name, op]) => {
    const values = operationValues(op);
    for (const col of Object.keys(values)) if (!columns.includes(col)) columns.push(col);
    const split = op.latencyByOutcome;
    const outcomes = split
      ? LATENCY_OUTCOMES.filter((o) => split[o].latency.count > 0).map((o) => ({ name: `${name} ${o}`, values: latencyValues(split[o].latency) }))
      : [];
    return [{ name, values }, ...outcomes];
  });
  return { scalars, operations: { columns, rows } };
}
