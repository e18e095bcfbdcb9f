import * as fc from 'fast-check';
import { openApiAjv } from '../_ajv.js';
import { UnusableSchemaError } from '../unusable-schema.js';
import { invalidFormats, validFormat } from './formats.js';
import { mergeSchemas, type Schema, type SchemaResolver } from './resolve-schema.js';

/** A keyword the walker breaks, one at a time. */
export type BrokenKeyword =
  | 'type'
  | 'required'
  | 'enum'
  | 'pattern'
  | 'format'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'additionalProperties';

/** What an invalid value breaks: one keyword, at one place of the value. */
export interface Broken {
  keyword: BrokenKeyword;
  /** JSON pointer into the value (`/travellers/0/first_name`; `''` is the value itself); for `required` and `additionalProperties`, the property's place. */
  pointer: string;
}

/** Values that break one keyword at one place, everything else valid. */
export interface Mutation extends Broken {
  arbitrary: fc.Arbitrary<unknown>;
}

/** What a schema yields: its valid values, and its invalid ones, one broken keyword at a time. */
interface WalkedSchema {
  valid: fc.Arbitrary<unknown>;
  mutations: Mutation[];
}

/** Options of {@link walkSchema}. */
interface WalkOptions {
  /** Follows a `$ref` (the document's own pointers). */
  resolve: SchemaResolver;
  /** Deepest nesting walked (a recursive schema stops generating optional parts there). @defaultValue 12 */
  maxDepth?: number;
}

/** Largest string, array or number range generated beyond a bound, so a body stays far below any size limit. */
const LONGEST = 16_384;
/** Characters of generated strings without a pattern or format: the same length in every count (UTF-16, code points, bytes). */
const SAFE_CHARS = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
/** Characters tried, repeated, for a string that misses a pattern or fills a length. */
const TRIAL_CHARS = ['a', 'A', '0', ' ', '-', '.', '_', '!', 'aB3'];
const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;

type JsonType = (typeof JSON_TYPES)[number];

/** Values of every JSON type, for a `type` broken: the first that the schema's types do not allow is where it shrinks to. */
const WRONG_TYPED: ReadonlyArray<{ value: unknown; types: readonly JsonType[] }> = [
  { value: '7', types: ['string'] },
  { value: 7, types: ['integer', 'number'] },
  { value: 2.5, types: ['number'] },
  { value: true, types: ['boolean'] },
  { value: null, types: ['null'] },
  { value: {}, types: ['object'] },
  { value: [], types: ['array'] },
];

const isNode = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const escapeSegment = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The types a schema allows: its `type`, else what its keywords imply; undefined when any value goes. */
function typesOf(s: Schema): JsonType[] | undefined {
  if (typeof s.type === 'string') return [s.type as JsonType];
  if (Array.isArray(s.type)) return s.type.filter((t): t is JsonType => (JSON_TYPES as readonly string[]).includes(String(t)));
  if (isNode(s.properties) || Array.isArray(s.required) || s.additionalProperties !== undefined) return ['object'];
  if (s.items !== undefined || s.minItems !== undefined || s.maxItems !== undefined) return ['array'];
  if (s.pattern !== undefined || s.format !== undefined || s.minLength !== undefined || s.maxLength !== undefined) return ['string'];
  if (s.minimum !== undefined || s.maximum !== undefined) return ['number'];
  return undefined;
}

/**
 * Turns a JSON Schema (2020-12, as OpenAPI 3.1 uses it) into fast-check
 * arbitraries: `valid` values the schema accepts, and `mutations`, each
 * yielding values that break exactly one keyword (`type`, `required`,
 * `enum`, `pattern`, `format`, `minimum`/`maximum` and their exclusive forms,
 * `minLength`/`maxLength`, `minItems`/`maxItems`, `additionalProperties:
 * false`) at one place, everything else valid. Keywords the schema leaves out
 * break nothing: a schema without `additionalProperties` yields no value with
 * an unknown property as invalid. `$ref`s are followed through `resolve`;
 * `allOf` is merged; inside `anyOf` / `oneOf` only valid values are made. A
 * schema it cannot generate from (a pattern fast-check cannot read, an
 * integer range with no integer) is an {@link UnusableSchemaError} naming it.
 * The values shrink as fast-check's records, arrays and integers do.
 */
export function walkSchema(schema: unknown, options: WalkOptions): WalkedSchema {
  return new Walker(options).walk(schema, '', 0);
}

class Walker {
  private readonly maxDepth: number;

  constructor(private readonly options: WalkOptions) {
    this.maxDepth = options.maxDepth ?? 12;
  }

