import { createHmac } from 'node:crypto';
import { bodyBytes, parseUnixSeconds, safeEqual, withinTolerance } from './_internal/bytes.js';
import { DEFAULT_WEBHOOK_TOLERANCE_S, HOTEL_WEBHOOK_SIGNATURE_HEADER, readHeader, type VerifyResult } from './header-names.js';

/** What a hotel webhook signature covers (REFERENCE-API.md section 10, Stripe-style). */
interface HotelSignInput {
  /** Unix seconds. */
  timestamp: number | string;
  /** The raw body bytes as sent. */
  body: Uint8Array | string;
  /** The hotel webhook secret; its UTF-8 bytes are the key. */
  secret: string;
}

function digestHex(secret: string, timestamp: string, body: Uint8Array | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(bodyBytes(body)).digest('hex');
}

/** Signs a hotel webhook: `t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signHotelWebhook(input: HotelSignInput): string {
  const t = String(input.timestamp);
  return `t=${t},v1=${digestHex(input.secret, t, input.body)}`;
}

/** The parts of a `t=…,v1=…` header; several `v1` entries are allowed (secret rotation). */
export function parseHotelSignature(header: string): { t: string; v1: string[] } | undefined {
  let t: string | undefined;
  const v1: string[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) return undefined;
    const k = item.slice(0, eq).trim();
    const v = item.slice(eq + 1).trim();
    if (k === 't') {
      if (t !== undefined) return undefined;
      t = v;
    } else if (k === 'v1') v1.push(v);
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}

/** What verifying a hotel webhook needs. */
interface HotelVerifyInput {
  body: Uint8Array | string;
  /** The value of `X-Webhook-Signature`. */
  signatureHeader: string | undefined;
  secret: string;
  /**
   * Largest accepted distance between `t` and `nowS`; `Infinity` disables the check.
   * @defaultValue 300
   */
  toleranceS?: number;
  /**
   * The verifier's clock in Unix seconds.
   * @defaultValue the real clock
   */
  nowS?: number;
}

/** Verifies a hotel webhook signature in constant time; any `v1` entry may match. */
export function verifyHotelWebhook(input: HotelVerifyInput): VerifyResult {
  if (input.signatureHeader === undefined || input.signatureHeader.trim() === '') return { ok: false, reason: 'missing-header' };
  const parsed = parseHotelSignature(input.signatureHeader);
  if (!parsed) return { ok: false, reason: 'malformed-header' };
  const ts = parseUnixSeconds(parsed.t);
  if (ts === undefined) return { ok: false, reason: 'malformed-timestamp' };
  const expected = Buffer.from(digestHex(input.secret, parsed.t, input.body), 'utf8');
  let match = false;
  for (const c of parsed.v1) match = safeEqual(expected, Buffer.from(c.toLowerCase(), 'utf8')) || match;
  if (!match) return { ok: false, reason: 'signature-mismatch' };
  const nowS = input.nowS ?? Math.floor(Date.now() / 1000);
  if (!withinTolerance(ts, nowS, input.toleranceS ?? DEFAULT_WEBHOOK_TOLERANCE_S)) {
    return { ok: false, reason: 'timestamp-outside-tolerance' };
  }
  return { ok: true };
}

/** Verifies a received hotel delivery from its headers (any case) and raw body. */
export function verifyHotelWebhookRequest(input: {
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array | string;
  secret: string;
  headerName?: string;
  toleranceS?: number;
  nowS?: number;
}): VerifyResult {
  return verifyHotelWebhook({
    body: input.body,
    signatureHeader: readHeader(input.headers, input.headerName ?? HOTEL_WEBHOOK_SIGNATURE_HEADER),
    secret: input.secret,
    ...(input.toleranceS !== undefined ? { toleranceS: input.toleranceS } : {}),
    ...(input.nowS !== undefined ? { nowS: input.nowS } : {}),
  });
}
