import { DEFAULT_PROFILE } from './defaults.js';
import type { Schema } from './_internal/schema.js';

const str: Schema = { kind: 'string', nonEmpty: true };
const nonNegInt: Schema = { kind: 'int', min: 0, what: 'an integer ≥ 0' };
const json: Schema = { kind: 'json' };
/**
 * An integer in a sane range, named in the message with its unit. The
 * durations stay within a day: the clock bound of a run derives from them
 * (twice the longest), and a mock's clock must never be moved years on.
 */
const intIn = (min: number, max: number, unit = ''): Schema => ({ kind: 'int', min, max, what: `an integer from ${min} to ${max}${unit}` });
const DAY_S = 86_400;
const DAY_MS = DAY_S * 1000;
/** Largest rate limit per window a profile may name: a fill sends that many requests. */
const MAX_LIMIT = 1_000_000;
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
    limits: { kind: 'object', fields: { read: intIn(1, MAX_LIMIT, ' requests'), write: intIn(1, MAX_LIMIT, ' requests') } },
    organisation: str,
  },
  optional: [
    'secret',
    'secret_env',
    'webhook_secret',
    'webhook_secret_env',
    'hotel_api_key',
    'hotel_api_key_env',
    'hotel_webhook_secret',
    'hotel_webhook_secret_env',
    'limits',
    'organisation',
  ],
  check: (v, path) => {
    const out: string[] = [];
    for (const s of ['secret', 'webhook_secret', 'hotel_api_key', 'hotel_webhook_secret']) {
      if (v[s] !== undefined && v[`${s}_env`] !== undefined) out.push(`${path}: give ${s} or ${s}_env, not both`);
    }
    if (v.secret === undefined && v.secret_env === undefined)
      out.push(`${path}.secret_env is required (the environment variable holding the agency's signing secret), got nothing`);
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
        window_s: intIn(1, DAY_S, ' s'),
        timestamp_tolerance_s: intIn(1, DAY_S, ' s'),
        nonce_retention_s: intIn(1, DAY_S, ' s'),
        max_body_bytes: intIn(1, 64 * 1024 * 1024, ' bytes'),
        statement_page_size: intIn(1, 10_000),
      },
    },
    quotes: { kind: 'object', fields: { lifetime_s: intIn(1, DAY_S, ' s') } },
    failure_trigger: { kind: 'nullable', of: { kind: 'object', fields: { client_reference_prefix: str } } },
    webhooks: {
      kind: 'object',
      fields: {
        max_attempts: intIn(1, 100),
        base_ms: intIn(0, DAY_MS, ' ms'),
        factor: { kind: 'number', min: 1, max: 100, what: 'a number from 1 to 100' },
        delivery_timeout_ms: intIn(1, 600_000, ' ms'),
        event_booking_confirmed: str,
        event_booking_cancelled: str,
        hotel_attempts: intIn(1, 100),
      },
      check: (v, path) => {
        // The whole retry schedule bounds how long a run waits for a webhook: within a day too.
        const { max_attempts: n, base_ms: base, factor } = v as { max_attempts: unknown; base_ms: unknown; factor: unknown };
        if (typeof n !== 'number' || typeof base !== 'number' || typeof factor !== 'number') return [];
        let total = 0;
        for (let k = 0; k < n && total <= DAY_MS; k++) total += base * factor ** k;
        return total > DAY_MS
          ? [
              `${path}: the retry schedule (base_ms ${base} × factor ${factor}^k over ${n} attempts) must take at most ${DAY_MS} ms (a day), it takes ${total > 1e15 ? 'more than 1e15' : Math.round(total)} ms`,
            ]
          : [];
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
    request_timeout_ms: intIn(1, 600_000, ' ms'),
    max_response_bytes: intIn(1, 256 * 1024 * 1024, ' bytes'),
    max_fill_requests: intIn(1, MAX_LIMIT, ' requests'),
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
