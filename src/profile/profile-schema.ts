import { DEFAULT_PROFILE } from './defaults.js';
import type { Schema } from './_internal/schema.js';

const str: Schema = { kind: 'string', nonEmpty: true };
const posInt = (what = 'a positive integer'): Schema => ({ kind: 'int', min: 1, what });
const nonNegInt: Schema = { kind: 'int', min: 0, what: 'an integer ≥ 0' };
const json: Schema = { kind: 'json' };
const ENV_NAME: Schema = { kind: 'string', pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, patternText: 'an environment variable name ([A-Za-z_][A-Za-z0-9_]*)' };
const HEADER_NAME: Schema = { kind: 'string', pattern: /^[a-z0-9!#$%&'*+.^_`|~-]+$/, patternText: 'a lower-case header name' };
const METHOD: Schema = { kind: 'enum', values: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] };
const PATH: Schema = { kind: 'string', pattern: /^\//, patternText: 'a path starting with "/"' };

/** Same keys as the reference profile's group, each judged by `of`: the schema follows the contract type. */
function sameKeys(group: object, of: Schema): Schema {
  return { kind: 'object', fields: Object.fromEntries(Object.keys(group).map((k) => [k, of])) };
}

const agency: Schema = {
  kind: 'object',
  fields: {
    id: str,
    key_id: str,
    secret: str,
    secret_env: ENV_NAME,
    webhook_secret: str,
    webhook_secret_env: ENV_NAME,
    hotel_api_key: str,
    hotel_api_key_env: ENV_NAME,
    hotel_webhook_secret: str,
    hotel_webhook_secret_env: ENV_NAME,
    limits: { kind: 'object', fields: { read: posInt(), write: posInt() } },
  },
  optional: ['secret', 'secret_env', 'webhook_secret', 'webhook_secret_env', 'hotel_api_key', 'hotel_api_key_env', 'hotel_webhook_secret', 'hotel_webhook_secret_env', 'limits'],
  check: (v, path) => {
    const out: string[] = [];
    for (const s of ['secret', 'webhook_secret', 'hotel_api_key', 'hotel_webhook_secret']) {
      if (v[s] !== undefined && v[`${s}_env`] !== undefined) out.push(`${path}: give ${s} or ${s}_env, not both`);
    }
    if (v.secret === undefined && v.secret_env === undefined) out.push(`${path}.secret_env is required (the environment variable holding the agency's signing secret), got nothing`);
    return out;
  },
};

const BASE_SCHEMA: Schema = {
  kind: 'object',
  fields: {
    name: str,
    base_url: { kind: 'url' },
    hotel_base_url: { kind: 'nullable', of: { kind: 'url' } },
    clock: {
      kind: 'union',
      tag: 'control',
      variants: {
        'mock-admin': { kind: 'object', fields: { control: str, admin_url: { kind: 'url' } } },
        none: { kind: 'object', fields: { control: str } },
      },
    },
    agencies: { kind: 'array', of: agency, minItems: 1 },
    products: { kind: 'array', of: str, minItems: 1 },
    search_criteria: { kind: 'record', of: { kind: 'record', of: json } },
    search_body: json,
    booking_body: json,
    cancel_body: json,
    hotel_availability_body: json,
    hotel_booking_body: json,
    webhook_endpoint_body: json,
    hotel_webhook_body: json,
    statement_query: { kind: 'object', fields: { limit: str, cursor: str } },
    operations: sameKeys(DEFAULT_PROFILE.operations, { kind: 'object', fields: { method: METHOD, path: PATH } }),
    fields: sameKeys(DEFAULT_PROFILE.fields, str),
    headers: sameKeys(DEFAULT_PROFILE.headers, HEADER_NAME),
    errors: sameKeys(DEFAULT_PROFILE.errors, {
      kind: 'object',
      fields: { status: { kind: 'int', min: 100, what: 'an HTTP status (100 to 599)' }, code: str },
      check: (v, path) => (typeof v.status === 'number' && v.status > 599 ? [`${path}.status must be an HTTP status (100 to 599), got ${v.status}`] : []),
    }),
    values: sameKeys(DEFAULT_PROFILE.values, str),
    limits: {
      kind: 'object',
      fields: {
        window_s: posInt(),
        timestamp_tolerance_s: posInt(),
        nonce_retention_s: posInt(),
        max_body_bytes: posInt(),
        statement_page_size: posInt(),
      },
    },
    quotes: { kind: 'object', fields: { lifetime_s: posInt() } },
    failure_trigger: { kind: 'nullable', of: { kind: 'object', fields: { client_reference_prefix: str } } },
    webhooks: {
      kind: 'object',
      fields: {
        max_attempts: posInt(),
        base_ms: nonNegInt,
        factor: { kind: 'number', min: 1, what: 'a number ≥ 1' },
        delivery_timeout_ms: posInt(),
        event_booking_confirmed: str,
        event_booking_cancelled: str,
        hotel_attempts: posInt(),
      },
    },
    receiver: {
      kind: 'object',
      fields: {
        host: str,
        port: { kind: 'int', min: 0, what: 'a port number (0 to 65535)' },
        public_url: { kind: 'nullable', of: { kind: 'url' } },
      },
      check: (v, path) => (typeof v.port === 'number' && v.port > 65535 ? [`${path}.port must be a port number (0 to 65535), got ${v.port}`] : []),
    },
    openapi: { kind: 'nullable', of: str },
    request_timeout_ms: posInt(),
    max_response_bytes: posInt(),
  },
  check: (v) => {
    const out: string[] = [];
    const products = v.products as string[];
    const criteria = v.search_criteria as Record<string, unknown>;
    const missing = products.filter((p) => criteria[p] === undefined);
    if (missing.length > 0) out.push(`search_criteria must hold criteria for every product, missing ${missing.map((p) => JSON.stringify(p)).join(', ')}`);
    const ids = (v.agencies as Array<{ id: string }>).map((a) => a.id);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup !== undefined) out.push(`agencies must have distinct ids, got "${dup}" twice`);
    return out;
  },
};

/** A schema guessed from a reference value: for settings added to the contract after this schema was written. */
function inferred(value: unknown): Schema {
  if (typeof value === 'string') return str;
  if (typeof value === 'number') return Number.isInteger(value) ? nonNegInt : { kind: 'number', min: 0, what: 'a number ≥ 0' };
  return json;
}

/** Every key the reference profile has is known, even where this schema does not name it yet (contracts grow additively). */
function knowDefaults(schema: Schema, defaults: unknown): Schema {
  if (schema.kind !== 'object' || typeof defaults !== 'object' || defaults === null || Array.isArray(defaults)) return schema;
  const d = defaults as Record<string, unknown>;
  const fields: Record<string, Schema> = {};
  for (const [k, sub] of Object.entries(schema.fields)) fields[k] = knowDefaults(sub, d[k]);
  const optional = [...(schema.optional ?? [])];
  for (const [k, v] of Object.entries(d)) {
    if (fields[k]) continue;
    fields[k] = inferred(v);
    optional.push(k);
  }
  return { ...schema, fields, optional };
}

/** The whole profile's shape (after defaults are merged in). */
export const PROFILE_SCHEMA: Schema = knowDefaults(BASE_SCHEMA, DEFAULT_PROFILE);
