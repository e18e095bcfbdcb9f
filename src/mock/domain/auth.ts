import { buildStringToSign, parseAuthorization } from '../../protocol/index.js';
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
  authorization: string | undefined;
  timestamp: string | undefined;
  nonce: string | undefined;
}

/** Accepted clock skew of `X-SVC-Timestamp`, in seconds. */
const TIMESTAMP_TOLERANCE_S = 300;

const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;
const TIMESTAMP_RE = /^\d{1,15}$/;

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

/**
 * Judges SVC-HMAC-SHA256 in the order of REFERENCE-API.md section 3: form and
 * key id, signature (constant time), timestamp, nonce; the nonce is recorded
 * only once signature and timestamp have passed.
 */
export function authenticate(input: AuthInput, agencyByKey: ReadonlyMap<string, Agency>, nonces: NonceCache, now: number, defects: DefectSet): Agency {
  const parsed = parseAuthorization(input.authorization);
  if (!parsed) throw unauthenticated('Authorization header missing or not of the form "SVC-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…"');
  if (!signsHeader(parsed.signedHeaders, 'x-svc-nonce') || !signsHeader(parsed.signedHeaders, 'x-svc-timestamp')) {
    throw unauthenticated('SignedHeaders must list x-svc-nonce and x-svc-timestamp');
  }
  if (input.timestamp === undefined || !TIMESTAMP_RE.test(input.timestamp)) throw unauthenticated('X-SVC-Timestamp missing or not integer Unix seconds');
  if (input.nonce === undefined || !NONCE_RE.test(input.nonce)) throw unauthenticated('X-SVC-Nonce missing or not 16 to 64 characters of [A-Za-z0-9_-]');
  const agency = agencyByKey.get(parsed.keyId);
  if (!agency) {
    if (defects.has('unknown-key-signature-invalid')) throw new ApiError(401, 'SIGNATURE_INVALID', 'signature does not match the request');
    throw unauthenticated('unknown key id');
  }

  const stringToSign = buildStringToSign({
    method: input.method,
    path: input.path,
    query: input.query,
    body: input.body,
    timestamp: Number(input.timestamp),
    nonce: input.nonce,
  });
  const signatureOk = sameSignature(agency.signingKey.hex(stringToSign), parsed.signature);
  // Recording a refused request's nonce lets a forged request use up a real client's nonce.
  if (!signatureOk && defects.has('nonce-recorded-early') && !nonces.has(agency.keyId, input.nonce, now)) nonces.record(agency.keyId, input.nonce, now);
  if (!signatureOk && !defects.has('signature-unchecked')) {
    throw new ApiError(401, 'SIGNATURE_INVALID', 'signature does not match the request');
  }

  const skewS = Math.abs(now / 1000 - Number(input.timestamp));
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
