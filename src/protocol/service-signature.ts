import { createHmac } from 'node:crypto';
import { bodyBytes, parseUnixSeconds, safeEqual, withinTolerance } from './_internal/bytes.js';
import { DEFAULT_SERVICE_WEBHOOK_HEADERS, DEFAULT_WEBHOOK_TOLERANCE_S, readHeader, type ServiceWebhookHeaderNames, type VerifyResult } from './header-names.js';

/** Prefix of a service webhook secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** What a service webhook signature covers (REFERENCE-API.md section 9, Standard Webhooks). */
interface ServiceSignInput {
  /** The event id, `evt_…`. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number | string;
  /** The raw body bytes as sent. */
  body: Uint8Array | string;
  /** `whsec_` + base64 key. */
  secret: string;
}

/**
 * The HMAC key of a `whsec_` secret: the base64-decoded part after the prefix
 * (the prefix is optional, as in Standard Webhooks). Undefined when that part
 * is not base64 or decodes to nothing.
 */
export function serviceWebhookKey(secret: string): Buffer | undefined {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : undefined;
}

function digest(key: Buffer, id: string, timestamp: string, body: Uint8Array | string): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(bodyBytes(body)).digest();
}

/**
 * Signs a service webhook: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`.
 * Throws a TypeError when the secret is not a usable `whsec_` secret.
 */
export function signServiceWebhook(input: ServiceSignInput): string {
  const key = serviceWebhookKey(input.secret);
  if (!key) throw new TypeError('webhook secret must be "whsec_" followed by base64');
  return `v1,${digest(key, input.id, String(input.timestamp), input.body).toString('base64')}`;
}

/** What verifying a service webhook needs. */
interface ServiceVerifyInput {
  id: string;
  timestamp: number | string;
  body: Uint8Array | string;
  /** The signature header's value: one or more space-separated `v1,<base64>`. */
  signatureHeader: string | undefined;
  secret: string;
  /**
   * Largest accepted distance between `timestamp` and `nowS`; `Infinity` disables the check.
   * @defaultValue 300
   */
  toleranceS?: number;
  /**
   * The verifier's clock in Unix seconds (pass the arrival time in target time when the target's clock moves).
   * @defaultValue the real clock
   */
  nowS?: number;
}

/**
 * Verifies a service webhook signature in constant time. Accepts a
 * space-separated list of signatures, any `v1` of which may match; other
 * versions are ignored.
 */
export function verifyServiceWebhook(input: ServiceVerifyInput): VerifyResult {
  if (input.signatureHeader === undefined || input.signatureHeader.trim() === '') return { ok: false, reason: 'missing-header' };
  const ts = parseUnixSeconds(input.timestamp);
  if (ts === undefined) return { ok: false, reason: 'malformed-timestamp' };
  const candidates: Buffer[] = [];
  for (const part of input.signatureHeader.trim().split(/\s+/)) {
    const comma = part.indexOf(',');
    if (comma <= 0) return { ok: false, reason: 'malformed-header' };
    if (part.slice(0, comma) !== 'v1') continue;
    candidates.push(Buffer.from(part.slice(comma + 1), 'base64'));
  }
  if (candidates.length === 0) return { ok: false, reason: 'malformed-header' };
  const key = serviceWebhookKey(input.secret);
  if (!key) return { ok: false, reason: 'bad-secret' };
  const expected = digest(key, input.id, String(input.timestamp).trim(), input.body);
  // Every candidate is compared, so the time taken does not reveal which one matched.
  let match = false;
  for (const c of candidates) match = safeEqual(expected, c) || match;
  if (!match) return { ok: false, reason: 'signature-mismatch' };
  const nowS = input.nowS ?? Math.floor(Date.now() / 1000);
  if (!withinTolerance(ts, nowS, input.toleranceS ?? DEFAULT_WEBHOOK_TOLERANCE_S)) {
    return { ok: false, reason: 'timestamp-outside-tolerance' };
  }
  return { ok: true };
}

/** Builds the four headers of one service delivery attempt (plus content type). */
export function serviceWebhookHeaders(input: {
  id: string;
  timestamp: number;
  attempt: number;
  body: Uint8Array | string;
  secret: string;
  names?: ServiceWebhookHeaderNames;
}): Record<string, string> {
  const names = input.names ?? DEFAULT_SERVICE_WEBHOOK_HEADERS;
  return {
    'content-type': 'application/json',
    [names.id]: input.id,
    [names.timestamp]: String(input.timestamp),
    [names.signature]: signServiceWebhook(input),
    [names.attempt]: String(input.attempt),
  };
}

/** Verifies a received service delivery from its headers (any case) and raw body. */
export function verifyServiceWebhookRequest(input: {
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array | string;
  secret: string;
  names?: ServiceWebhookHeaderNames;
  toleranceS?: number;
  nowS?: number;
}): VerifyResult {
  const names = input.names ?? DEFAULT_SERVICE_WEBHOOK_HEADERS;
  const id = readHeader(input.headers, names.id);
  const timestamp = readHeader(input.headers, names.timestamp);
  if (id === undefined || timestamp === undefined) return { ok: false, reason: 'missing-header' };
  return verifyServiceWebhook({
    id,
    timestamp,
    body: input.body,
    signatureHeader: readHeader(input.headers, names.signature),
    secret: input.secret,
    ...(input.toleranceS !== undefined ? { toleranceS: input.toleranceS } : {}),
    ...(input.nowS !== undefined ? { nowS: input.nowS } : {}),
  });
}