  walk(raw: unknown, at: string, depth: number): WalkedSchema {
    if (raw === true || raw === undefined || (isNode(raw) && Object.keys(raw).length === 0)) return { valid: anyValue(), mutations: [] };
    if (raw === false) throw new UnusableSchemaError(`the schema at ${at || '/'} accepts no value`);
    if (!isNode(raw)) throw new UnusableSchemaError(`the schema at ${at || '/'} is not a schema`);
    const s = mergeSchemas(raw, this.options.resolve);
    if (Array.isArray(s.enum) && s.enum.length > 0) return { valid: fc.constantFrom(...(s.enum as unknown[])), mutations: this.enumMutations(s) };
    if ('const' in s) return { valid: fc.constant(s.const), mutations: this.typeMutation(s) };
    const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined;
    if (branches?.length) {
      const own = { ...s };
      delete own.anyOf;
      delete own.oneOf;
      return {
        valid: fc.oneof(...branches.map((b) => this.walk(mergeSchemas({ allOf: [own, b] }, this.options.resolve), at, depth + 1).valid)),
        mutations: [],
      };
    }
    const types = typesOf(s);
    if (!types) return { valid: anyValue(), mutations: [] };
    const parts = types.map((t) => this.walkType(s, t, at, depth));
    const valid = parts.length === 1 ? parts[0]!.valid : fc.oneof(...parts.map((p) => p.valid));
    return { valid, mutations: [...this.typeMutation(s), ...parts.flatMap((p) => p.mutations)] };
  }

  private walkType(s: Schema, type: JsonType, at: string, depth: number): WalkedSchema {
    switch (type) {
      case 'null':
        return { valid: fc.constant(null), mutations: [] };
      case 'boolean':
        return { valid: fc.boolean(), mutations: [] };
      case 'integer':
      case 'number':
        return this.numberSchema(s, at);
      case 'string':
        return this.stringSchema(s, at);
      case 'array':
        return this.arraySchema(s, at, depth);
      case 'object':
        return this.objectSchema(s, at, depth);
    }
  }

  /** `type` broken: a value of a JSON type the schema does not allow (none when it names no type). */
  private typeMutation(s: Schema): Mutation[] {
    if (s.type === undefined) return [];
    const types = typesOf(s) ?? [];
    const wrong = WRONG_TYPED.filter((w) => !w.types.some((t) => types.includes(t) || (t === 'integer' && types.includes('number'))));
    return wrong.length ? [{ keyword: 'type', pointer: '', arbitrary: fc.constantFrom(...wrong.map((w) => w.value)) }] : [];
  }

  private enumMutations(s: Schema): Mutation[] {
    const values = s.enum as unknown[];
    const out = this.typeMutation(s);
    if (values.every((v) => typeof v === 'string')) {
      const outside = fc.string({ unit: SAFE_CHARS, minLength: 1, maxLength: 12 }).filter((v) => !values.includes(v));
      out.push({ keyword: 'enum', pointer: '', arbitrary: outside });
    } else if (values.every((v) => Number.isInteger(v))) {
      out.push({ keyword: 'enum', pointer: '', arbitrary: fc.integer({ min: -1000, max: 1000 }).filter((v) => !values.includes(v)) });
    }
    return out;
  }

  private numberSchema(s: Schema, at: string): WalkedSchema {
    const integer = typesOf(s)?.includes('integer') && !typesOf(s)?.includes('number');
    const exMin = num(s.exclusiveMinimum);
    const exMax = num(s.exclusiveMaximum);
    const lo = Math.max(num(s.minimum) ?? -Infinity, exMin === undefined ? -Infinity : Math.floor(exMin) + 1);
    const hi = Math.min(num(s.maximum) ?? Infinity, exMax === undefined ? Infinity : Math.ceil(exMax) - 1);
    const min = Number.isFinite(lo) ? lo : Number.isFinite(hi) ? hi - 1000 : -1000;
    const max = Number.isFinite(hi) ? hi : min + 1000;
    const from = Math.ceil(min);
    const to = Math.floor(max);
    if (from > to) throw new UnusableSchemaError(`the number schema at ${at || '/'} allows no integer (${min} to ${max})`);
    const mutations: Mutation[] = [];
    const step = integer ? 1 : 0.5;
    // Below and above by up to LONGEST: fast-check shrinks each to the bound's nearest neighbour (or to 0 when 0 is out of range).
    if (num(s.minimum) !== undefined) mutations.push({ keyword: 'minimum', pointer: '', arbitrary: below(num(s.minimum)! - step, integer) });
    if (exMin !== undefined) mutations.push({ keyword: 'exclusiveMinimum', pointer: '', arbitrary: below(exMin, integer) });
    if (num(s.maximum) !== undefined) mutations.push({ keyword: 'maximum', pointer: '', arbitrary: above(num(s.maximum)! + step, integer) });
    if (exMax !== undefined) mutations.push({ keyword: 'exclusiveMaximum', pointer: '', arbitrary: above(exMax, integer) });
    return { valid: fc.integer({ min: from, max: to }), mutations };
  }

