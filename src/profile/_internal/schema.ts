import { isPlainObject } from './deep-merge.js';
import { isSecretPath, typeOf } from './secret-fields.js';

/** A small shape description, enough to judge a profile field by field. */
export type Schema =
  | { kind: 'string'; nonEmpty?: boolean; pattern?: RegExp; patternText?: string }
  | { kind: 'url' }
  | { kind: 'int'; min: number; max?: number; what: string }
  | { kind: 'number'; min: number; max?: number; exclusiveMin?: boolean; what: string }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'nullable'; of: Schema }
  | { kind: 'object'; fields: Record<string, Schema>; optional?: readonly string[]; check?: (value: Record<string, unknown>, path: string) => string[] }
  | { kind: 'array'; of: Schema; minItems?: number }
  | { kind: 'record'; of: Schema; minKeys?: number }
  | { kind: 'union'; tag: string; variants: Record<string, Schema & { kind: 'object' }> }
  | { kind: 'json' };

/** How a received value is shown in a message: strings quoted, shapes named. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isPlainObject(value)) return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}

function expected(schema: Schema): string {
  switch (schema.kind) {
    case 'string':
      return schema.patternText ?? (schema.nonEmpty ? 'a non-empty string' : 'a string');
    case 'url':
      return 'an http(s) URL';
    case 'int':
    case 'number':
      return schema.what;
    case 'enum':
      return `one of ${schema.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'nullable':
      return `${expected(schema.of)} or null`;
    case 'object':
      return 'an object';
    case 'array':
      return schema.minItems ? `a list of at least ${schema.minItems} item${schema.minItems > 1 ? 's' : ''}` : 'a list';
    case 'record':
      return 'an object';
    case 'union':
      return 'an object';
    case 'json':
      return 'a JSON value';
  }
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** The known key closest to a typo, when close enough to be a likely typo. */
function suggest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** Judges `value` against `schema`; one message per wrong field, each naming its path, what was expected and what came. */
export function validate(schema: Schema, value: unknown, path: string): string[] {
  // A secret-like field's value is never echoed: a wrong-typed secret is still a secret.
  const shown = (v: unknown): string => (isSecretPath(path) ? typeOf(v) : show(v));
  const bad = (): string[] => [`${path || 'profile'} must be ${expected(schema)}, got ${shown(value)}`];
  switch (schema.kind) {
    case 'json':
      return [];
    case 'string': {
      if (typeof value !== 'string' || (schema.nonEmpty && value.trim() === '')) return bad();
      if (schema.pattern && !schema.pattern.test(value)) return bad();
      return [];
    }
    case 'url': {
      if (typeof value !== 'string') return bad();
      try {
        const u = new URL(value);
        return u.protocol === 'http:' || u.protocol === 'https:' ? [] : bad();
      } catch {
        return bad();
      }
    }
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= schema.min && value <= (schema.max ?? Infinity) ? [] : bad();
    case 'number':
      return typeof value === 'number' &&
        Number.isFinite(value) &&
        (schema.exclusiveMin ? value > schema.min : value >= schema.min) &&
        value <= (schema.max ?? Infinity)
        ? []
        : bad();
    case 'enum':
      return typeof value === 'string' && schema.values.includes(value) ? [] : bad();
    case 'nullable':
      return value === null
        ? []
        : validate(schema.of, value, path).map((m) => (m.startsWith(`${path} must be `) ? `${path} must be ${expected(schema)}, got ${shown(value)}` : m));
    case 'array': {
      if (!Array.isArray(value) || value.length < (schema.minItems ?? 0)) return bad();
      return value.flatMap((item, i) => validate(schema.of, item, join(path, i)));
    }
    case 'record': {
      if (!isPlainObject(value) || Object.keys(value).length < (schema.minKeys ?? 0)) return bad();
      return Object.entries(value).flatMap(([k, v]) => validate(schema.of, v, join(path, k)));
    }
    case 'union': {
      if (!isPlainObject(value)) return bad();
      const tag = value[schema.tag];
      const variant = typeof tag === 'string' ? schema.variants[tag] : undefined;
      if (!variant) {
        const tags = Object.keys(schema.variants);
        return [
          `${join(path, schema.tag)} must be one of ${tags.map((t) => JSON.stringify(t)).join(', ')}, got ${isSecretPath(join(path, schema.tag)) ? typeOf(tag) : show(tag)}`,
        ];
      }
      return validate(variant, value, path);
    }
    case 'object': {
      if (!isPlainObject(value)) return bad();
      const out: string[] = [];
      const known = Object.keys(schema.fields);
      for (const [k, sub] of Object.entries(schema.fields)) {
        const v = value[k];
        if (v === undefined) {
          if (!schema.optional?.includes(k)) out.push(`${join(path, k)} is required (${expected(sub)})`);
          continue;
        }
        out.push(...validate(sub, v, join(path, k)));
      }
      for (const k of Object.keys(value)) {
        if (known.includes(k)) continue;
        const hint = suggest(k, known);
        out.push(`${join(path, k)} is not a known field${hint ? ` (did you mean ${join(path, hint)}?)` : ''}`);
      }
      if (out.length === 0 && schema.check) out.push(...schema.check(value, path));
      return out;
    }
  }
}
