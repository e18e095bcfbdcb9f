/**
 * Reads load results generically: the load runner's shape is its own, so the
 * writers show what they can recognise (scalar figures and a per-operation
 * table of numbers, percentiles included) and leave the rest to report.json.
 */

/** One row of the per-operation table. */
export interface LoadRow { name: string; values: Record<string, string> }

/** What the writers show of `RunResult.load`. */
export interface LoadTables {
  scalars: [string, string][];
  operations?: { columns: string[]; rows: LoadRow[] };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function formatScalar(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Flattens numeric fields one level deep (`latency.p99`), which is where percentiles usually sit. */
function flatNumbers(obj: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number') out[k] = formatScalar(v) ?? '';
    else if (isRecord(v)) {
      for (const [k2, v2] of Object.entries(v)) if (typeof v2 === 'number') out[`${k}.${k2}`] = formatScalar(v2) ?? '';
    }
  }
  return out;
}

/** Extracts scalar figures and an operations table from a load result of unknown shape. */
export function loadTables(load: unknown): LoadTables {
  const tables: LoadTables = { scalars: [] };
  if (!isRecord(load)) return tables;
  for (const [k, v] of Object.entries(load)) {
    const s = formatScalar(v);
    if (s !== undefined) tables.scalars.push([k, s]);
  }
  const ops = load['operations'];
  const entries: [string, Record<string, unknown>][] = [];
  if (Array.isArray(ops)) {
    ops.forEach((op, i) => {
      if (!isRecord(op)) return;
      const name = op['name'] ?? op['operation'] ?? op['id'] ?? `#${i + 1}`;
      entries.push([String(name), op]);
    });
  } else if (isRecord(ops)) {
    for (const [name, op] of Object.entries(ops)) if (isRecord(op)) entries.push([name, op]);
  }
  if (entries.length > 0) {
    const columns: string[] = [];
    const rows = entries.map(([name, op]) => {
      const values = flatNumbers(op);
      for (const col of Object.keys(values)) if (!columns.includes(col)) columns.push(col);
      return { name, values };
    });
    tables.operations = { columns, rows };
  }
  return tables;
}
