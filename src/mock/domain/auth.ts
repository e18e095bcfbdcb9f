import { bodyHash, buildStringToSign, parseAuthorization, type ParsedAuthorization } from '../../protocol/index.js';
import type { DefectSet } from '../defects/defect-set.js';
import type { Agency } from './agency.js';
import { ApiError } from './api-error.js';
import type { NonceCache } from './nonce-cache.js';

/** What authentication looks at: the request as it came over the wire. */
interface AuthInput {
  method: string;
  /** Path as sent, without the query. */
  path: string;
  /** Raw query without `?`. */
  query: string;
  body: Uint8Array;
  /** The body's bytes as Latin-1 text (one character a byte), when the caller has made it: the body's hash is then looked up by it. */
  bodyText?: string | undefined;
  authorization: string | undefined;
  timestamp: string | undefined;
  nonce: string | undefined;
}

/** Accepted clock skew of `X-SVC-Timestamp`, in seconds. */
const TIMESTAMP_TOLERANCE_S = 300;

/** `/^\d{1,15}$/` without a pattern match per request. */
function isTimestampText(value: string): boolean {
  const n = value.length;
  if (n < 1 || n > 15) return false;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** `/^[A-Za-z0-9_-]{16,64}$/` without a pattern match per request. */
function isNonceText(value: string): boolean {
  const n = value.length;
  if (n < 16 || n > 64) return false;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return false;
  }
  return true;
}

/** True when `signed` names `lowerName`, in any case (no lower-cased copy of the list per request). */
function signsHeader(signed: readonly string[], lowerName: string): boolean {
  for (const h of signed) if (h.length === lowerName.length && h.toLowerCase() === lowerName) return true;
  return false;
}

/**
 * Constant-time comparison of two hex signatures: every character is looked
 * at whatever differs. In JS rather than `timingSafeEqual`, which needs two
 * Buffers made per request.
 */
