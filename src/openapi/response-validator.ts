import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Exchange } from '../client/exchange.js';
import { openApiAjv } from './_ajv.js';
import { fragmentOf, resolvePointer } from './json-pointer.js';
import type { OpenApiDocument } from './load-document.js';
import { OperationIndex, type IndexedOperation } from './operation-index.js';
import { assertNoRefCycle } from './ref-cycles.js';
import { UnusableSchemaError } from './unusable-schema.js';

/** One rule of the document that a response breaks. */
interface SchemaViolation {
  /** JSON pointer into the body (`/results/0/price/amount`), or `headers/<name>` for a header. */
  pointer: string;
  /** The schema keyword broken (`type`, `required`, `enum`, …), or `content-type` / `json` for the body as a whole. */
  rule: string;
  /** What the rule says, e.g. `must be integer`. */
  message: string;
}

/** How one exchange fares against the document. */
type ExchangeJudgement =
  | { judged: false; reason: 'no response' | 'operation not in the document' | 'status not in the document' }
  /** The document's schema for the response cannot judge it (a `$ref` cycle, a pattern that cannot be evaluated safely): `problem` names it. */
  | { judged: false; reason: 'schema unusable'; operation: string; status: string; problem: string }
  | { judged: true; operation: string; status: string; violations: SchemaViolation[] };

const DOC_ID = 'urn:svc-harness:openapi';
const PATH_OF_URL = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)/i;
/** Most violations reported per exchange (the first ones say enough). */
const MAX_VIOLATIONS = 5;
/** Longest chain of `$ref`s from a response or header object to the object itself. */
const MAX_REF_HOPS = 20;

interface CompiledResponse {
  /** Media type the body must have and its schema's validator; none when the document gives no content. */
  body?: { media: string; validate: ValidateFunction | undefined };
  headers: { name: string; required: boolean; numeric: boolean; validate: ValidateFunction | undefined }[];
}

function isJsonMedia(media: string): boolean {
  return /^application\/([\w.+-]*\+)?json$/i.test(media.split(';')[0]!.trim());
}

function statusKey(responses: Record<string, unknown>, status: number): string | undefined {
  const exact = String(status);
  if (exact in responses) return exact;
  const range = Object.keys(responses).find((k) => k.toUpperCase() === `${Math.floor(status / 100)}XX`);
  if (range) return range;
  return 'default' in responses ? 'default' : undefined;
}

/**
 * Validates recorded responses against an OpenAPI 3.1 document: the
 * operation is found by method and path template, the response by status
 * (exact, range, default), and the JSON body and declared headers are
 * validated with Ajv (draft 2020-12). Each schema is compiled once, on first
 * use, and kept for the validator's life.
 */
export class ResponseValidator {
  private readonly ajv = openApiAjv();
  private readonly index: OperationIndex;
  private readonly compiled = new Map<string, CompiledResponse | UnusableSchemaError>();
  /** One validator per schema location: responses share their headers' and components' schemas. */
  private readonly validators = new Map<string, ValidateFunction>();
  /** Schema locations already found free of `$ref` cycles. */
  private readonly soundLocations = new Set<string>();

  constructor(private readonly doc: OpenApiDocument) {
    this.index = new OperationIndex(doc);
    this.ajv.addSchema(doc as object, DOC_ID);
  }

  /** Judges one exchange; never throws. */
  judge(exchange: Exchange): ExchangeJudgement {
    const res = exchange.response;
    if (!res) return { judged: false, reason: 'no response' };
    // The path of an absolute or origin-form URL; cheaper than new URL() over thousands of exchanges.
    const path = PATH_OF_URL.exec(exchange.request.url)?.[1] ?? '';
    const op = this.index.find(exchange.request.method, path);
    if (!op) return { judged: false, reason: 'operation not in the document' };
    const key = statusKey(op.responses, res.status);
    if (key === undefined) return { judged: false, reason: 'status not in the document' };
    const spec = this.compile(op, key);
    if (spec instanceof UnusableSchemaError) return { judged: false, reason: 'schema unusable', operation: op.name, status: key, problem: spec.message };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v;
    const violations = [...this.headerViolations(spec, headers), ...this.bodyViolations(spec, headers, res.body)];
    return { judged: true, operation: op.name, status: key, violations: violations.slice(0, MAX_VIOLATIONS) };
  }

  private headerViolations(spec: CompiledResponse, headers: Record<string, string>): SchemaViolation[] {
    const out: SchemaViolation[] = [];
    for (const h of spec.headers) {
      const raw = headers[h.name];
      const pointer = `headers/${h.name}`;
      if (raw === undefined) {
        if (h.required) out.push({ pointer, rule: 'required', message: 'required header is missing' });
        continue;
      }
      // Header values are text; a numeric schema judges the number they spell.
      const value = h.numeric && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
      if (h.validate && !h.validate(value)) out.push(...toViolations(h.validate, pointer));
    }
    return out;
  }