  private stringSchema(s: Schema, at: string): WalkedSchema {
    const minLength = num(s.minLength) ?? 0;
    const maxLength = num(s.maxLength);
    const pattern = typeof s.pattern === 'string' ? this.compile(s.pattern, at) : undefined;
    const format = typeof s.format === 'string' ? s.format : undefined;
    const formatArb = format ? validFormat(format) : undefined;
    const fits = (v: string): boolean => v.length >= minLength && (maxLength === undefined || v.length <= maxLength) && (!pattern || pattern.test(v));
    let valid: fc.Arbitrary<string>;
    if (formatArb) valid = formatArb.filter(fits);
    else if (pattern) valid = fc.stringMatching(pattern).filter(fits);
    else valid = fc.string({ unit: SAFE_CHARS, minLength, maxLength: Math.min(maxLength ?? minLength + 24, minLength + 24) });
    const mutations: Mutation[] = [];
    const formatOk = (v: string): boolean => !formatArb || this.formatAccepts(format!, v);
    if (pattern && !formatArb) {
      const misses = trialStrings(minLength, Math.min(maxLength ?? minLength + 8, minLength + 8)).filter((v) => !pattern.test(v));
      if (misses.length) mutations.push({ keyword: 'pattern', pointer: '', arbitrary: fc.constantFrom(...misses) });
    }
    if (formatArb) {
      const bad = invalidFormats(format!).filter(
        (v) => v.length >= minLength && (maxLength === undefined || v.length <= maxLength) && (!pattern || pattern.test(v)),
      );
      const refused = bad.filter((v) => !this.formatAccepts(format!, v));
      if (refused.length) mutations.push({ keyword: 'format', pointer: '', arbitrary: fc.constantFrom(...refused) });
    }
    if (minLength > 0 && !pattern && !formatArb) {
      mutations.push({ keyword: 'minLength', pointer: '', arbitrary: fc.string({ unit: SAFE_CHARS, minLength: 0, maxLength: minLength - 1 }) });
    }
    if (maxLength !== undefined && maxLength < LONGEST) {
      const fill = longString(maxLength + 1, format, (v) => (!pattern || pattern.test(v)) && formatOk(v));
      if (fill) mutations.push({ keyword: 'maxLength', pointer: '', arbitrary: fc.integer({ min: maxLength + 1, max: maxLength + 8 }).map(fill) });
    }
    return { valid, mutations };
  }

