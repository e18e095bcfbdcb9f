import * as fc from 'fast-check';
import { resolvePointer } from '../json-pointer.js';
import type { OpenApiDocument } from '../load-document.js';
import { walkSchema, type Broken } from './schema-walker.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Where an input goes: the body, a path parameter or a query parameter. */
export type InputPart = 'body' | 'path' | 'query';

/** One parameter of an operation, its `$ref` followed. */
export interface RequestParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: unknown;
}

/** One operation of a document, as a client sends it: at the document's servers, with its parameters and body. */
export interface RequestOperation {
  /** `POST /{product}/bookings`: the method and the path template, relative to the document's servers. */
  name: string;
  method: string;
  /** The path template, relative to the document's servers (`/{product}/bookings`). */
  path: string;
  parameters: RequestParameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: { schema: unknown; required: boolean };
  /** The statuses its responses name one by one (not `default`, not ranges). */
  statuses: string[];
  /** Status ranges (`4XX`) its responses name. */
  ranges: string[];
}

/** One request generated for an operation: its path and query parameters, its body, and what it breaks when it is invalid. */
export interface GeneratedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Absent: the request has no body. */
  body?: unknown;
  broken?: Broken & { part: InputPart };
}

/** The requests of one operation: valid ones, and invalid ones in groups, one group per part and broken keyword. */
interface OperationInputs {
  valid: fc.Arbitrary<GeneratedRequest>;
  /** One arbitrary per (part, keyword): each of its values breaks that keyword somewhere in that part. */
  invalid: Array<{ part: InputPart; keyword: string; arbitrary: fc.Arbitrary<GeneratedRequest> }>;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref`s from a node (a parameter, a request body); undefined when it is none. */
function deref(doc: OpenApiDocument, node: unknown): Node | undefined {
  let at = node;
  for (let hops = 0; hops < 20 && isNode(at) && typeof at.$ref === 'string'; hops++) at = resolvePointer(doc, at.$ref)?.value;
  return isNode(at) && typeof at.$ref !== 'string' ? at : undefined;
}

/**
 * Every operation a client reaches at the document's own servers (a path or
 * operation with servers of its own, such as another API described in the
 * same document, is left out), with its parameters (the path item's, and
 * the operation's over them) and its JSON body.
 */
export function requestOperations(doc: OpenApiDocument): RequestOperation[] {
  const out: RequestOperation[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    if (!item || (Array.isArray(item.servers) && item.servers.length > 0)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isNode(op) || (Array.isArray(op.servers) && op.servers.length > 0)) continue;
      const params = new Map<string, RequestParameter>();
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const p = deref(doc, raw);
        if (!p || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
        params.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in as RequestParameter['in'],
          required: p.required === true || p.in === 'path',
          schema: p.schema,
        });
      }
      const requestBody = deref(doc, op.requestBody);
      const content = isNode(requestBody?.content) ? requestBody.content : {};
      const media = Object.keys(content).find((m) => /^application\/([\w.+-]*\+)?json$/i.test(m.split(';')[0]!.trim()));
      const schema = media !== undefined && isNode(content[media]) ? (content[media] as Node).schema : undefined;
      const responses = Object.keys(isNode(op.responses) ? op.responses : {});
      out.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: [...params.values()],
        ...(schema !== undefined ? { body: { schema, required: requestBody?.required === true } } : {}),
        statuses: responses.filter((r) => /^\d{3}$/.test(r)),
        ranges: responses.filter((r) => /^\dXX$/i.test(r)).map((r) => r.toUpperCase()),
      });
    }
  }
  return out;
}

/** Every path of the document reached at its own servers, with the methods it documents. */
export function documentedMethods(operations: readonly RequestOperation[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const op of operations) out.set(op.path, [...(out.get(op.path) ?? []), op.method]);
  return out;
}

/** True when a parameter's schema takes text as it comes (a string): a value of another JSON type means nothing in a path or a query. */
function takesText(schema: unknown, doc: OpenApiDocument): boolean {
  const s = isNode(schema) && typeof schema.$ref === 'string' ? resolvePointer(doc, schema.$ref)?.value : schema;
  if (!isNode(s)) return true;
  const t = s.type;
  return t === undefined || t === 'string' || (Array.isArray(t) && t.includes('string'));
}

/** Text that no integer, number or boolean reads as: a parameter of such a type broken. */
const NOT_A_NUMBER = fc.constantFrom('x', 'abc', '1e', '--');

/**
 * The requests of an operation, generated from its schemas: its path and
 * query parameters (every one present) and its JSON body, valid, or with one
 * keyword of one part broken. `schemaOf` may narrow a parameter's schema
 * (the target profile knows which of an enum's values it can use); header
 * parameters are the caller's (signing, idempotency keys). A parameter's
 * `type` is broken only where text can break it (an integer parameter
 * given `x`). Throws an {@link UnusableSchemaError} when a schema cannot
 * generate.
 */
export function operationInputs(doc: OpenApiDocument, op: RequestOperation, schemaOf: (p: RequestParameter) => unknown = (p) => p.schema): OperationInputs {
  const resolve = (ref: string): unknown => resolvePointer(doc, ref)?.value;
  const parts: Array<{ part: 'path' | 'query'; param: RequestParameter; walked: ReturnType<typeof walkSchema> }> = [];
  for (const param of op.parameters) {
    if (param.in !== 'path' && param.in !== 'query') continue;
    const schema = schemaOf(param);
    let walked = walkSchema(schema ?? {}, { resolve });
    const text = takesText(schema, doc);
    walked = {
      // A path segment is never empty: an empty value names another path.
      valid: param.in === 'path' ? walked.valid.filter((v) => String(v) !== '') : walked.valid,
      mutations: walked.mutations
        .filter((m) => m.pointer === '' && !(m.keyword === 'type' && text))
        .map((m) => (m.keyword === 'type' ? { ...m, arbitrary: NOT_A_NUMBER } : m)),
    };
    parts.push({ part: param.in, param, walked });
  }
  const body = op.body ? walkSchema(op.body.schema, { resolve }) : undefined;
  const valuesOf = (part: 'path' | 'query', replaced?: { name: string; value: fc.Arbitrary<unknown> }): fc.Arbitrary<Record<string, unknown>> => {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const p of parts.filter((x) => x.part === part)) model[p.param.name] = replaced?.name === p.param.name ? replaced.value : p.walked.valid;
    return fc.record(model);
  };
  const request = (
    path: fc.Arbitrary<Record<string, unknown>>,
    query: fc.Arbitrary<Record<string, unknown>>,
    bodyArb: fc.Arbitrary<unknown> | undefined,
  ): fc.Arbitrary<GeneratedRequest> => fc.record({ path, query, ...(bodyArb ? { body: bodyArb } : {}) }).map((r) => r as GeneratedRequest);
  const valid = request(valuesOf('path'), valuesOf('query'), body?.valid);
  const groups = new Map<string, { part: InputPart; keyword: string; arbitraries: Array<fc.Arbitrary<GeneratedRequest>> }>();
  const add = (part: InputPart, keyword: string, arb: fc.Arbitrary<GeneratedRequest>): void => {
    const key = `${part} ${keyword}`;
    const g = groups.get(key) ?? { part, keyword, arbitraries: [] };
    g.arbitraries.push(arb);
    groups.set(key, g);
  };
  for (const m of body?.mutations ?? []) {
    const broken = { part: 'body' as const, keyword: m.keyword, pointer: m.pointer };
    add(
      'body',
      m.keyword,
      request(valuesOf('path'), valuesOf('query'), m.arbitrary).map((r) => ({ ...r, broken })),
    );
  }
  for (const p of parts) {
    for (const m of p.walked.mutations) {
      const broken = { part: p.part, keyword: m.keyword, pointer: `/${p.param.name}` };
      const replaced = { name: p.param.name, value: m.arbitrary };
      const arb = request(
        p.part === 'path' ? valuesOf('path', replaced) : valuesOf('path'),
        p.part === 'query' ? valuesOf('query', replaced) : valuesOf('query'),
        body?.valid,
      );
      add(
        p.part,
        m.keyword,
        arb.map((r) => ({ ...r, broken })),
      );
    }
  }
  return {
    valid,
    invalid: [...groups.values()].map((g) => ({
      part: g.part,
      keyword: g.keyword,
      arbitrary: g.arbitraries.length === 1 ? g.arbitraries[0]! : fc.oneof(...g.arbitraries),
    })),
  };
}

/** The path of a generated request: the template with each parameter's value, percent-encoded. */
export function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(values[name] ?? '')));
}

/** The query string of a generated request (`a=1&b=x`), or undefined when it has none. */
export function queryString(values: Record<string, unknown>): string | undefined {
  const pairs = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return pairs.length ? pairs.join('&') : undefined;
}
