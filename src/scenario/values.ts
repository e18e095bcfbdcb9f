/**
 * Saved values, `{{name}}` interpolation, view paths with list filters, field
 * matchers and balance-delta expressions: the small language of scenarios.
 * Public to the load runner, which compiles journeys into requests with it.
 */

const WHOLE = /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/;
const PART = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Resolves one `{{name}}`; throws with the name when it is unknown. */
type Resolver = (name: string) => unknown;

/** An interpolation named a value that was never saved. */
export class UnknownValueError extends Error {}

/** Interpolates a value: a string that is exactly `{{x}}` becomes x's value whatever its type; objects and lists deeply. */
export function interpolate(value: unknown, resolve: Resolver): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return resolve(whole[1]!);
    return value.replace(PART, (_m, name: string) => {
      const v = resolve(name);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, resolve));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, resolve)]));
  }
  return value;
}

/** The names a value interpolates (for validation). */
export function referencedNames(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PART)].map((m) => m[1]!);
  if (Array.isArray(value)) return value.flatMap(referencedNames);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(referencedNames);
  return [];
}

/** Splits a path on dots outside brackets: `entries[type=debit].0.amount`. */
function segments(path: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of path) {
    if (ch === '[') depth += 1;
    if (ch === ']') depth -= 1;
    if (ch === '.' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const FILTER = /^([^[]*)\[([^=\]]+)=([^\]]*)\]$/;

/**
 * Reads a path of a view: dotted names, list indexes, `length` of a list, and
 * list filters `name[field=value]` keeping the items whose field equals value
 * (compared as text).
 */
export function readPath(obj: unknown, path: string): unknown {
  if (path === '') return obj;
  let cur: unknown = obj;
  for (const seg of segments(path)) {
    const filter = FILTER.exec(seg);
    const name = filter ? filter[1]! : seg;
    if (name !== '') cur = step(cur, name);
    if (filter) {
      if (!Array.isArray(cur)) return undefined;
      const [, , field, want] = filter;
      cur = cur.filter((item) => {
        const v = readPath(item, field!.trim());
        return v !== undefined && v !== null && String(v) === want!.trim();
      });
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

function step(cur: unknown, name: string): unknown {
  if (Array.isArray(cur)) {
    if (name === 'length') return cur.length;
    return /^\d+$/.test(name) ? cur[Number(name)] : undefined;
  }
  if (cur !== null && typeof cur === 'object' && Object.prototype.hasOwnProperty.call(cur, name)) return (cur as Record<string, unknown>)[name];
  return undefined;
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function same(a: unknown, b: unknown): boolean {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return String(a) === String(b);
}

const OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'exists'] as const;

/** True when `m` is a comparison object rather than a plain expected value. */
function isComparison(m: unknown): m is Record<string, unknown> {
  return (
    m !== null && typeof m === 'object' && !Array.isArray(m) && Object.keys(m).length > 0 && Object.keys(m).every((k) => (OPS as readonly string[]).includes(k))
  );
}

/** Judges one value against one (interpolated) matcher; undefined when it matches, else why not. */
export function matchValue(actual: unknown, matcher: unknown): string | undefined {
  const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));
  if (!isComparison(matcher)) return same(actual, matcher) ? undefined : `expected ${show(matcher)}, got ${show(actual)}`;
  for (const [op, want] of Object.entries(matcher)) {
    if (op === 'exists') {
      if ((actual !== undefined && actual !== null) !== want) return want ? 'expected a value, got nothing' : `expected nothing, got ${show(actual)}`;
      continue;
    }
    if (op === 'eq' && !same(actual, want)) return `expected ${show(want)}, got ${show(actual)}`;
    if (op === 'ne' && same(actual, want)) return `expected anything but ${show(want)}`;
    if (op === 'in' && !(Array.isArray(want) && want.some((w) => same(actual, w)))) return `expected one of ${show(want)}, got ${show(actual)}`;
    if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') {
      const a = asNumber(actual);
      const w = asNumber(want);
      if (a === undefined || w === undefined) return `expected a number ${op} ${show(want)}, got ${show(actual)}`;
      const ok = op === 'gt' ? a > w : op === 'gte' ? a >= w : op === 'lt' ? a < w : a <= w;
      if (!ok) return `expected ${op} ${show(want)}, got ${show(actual)}`;
    }
  }
  return undefined;
}

/**
 * Evaluates an integer expression of numbers joined by `+` and `-` (each
 * number may carry its own sign): `-4900`, `1200 - 4900`, `0 - -5`.
 * Undefined when the text is not such an expression.
 */
export function evalIntExpression(text: string): number | undefined {
  const tokens = text.replace(/\s+/g, '').match(/[+-]|\d+(?:\.\d+)?|./g) ?? [];
  let i = 0;
  const term = (): number | undefined => {
    let sign = 1;
    while (tokens[i] === '+' || tokens[i] === '-') {
      if (tokens[i] === '-') sign = -sign;
      i += 1;
    }
    const t = tokens[i];
    if (t === undefined || !/^\d/.test(t)) return undefined;
    i += 1;
    return sign * Number(t);
  };
  let total = term();
  if (total === undefined) return undefined;
  while (i < tokens.length) {
    const op = tokens[i];
    if (op !== '+' && op !== '-') return undefined;
    i += 1;
    const next = term();
    if (next === undefined) return undefined;
    total = op === '+' ? total + next : total - next;
  }
  return total;
}
