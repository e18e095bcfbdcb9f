import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * SVC-HMAC-SHA256 request signing, written from the interface description
 * alone (no code shared with the harness), so that a passing certificate
 * proves an independent implementation.
 */

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - . _ ~ */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Query pairs encoded, sorted by key then value, joined with &. */
function canonicalQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const k = decodeURIComponent(eq === -1 ? p : p.slice(0, eq));
      const v = decodeURIComponent(eq === -1 ? '' : p.slice(eq + 1));
      return [encode(k), encode(v)] as const;
    })
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** A fresh nonce: 32 URL-safe characters. */
export function newNonce(): string {
  return randomBytes(24).toString('base64url');
}

/** The three authentication headers of one request. `pathAndQuery` is exactly what goes on the request line. */
export function signHeaders(input: { keyId: string; secret: string; method: string; pathAndQuery: string; body: Buffer }): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = newNonce();
  const q = input.pathAndQuery.indexOf('?');
  const path = q === -1 ? input.pathAndQuery : input.pathAndQuery.slice(0, q);
  const query = q === -1 ? '' : input.pathAndQuery.slice(q + 1);
  const stringToSign = [
    'SVC-HMAC-SHA256',
    timestamp,
    nonce,
    input.method.toUpperCase(),
    path === '' ? '/' : path,
    canonicalQuery(query),
    createHash('sha256').update(input.body).digest('hex'),
  ].join('\n');
  const signature = createHmac('sha256', input.secret).update(stringToSign, 'utf8').digest('hex');
  return {
    authorization: `SVC-HMAC-SHA256 Credential=${input.keyId}, SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=${signature}`,
    'x-svc-timestamp': timestamp,
    'x-svc-nonce': nonce,
  };
}