  private bodyViolations(spec: CompiledResponse, headers: Record<string, string>, body: string): SchemaViolation[] {
    if (!spec.body) return [];
    const type = headers['content-type'] ?? '';
    if (isJsonMedia(spec.body.media) && !isJsonMedia(type || 'none/none')) {
      return [{ pointer: '', rule: 'content-type', message: `Content-Type is ${JSON.stringify(type)}, the document says ${spec.body.media}` }];
    }
    if (!spec.body.validate) return [];
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [{ pointer: '', rule: 'json', message: body === '' ? 'the body is empty' : 'the body is not JSON' }];
    }
    return spec.body.validate(value) ? [] : toViolations(spec.body.validate, '');
  }

  /** The compiled response, or why the document cannot judge it; either is kept, so each is worked out once. */
  private compile(op: IndexedOperation, key: string): CompiledResponse | UnusableSchemaError {
    const cacheKey = `${op.segments.join('\u0000')}\u0000${key}`;
    let spec = this.compiled.get(cacheKey);
    if (spec) return spec;
    try {
      spec = this.compileResponse(op, key);
    } catch (err) {
      if (err instanceof UnusableSchemaError) spec = err;
      // A schema nested or chained so deep that compiling it overflows the stack cannot judge either.
      else if (err instanceof RangeError) spec = new UnusableSchemaError(`the schema of ${op.name} ${key} nests too deeply to be compiled`);
      else throw err;
    }
    this.compiled.set(cacheKey, spec);
    return spec;
  }

  private compileResponse(op: IndexedOperation, key: string): CompiledResponse {
    const spec: CompiledResponse = { headers: [] };
    const response = this.deref(op.responses[key], [...op.segments, 'responses', key]);
    if (response) {
      const content = response.value.content as Record<string, unknown> | undefined;
      const media = content
        ? (Object.keys(content).find((m) => m.toLowerCase() === 'application/json') ?? Object.keys(content).find(isJsonMedia) ?? Object.keys(content)[0])
        : undefined;
      if (content && media !== undefined) {
        const mediaObj = content[media] as { schema?: unknown } | undefined;
        spec.body = { media, validate: mediaObj?.schema !== undefined ? this.validatorAt([...response.segments, 'content', media, 'schema']) : undefined };
      }
      for (const [name, raw] of Object.entries((response.value.headers ?? {}) as Record<string, unknown>)) {
        if (name.toLowerCase() === 'content-type') continue;
        const header = this.deref(raw, [...response.segments, 'headers', name]);
        if (!header) continue;
        const schema = this.deref(header.value.schema, [...header.segments, 'schema']);
        const types = schema ? [schema.value.type].flat() : [];
        spec.headers.push({
          name: name.toLowerCase(),
          required: header.value.required === true,
          numeric: types.includes('integer') || types.includes('number'),
          validate: schema ? this.validatorAt([...header.segments, 'schema']) : undefined,
        });
      }
    }
    return spec;
  }

  /**
   * Follows `$ref`s from a node; returns the object and where it lives, or
   * undefined when the node is no object. A chain of `$ref`s that comes back
   * on itself, leads nowhere or runs past {@link MAX_REF_HOPS} throws an
   * {@link UnusableSchemaError} naming it: the response it describes cannot
   * be judged, and must not pass for judged.
   */
  private deref(node: unknown, segments: string[]): { value: Record<string, unknown>; segments: string[] } | undefined {
    let at: { value: unknown; segments: string[] } = { value: node, segments };
    const chain = [fragmentOf(segments)];
    for (let hops = 0; hops <= MAX_REF_HOPS; hops++) {
      const v = at.value as Record<string, unknown> | undefined;
      if (typeof v !== 'object' || v === null) return undefined;
      if (typeof v.$ref !== 'string') return { value: v, segments: at.segments };
      const next = resolvePointer(this.doc, v.$ref);
      if (!next) throw new UnusableSchemaError(`$ref ${JSON.stringify(v.$ref)} at ${chain.at(-1)} leads nowhere in the document`);
      const key = fragmentOf(next.segments);
      if (chain.includes(key)) throw new UnusableSchemaError(`$ref cycle: ${[...chain.slice(chain.indexOf(key)), key].join(' → ')}`);
      chain.push(key);
      at = next;
    }
    throw new UnusableSchemaError(`$ref chain from ${chain[0]} runs past ${MAX_REF_HOPS} hops`);
  }

  private validatorAt(segments: string[]): ValidateFunction {
    const ref = `${DOC_ID}${fragmentOf(segments)}`;
    let v = this.validators.get(ref);
    if (!v) {
      assertNoRefCycle(this.doc, segments, this.soundLocations);
      try {
        v = this.ajv.compile({ $ref: ref });
      } catch (err) {
        if (err instanceof UnusableSchemaError || err instanceof RangeError) throw err;
        throw new UnusableSchemaError(`the schema at ${fragmentOf(segments)} cannot be compiled: ${err instanceof Error ? err.message : String(err)}`);
      }
      this.validators.set(ref, v);
    }
    return v;
  }
}

function toViolations(validate: ValidateFunction, prefix: string): SchemaViolation[] {
  return (validate.errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? `/${String((e.params as { missingProperty?: string }).missingProperty ?? '')}` : '';
    const pointer = `${prefix}${e.instancePath}${missing}`;
    return { pointer: pointer === '' ? '/' : pointer, rule: e.keyword, message: e.message ?? e.keyword };
  });
}

const cache = new WeakMap<OpenApiDocument, ResponseValidator>();

/** The validator of a document, built once per document object (so a whole self-test compiles each schema once). */
export function responseValidatorFor(doc: OpenApiDocument): ResponseValidator {
  let v = cache.get(doc);
  if (!v) {
    v = new ResponseValidator(doc);
    cache.set(doc, v);
  }
  return v;
}
