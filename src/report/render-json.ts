import type { CaseRunResult } from '../results/run-result.js';

/** Top-level keys in the model's order, so diffs between runs line up. */
const TOP_LEVEL_ORDER = [
  'schema',
  'kind',
  'runId',
  'command',
  'tool',
  'target',
  'seed',
  'startedAt',
  'finishedAt',
  'durationMs',
  'summary',
  'verdict',
  'verdictReason',
  'notes',
  'cases',
  'exchanges',
  'timelines',
  'load',
] as const;

/**
 * Renders `report.json`: the whole run result, evidence included, with a
 * fixed top-level key order and 2-space indent. Values JSON cannot hold
 * (bigint, Map, Set, bytes, errors, cycles) inside the free-form `details`
 * of a case are turned into plain data instead of throwing.
 */
export function renderJson(result: CaseRunResult): string {
  const fields: Record<string, unknown> = { ...result };
  const ordered: Record<string, unknown> = {};
  for (const key of TOP_LEVEL_ORDER) if (key in fields) ordered[key] = fields[key];
  for (const [key, value] of Object.entries(fields)) if (!(key in ordered)) ordered[key] = value;
  return `${JSON.stringify(ordered, plainReplacer(), 2)}\n`;
}

function plainReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  // Stack of objects being serialised: the original value and what it was turned into (its children's holder).
  const stack: { original: object; holder: unknown }[] = [];
  return function replace(this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return value.toString();
    if (value === null || typeof value !== 'object') return value;
    while (stack.length > 0 && stack[stack.length - 1]?.holder !== this) stack.pop();
    if (stack.some((s) => s.original === value)) return '[Circular]';
    const plain = toPlain(value);
    stack.push({ original: value, holder: plain });
    return plain;
  };
}

function toPlain(value: object): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), v]));
  if (value instanceof Set) return [...value];
  if (value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') };
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}
