import { randomBytes } from 'node:crypto';

/**
 * Unique ids for the hot path: a random per-process prefix plus a counter.
 * Ids only need to be unique, never secret (quote tokens get their
 * unforgeability from an HMAC), so no per-id call into the CSPRNG.
 */
export function idSource(prefix: string): () => string {
  const base = `${prefix}${randomBytes(6).toString('base64url')}`;
  let n = 0;
  return () => `${base}${(n++).toString(36).padStart(6, '0')}`;
}
