import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * SVC-HMAC-SHA256 verification, written from REFERENCE-API.md section 3 alone
 * (nothing from src/ is imported: the stand-in is an independent reading).
 */

const AUTH_RE = /^SVC-HMAC-SHA256 Credential=([^,\s]+), SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=([0-9a-f]{64})$/;
const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;
const TIMESTAMP_RE = /^\d{1,15}$/;

/** What the signing headers of one request say, once their form is right. */
export interface SignedParts {
  keyId: string;
  signature: string;
  timestamp: number;
  nonce: string;
}

/** The headers' form (section 3, first row); `null` when any is missing or malformed. */
export function parseSigningHeaders(authorization: string | undefined, timestamp: string | undefined, nonce: string | undefined): SignedParts | null {
  if (authorization === undefined || timestamp === undefined || nonce === undefined) return null;
  const m = AUTH_RE.exec(authorization);
  if (m === null || !TIMESTAMP_RE.test(timestamp) || !NONCE_RE.test(nonce)) return null;
  return { keyId: m[1]!, signature: m[2]!, timestamp: Number(timestamp), nonce };
}

/** RFC 3986 percent-encoding: everything but the unreserved characters. */
function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The canonical query line: decoded pairs re-encoded, sorted by key then value. */
export function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  const pairs = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const key = eq < 0 ? p : p.slice(0, eq);
      const value = eq < 0 ? '' : p.slice(eq + 1);
      return [rfc3986(decodeOr(key)), rfc3986(decodeOr(value))] as const;
    });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Whether `signature` is the HMAC of the request's string to sign under `secret`, compared in constant time. */
export function signatureMatches(parts: SignedParts, secret: string, method: string, rawPath: string, rawQuery: string, body: Buffer): boolean {
  const stringToSign = [
    'SVC-HMAC-SHA256',
    String(parts.timestamp),
    parts.nonce,
    method.toUpperCase(),
    rawPath === '' ? '/' : rawPath,
    canonicalQuery(rawQuery),
    createHash('sha256').update(body).digest('hex'),
  ].join('\n');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(stringToSign).digest();
  const given = Buffer.from(parts.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `(key id, nonce)` pairs seen in the last `retentionMs`; pruned as time goes by. */
export class NonceBook {
  private readonly seen = new Map<string, number>();
  private lastPrune = 0;

  constructor(private readonly retentionMs: number) {}

  /** Records the pair, or answers false when it was seen within the retention. */
  record(keyId: string, nonce: string, now: number): boolean {
    if (now - this.lastPrune > 10_000) this.prune(now);
    const key = `${keyId}\n${nonce}`;
    const at = this.seen.get(key);
    if (at !== undefined && now - at < this.retentionMs) return false;
    // Deleted first so that the pair moves to the end of the insertion order.
    this.seen.delete(key);
    this.seen.set(key, now);
    return true;
  }

  private prune(now: number): void {
    this.lastPrune = now;
    // A Map iterates in insertion order, which is time order here.
    for (const [key, at] of this.seen) {
      if (now - at < this.retentionMs) break;
      this.seen.delete(key);
    }
  }
}