  private arraySchema(s: Schema, at: string, depth: number): WalkedSchema {
    const item = depth < this.maxDepth ? this.walk(s.items, `${at}/0`, depth + 1) : { valid: anyValue(), mutations: [] };
    const minItems = num(s.minItems) ?? 0;
    const maxItems = num(s.maxItems);
    const most = Math.min(maxItems ?? minItems + 3, minItems + 3);
    const list = (min: number, max: number): fc.Arbitrary<unknown[]> =>
      s.uniqueItems === true
        ? fc.uniqueArray(item.valid, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
        : fc.array(item.valid, { minLength: min, maxLength: max });
    const mutations: Mutation[] = [];
    if (minItems > 0) mutations.push({ keyword: 'minItems', pointer: '', arbitrary: list(0, minItems - 1) });
    if (maxItems !== undefined && maxItems < 1000) mutations.push({ keyword: 'maxItems', pointer: '', arbitrary: list(maxItems + 1, maxItems + 2) });
    // An item broken at index 0, the others valid.
    const rest = list(Math.max(0, minItems - 1), Math.max(0, most - 1));
    for (const m of item.mutations) {
      mutations.push({ keyword: m.keyword, pointer: `/0${m.pointer}`, arbitrary: fc.tuple(m.arbitrary, rest).map(([bad, others]) => [bad, ...others]) });
    }
    return { valid: list(minItems, most), mutations };
  }

  private objectSchema(s: Schema, at: string, depth: number): WalkedSchema {
    const props = isNode(s.properties) ? s.properties : {};
    const required = (Array.isArray(s.required) ? s.required : []).filter((k): k is string => typeof k === 'string');
    const keys = [...new Set([...Object.keys(props), ...required])];
    // Past the depth, optional parts are left out (a recursive schema ends).
    const walked = new Map(
      keys.filter((k) => depth < this.maxDepth || required.includes(k)).map((k) => [k, this.walk(props[k], `${at}/${escapeSegment(k)}`, depth + 1)] as const),
    );
    const record = (without?: string): fc.Arbitrary<Record<string, unknown>> => {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, w] of walked) if (k !== without) model[k] = w.valid;
      return fc.record(model, { requiredKeys: required.filter((k) => k !== without && walked.has(k)) });
    };
    const valid = record();
    const mutations: Mutation[] = [];
    for (const k of required) mutations.push({ keyword: 'required', pointer: `/${escapeSegment(k)}`, arbitrary: record(k) });
    if (s.additionalProperties === false) {
      const extra = ['unexpected', 'unexpected_field', 'x'].find((k) => !(k in props) && !matchesPatternProperty(s, k));
      if (extra) mutations.push({ keyword: 'additionalProperties', pointer: `/${extra}`, arbitrary: valid.map((o) => ({ ...o, [extra]: 'x' })) });
    }
    for (const [k, w] of walked) {
      for (const m of w.mutations) {
        mutations.push({
          keyword: m.keyword,
          pointer: `/${escapeSegment(k)}${m.pointer}`,
          arbitrary: fc.tuple(record(k), m.arbitrary).map(([o, bad]) => ({ ...o, [k]: bad })),
        });
      }
    }
    return { valid, mutations };
  }

  private compile(pattern: string, at: string): RegExp {
    try {
      return new RegExp(pattern, 'u');
    } catch {
      try {
        return new RegExp(pattern);
      } catch (err) {
        throw new UnusableSchemaError(`pattern ${JSON.stringify(pattern)} at ${at || '/'} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  private formatAccepts(format: string, value: string): boolean {
    return formatAccepts(format, value);
  }
}

let formatAjv: ReturnType<typeof openApiAjv> | undefined;
const formatChecks = new Map<string, (v: string) => boolean>();

/** True when Ajv's own check of `format` accepts `value` (a format Ajv does not know accepts everything); one Ajv and one check per format for the process. */
function formatAccepts(format: string, value: string): boolean {
  let check = formatChecks.get(format);
  if (!check) {
    formatAjv ??= openApiAjv();
    const validate = formatAjv.compile({ type: 'string', format });
    check = (v: string) => validate(v) === true;
    formatChecks.set(format, check);
  }
  return check(value);
}

function anyValue(): fc.Arbitrary<unknown> {
  return fc.constantFrom<unknown>('x', 1, true, null);
}

function below(bound: number, integer: boolean | undefined): fc.Arbitrary<number> {
  return integer
    ? fc.integer({ min: Math.ceil(bound) - LONGEST, max: Math.ceil(bound) === bound ? bound : Math.floor(bound) })
    : fc.integer({ min: -LONGEST, max: 0 }).map((d) => bound + d);
}

function above(bound: number, integer: boolean | undefined): fc.Arbitrary<number> {
  return integer
    ? fc.integer({ min: Math.floor(bound) === bound ? bound : Math.ceil(bound), max: Math.floor(bound) + LONGEST })
    : fc.integer({ min: 0, max: LONGEST }).map((d) => bound + d);
}

/** Strings of each trial character repeated, of every length from `min` to `max` (at least one character). */
function trialStrings(min: number, max: number): string[] {
  const out: string[] = [];
  for (let n = Math.max(1, min); n <= Math.max(1, max); n++) for (const c of TRIAL_CHARS) out.push(c.repeat(n).slice(0, n));
  return [...new Set(out)];
}

/** A maker of strings of a given length that `ok` accepts, from a trial character (or, for a URI, a URL padded with one); undefined when none is. */
function longString(length: number, format: string | undefined, ok: (v: string) => boolean): ((n: number) => string) | undefined {
  const makers: Array<(n: number) => string> =
    format === 'uri' || format === 'url' || format === 'iri' || format === 'uri-reference'
      ? [(n) => `https://example.com/${'a'.repeat(Math.max(0, n - 20))}`]
      : TRIAL_CHARS.map((c) => (n: number) => c.repeat(n).slice(0, n));
  return makers.find((make) => ok(make(length)) && make(length).length === length);
}

function matchesPatternProperty(s: Schema, key: string): boolean {
  if (!isNode(s.patternProperties)) return false;
  return Object.keys(s.patternProperties).some((p) => {
    try {
      return new RegExp(p, 'u').test(key);
    } catch {
      return true;
    }
  });
}
