import { createHash } from 'node:crypto';
import { HarnessError } from '../errors/harness-error.js';
import { knownSecretsRedactor } from '../profile/known-secrets.js';

/** How much of a body an exchange or a webhook delivery keeps as evidence. */
export const EVIDENCE_BODY_BYTES = 64 * 1024;

/**
 * Bytes read past the evidence limit before a cut body is redacted: a secret
 * (in its longest encoded form) straddling the limit is cut out whole before
 * the body is cut, never kept in part.
 */
const REDACTION_MARGIN_BYTES = 4 * 1024;

/** The largest response body the client reads; a larger one is an error for that exchange. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A body as evidence: a prefix of at most `limit` bytes, and for a cut body its full size and hash. */
interface BodyEvidence {
  /** The kept bytes as UTF-8 text. */
  body: string;
  /** The kept bytes. */
  kept: Buffer;
  /** Present when the body was longer than what is kept: the whole body's byte count. */
  bytes?: number;
  /** Present when the body was cut and its whole was read: SHA-256 (hex) of all of it. */
  sha256?: string;
  /** True when `body` is only a prefix. */
  truncated?: true;
}

/**
 * The first `limit` bytes of `whole`, its every known secret redacted before
 * the cut (see {@link REDACTION_MARGIN_BYTES}). A copy, so the kept prefix
 * does not pin the whole body's memory.
 */
export function evidencePrefix(whole: Buffer, limit: number): Buffer {
  const redacted = knownSecretsRedactor().bytes(whole.subarray(0, limit + REDACTION_MARGIN_BYTES));
  return Buffer.from(redacted.subarray(0, Math.min(limit, redacted.length)));
}

/**
 * Keeps at most `limit` bytes of `whole` as evidence; a cut body is redacted
 * before it is cut. A cut body also gets its byte count and SHA-256, so the
 * evidence still identifies what was judged.
 */
export function bodyEvidence(whole: Buffer, limit: number = EVIDENCE_BODY_BYTES): BodyEvidence {
  if (whole.length <= limit) return { body: whole.toString('utf8'), kept: whole };
  const kept = evidencePrefix(whole, limit);
  return { body: kept.toString('utf8'), kept, bytes: whole.length, sha256: createHash('sha256').update(whole).digest('hex'), truncated: true };
}

/** The error for a response body over the cap: an ERROR for the check that sent it, never a crash. */
export function responseTooLarge(max: number, origin: string): HarnessError {
  return new HarnessError('E_RESPONSE_TOO_LARGE', `response body from ${origin} exceeds ${max} bytes (the harness reads at most that much)`);
}
