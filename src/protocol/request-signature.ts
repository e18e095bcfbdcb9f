import { createHmac, hash, randomBytes, type KeyObject } from 'node:crypto';

/** The signing scheme's name, first line of the string to sign and first word of `Authorization`. */
export const SIGNING_SCHEME = 'SVC-HMAC-SHA256';

/** Header names the scheme uses; a target profile may rename them. */
export interface SigningHeaderNames {
  authorization: string;
  timestamp: string;
  nonce: string;
}

/** The reference API's header names (REFERENCE-API.md section 3). */
export const DEFAULT_SIGNING_HEADERS: Readonly<SigningHeaderNames> = Object.freeze({
  authorization: 'authorization',
  timestamp: 'x-svc-timestamp',
  nonce: 'x-svc-nonce',
});

/** What a signature covers. */
export interface SignInput {
  method: string;
  /** Path as sent, starting with /v1, without the query. */
  path: string;
  /** Raw query string as sent, without the leading `?` (may be empty). */
  query?: string;
  /** Raw body bytes; absent or empty means the empty string. */
  body?: Uint8Array | string | undefined;
  keyId: string;
  secret: string;
  /** Unix epoch seconds. */
  timestamp: number;
  nonce: string;
}

/** A computed signature and the headers that carry it. */
export interface Signature {
  stringToSign: string;
  signature: string;
  headers: Record<string, string>;
}

/** RFC 3986 percent-encoding: everything but unreserved characters. */
export function rfc3986Encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Canonical query of the string to sign: each key and value decoded then
 * RFC 3986 encoded, pairs sorted by encoded key then encoded value, joined by
 * `&` as `key=value`. `+` is a literal plus, never a space.
 */
export function canonicalQuery(rawQuery: string | undefined): string {
  if (!rawQuery) return '';
  const q = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  const pairs: Array<[string, string]> = [];
  for (const part of q.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([rfc3986Encode(safeDecode(key)), rfc3986Encode(safeDecode(value))]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Lower-case hex SHA-256 of the raw body bytes. */
export function bodyHash(body: Uint8Array | string | undefined): string {
  // One-shot hash: no Hash object per call (it runs once per request on both sides).
  return hash('sha256', body ?? '', 'hex');
}

/** The string to sign, lines joined by `\n`, no trailing newline; `bodySha256`, the body's {@link bodyHash} when the caller has it already. */
export function buildStringToSign(input: Omit<SignInput, 'keyId' | 'secret'> & { bodySha256?: string | undefined }): string {
  const path = input.path === '' ? '/' : input.path;
  return `${SIGNING_SCHEME}\n${input.timestamp}\n${input.nonce}\n${input.method.toUpperCase()}\n${path}\n${canonicalQuery(input.query)}\n${input.bodySha256 ?? bodyHash(input.body)}`;
}

/**
 * Lower-case hex HMAC-SHA256 of `stringToSign`, keyed with the secret's UTF-8
 * bytes (or a key object made from them once, for a caller that signs often).
 */
export function computeSignature(secret: string | KeyObject, stringToSign: string): string {
  return createHmac('sha256', secret).update(stringToSign, 'utf8').digest('hex');
}

/** The `Authorization` header value. */
export function authorizationValue(keyId: string, signature: string, names: SigningHeaderNames = DEFAULT_SIGNING_HEADERS): string {
  const signed = [names.nonce, names.timestamp]
    .map((n) => n.toLowerCase())
    .sort()
    .join(';');
  return `${SIGNING_SCHEME} Credential=${keyId}, SignedHeaders=${signed}, Signature=${signature}`;
}

/** Signs a request: a pure function of its input. */
export function signRequest(input: SignInput, names: SigningHeaderNames = DEFAULT_SIGNING_HEADERS): Signature {
  const stringToSign = buildStringToSign(input);
  const signature = computeSignature(input.secret, stringToSign);
  return {
    stringToSign,
    signature,
    headers: {
      [names.authorization]: authorizationValue(input.keyId, signature, names),
      [names.timestamp]: String(input.timestamp),
      [names.nonce]: input.nonce,
    },
  };
}

/** A fresh nonce: 32 characters of base64url (within `[A-Za-z0-9_-]{16,64}`). */
export function freshNonce(): string {
  return randomBytes(24).toString('base64url');
}

/** Parsed `Authorization` header of the scheme, or `undefined` when malformed. */
export interface ParsedAuthorization {
  keyId: string;
  signedHeaders: string[];
  signature: string;
}

const AUTH_RE = /^SVC-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;

/** Parses an `Authorization` header of the scheme; `undefined` when it does not fit the layout. */
export function parseAuthorization(value: string | undefined): ParsedAuthorization | undefined {
  if (!value) return undefined;
  const m = AUTH_RE.exec(value.trim());
  if (!m) return undefined;
  return { keyId: m[1]!, signedHeaders: m[2]!.split(';'), signature: m[3]! };
}