function sameSignature(expected: string, given: string): boolean {
  if (expected.length !== given.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}

function unauthenticated(message: string): ApiError {
  return new ApiError(401, 'UNAUTHENTICATED', message);
}

/** What an `Authorization` value says before its signature: the key id, and whether both required headers are signed. */
interface AuthorizationHead {
  keyId: string;
  signsRequired: boolean;
}

/** Hex characters of a signature, the end of every well-formed `Authorization` value. */
const SIGNATURE_CHARS = 64;

/** Most distinct heads remembered (all are forgotten at once beyond it). */
const KNOWN_HEADS = 1024;

/**
 * The heads (an `Authorization` value without its last 64 characters) of
 * well-formed values seen before. A client's values differ only in their
 * signature, so its head is parsed once, not matched, split and compared per
 * request. Exact: when a value ends in 64 lower-case hex characters, whether
 * it fits the layout and what it names depend on its head alone (the
 * signature group is exactly those characters), and the head's meaning is
 * taken from `parseAuthorization` itself.
 */
const knownHeads = new Map<string, AuthorizationHead>();

/** The head found last, and its text: a run of one client's requests is judged without a lookup. */
let lastHead: AuthorizationHead | undefined;
let lastHeadText = '';

function endsInSignature(value: string): boolean {
  if (value.length <= SIGNATURE_CHARS) return false;
  for (let i = value.length - SIGNATURE_CHARS; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

function headOf(parsed: ParsedAuthorization): AuthorizationHead {
  return { keyId: parsed.keyId, signsRequired: signsHeader(parsed.signedHeaders, 'x-svc-nonce') && signsHeader(parsed.signedHeaders, 'x-svc-timestamp') };
}

/** The head of a well-formed `Authorization` value, or undefined when it does not fit the layout. */
function authorizationHead(value: string | undefined): AuthorizationHead | undefined {
  if (value === undefined || !endsInSignature(value)) {
    const parsed = parseAuthorization(value);
    return parsed && headOf(parsed);
  }
  if (lastHead !== undefined && value.length === lastHeadText.length + SIGNATURE_CHARS && value.startsWith(lastHeadText)) return lastHead;
  const text = value.slice(0, value.length - SIGNATURE_CHARS);
  let head = knownHeads.get(text);
  if (head === undefined) {
    const parsed = parseAuthorization(value);
    if (!parsed) return undefined;
    head = headOf(parsed);
    if (knownHeads.size >= KNOWN_HEADS) knownHeads.clear();
    knownHeads.set(text, head);
  }
  lastHead = head;
  lastHeadText = text;
  return head;
}

/** Most body hashes remembered (all are forgotten at once beyond it). */
const KNOWN_BODIES = 256;

/**
 * SHA-256 of recent bodies, by their bytes as Latin-1 text (a text per byte
 * string, so the same text means the same bytes): a load repeats its bodies,
 * and a lookup costs less than a hash in the server.
 */
const bodyHashes = new Map<string, string>();

function hashOfBody(input: AuthInput): string {
  const text = input.bodyText;
  if (text === undefined) return bodyHash(input.body);
  let sha = bodyHashes.get(text);
  if (sha === undefined) {
    sha = bodyHash(input.body);
    if (bodyHashes.size >= KNOWN_BODIES) bodyHashes.clear();
    bodyHashes.set(text, sha);
  }
  return sha;
}

/**
 * Judges SVC-HMAC-SHA256 in the order of REFERENCE-API.md section 3: form and
 * key id, signature (constant time), timestamp, nonce; the nonce is recorded
 * only once signature and timestamp have passed.
 */
export function authenticate(input: AuthInput, agencyByKey: ReadonlyMap<string, Agency>, nonces: NonceCache, now: number, defects: DefectSet): Agency {
  const authorization = input.authorization;
  const parsed = authorizationHead(authorization);
  if (!parsed) throw unauthenticated('Authorization header missing or not of the form "SVC-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…"');
  if (!parsed.signsRequired) throw unauthenticated('SignedHeaders must list x-svc-nonce and x-svc-timestamp');
  if (input.timestamp === undefined || !isTimestampText(input.timestamp)) throw unauthenticated('X-SVC-Timestamp missing or not integer Unix seconds');
  if (input.nonce === undefined || !isNonceText(input.nonce)) throw unauthenticated('X-SVC-Nonce missing or not 16 to 64 characters of [A-Za-z0-9_-]');
  const agency = agencyByKey.get(parsed.keyId);
  if (!agency) {
    if (defects.has('unknown-key-signature-invalid')) throw new ApiError(401, 'SIGNATURE_INVALID', 'signature does not match the request');
    throw unauthenticated('unknown key id');
  }

  const timestamp = Number(input.timestamp);
  const signed = buildStringToSign({
    method: input.method,
    path: input.path,
    query: input.query,
    body: input.body,
    bodySha256: hashOfBody(input),
    timestamp,
    nonce: input.nonce,
  });
  // A well-formed value ends in its signature (after any trailing white space, which the layout allows).
  const signatureOk = sameSignature(agency.signingKey.hex(signed), authorization!.trimEnd().slice(-SIGNATURE_CHARS));
  // Recording a refused request's nonce lets a forged request use up a real client's nonce.
  if (!signatureOk && defects.has('nonce-recorded-early') && !nonces.has(agency.keyId, input.nonce, now)) nonces.record(agency.keyId, input.nonce, now);
  if (!signatureOk && !defects.has('signature-unchecked')) {
    throw new ApiError(401, 'SIGNATURE_INVALID', 'signature does not match the request');
  }

  const skewS = Math.abs(now / 1000 - timestamp);
  if (skewS > TIMESTAMP_TOLERANCE_S && !defects.has('timestamp-unchecked')) {
    throw new ApiError(401, 'TIMESTAMP_SKEW', `X-SVC-Timestamp is more than ${TIMESTAMP_TOLERANCE_S} s from the server clock`, {
      server_time: Math.floor(now / 1000),
    });
  }

  const replayed = nonces.has(agency.keyId, input.nonce, now);
  if (replayed && !defects.has('nonce-unchecked')) {
    throw new ApiError(401, 'NONCE_REPLAYED', 'this nonce was already used in the last 600 s');
  }
  nonces.record(agency.keyId, input.nonce, now, replayed);
  return agency;
}
