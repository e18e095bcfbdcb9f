import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  authorizationValue,
  bodyHash,
  buildStringToSign,
  canonicalQuery,
  freshNonce,
  parseAuthorization,
  rfc3986Encode,
  signRequest,
} from '../../src/protocol/request-signature.js';

const BODY = '{"criteria":{"origin":"LIS"}}';

describe('signer: known vector (REFERENCE-API.md section 3)', () => {
  const input = {
    method: 'post',
    path: '/v1/flights/search',
    query: 'b=3&a=1&b=2',
    body: BODY,
    keyId: 'ak_test',
    secret: 'sk_test_secret',
    timestamp: 1700000000,
    nonce: 'nonce_0123456789abcdef',
  };
  // Written out by hand from the layout of section 3; the body hash is sha256 of BODY.
  const expected =
    'SVC-HMAC-SHA256\n' +
    '1700000000\n' +
    'nonce_0123456789abcdef\n' +
    'POST\n' +
    '/v1/flights/search\n' +
    'a=1&b=2&b=3\n' +
    '29659669787a23a342768dd0b6db9366098cf3cb7c7380ad1b9117a389ab10bf';

  it('builds the exact string to sign', () => {
    expect(createHash('sha256').update(BODY).digest('hex')).toBe('29659669787a23a342768dd0b6db9366098cf3cb7c7380ad1b9117a389ab10bf');
    expect(buildStringToSign(input)).toBe(expected);
  });

  it('signs with HMAC-SHA256 keyed by the secret (independent node:crypto and a pinned value)', () => {
    const independent = createHmac('sha256', Buffer.from('sk_test_secret', 'utf8')).update(expected).digest('hex');
    const sig = signRequest(input);
    expect(sig.signature).toBe(independent);
    // Pinned from `openssl dgst -sha256 -hmac` over the same string.
    expect(sig.signature).toBe('d83c7e52ce7a06c4e37577dd5cd585b8b4d0ab23dffa0f45a676b20aff0abc03');
    expect(sig.headers).toEqual({
      authorization: `SVC-HMAC-SHA256 Credential=ak_test, SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=${independent}`,
      'x-svc-timestamp': '1700000000',
      'x-svc-nonce': 'nonce_0123456789abcdef',
    });
  });

  it('signs bytes and the equal UTF-8 string alike', () => {
    const text = '{"city":"São Paulo ✈"}';
    const a = signRequest({ ...input, body: text });
    const b = signRequest({ ...input, body: Buffer.from(text, 'utf8') });
    expect(a.signature).toBe(b.signature);
  });
});

describe('signer: canonical query', () => {
  it.each([
    ['', ''],
    [undefined, ''],
    ['?a=1', 'a=1'],
    ['q=a%20b', 'q=a%20b'],
    // `+` is a literal plus, so it is encoded, never read as a space.
    ['q=a+b', 'q=a%2Bb'],
    ["x=!'()*", 'x=%21%27%28%29%2A'],
    ['x=%21%27%28%29%2a', 'x=%21%27%28%29%2A'],
    ['a=2&a=1&a=10', 'a=1&a=10&a=2'],
    ['b=&a', 'a=&b='],
    ['a&&b=1&', 'a=&b=1'],
    // Sorted by encoded key: "%" (0x25) sorts before "a", so aé (a%C3%A9) comes before aa.
    ['aa=1&a%C3%A9=2', 'a%C3%A9=2&aa=1'],
    ['B=1&a=2', 'B=1&a=2'],
    ['k=~-._', 'k=~-._'],
  ])('%j → %j', (raw, canonical) => {
    expect(canonicalQuery(raw)).toBe(canonical);
  });

  it('encodes per RFC 3986', () => {
    expect(rfc3986Encode("a b!'()*+/é")).toBe('a%20b%21%27%28%29%2A%2B%2F%C3%A9');
  });

  it('puts an empty line when there is no query', () => {
    const lines = buildStringToSign({ method: 'GET', path: '/v1/account', timestamp: 1, nonce: 'n'.repeat(16) }).split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[5]).toBe('');
  });
});

describe('signer: body and path', () => {
  it('hashes an absent body as the empty string', () => {
    const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(bodyHash(undefined)).toBe(empty);
    expect(bodyHash('')).toBe(empty);
    expect(bodyHash(new Uint8Array())).toBe(empty);
    expect(buildStringToSign({ method: 'GET', path: '/v1/account', timestamp: 1, nonce: 'n'.repeat(16) }).endsWith(`\n${empty}`)).toBe(true);
  });

  it('signs "/" for an empty path', () => {
    expect(buildStringToSign({ method: 'GET', path: '', timestamp: 1, nonce: 'n'.repeat(16) }).split('\n')[4]).toBe('/');
  });

  it('makes fresh, well-formed nonces', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const n = freshNonce();
      expect(n).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
      seen.add(n);
    }
    expect(seen.size).toBe(200);
  });

  it('parses its own Authorization header and refuses malformed ones', () => {
    const sig = 'ab'.repeat(32);
    expect(parseAuthorization(authorizationValue('ak_x', sig))).toEqual({ keyId: 'ak_x', signedHeaders: ['x-svc-nonce', 'x-svc-timestamp'], signature: sig });
    expect(parseAuthorization('Bearer x')).toBeUndefined();
    expect(parseAuthorization(undefined)).toBeUndefined();
    expect(parseAuthorization(`SVC-HMAC-SHA256 Credential=ak_x, SignedHeaders=a, Signature=${'AB'.repeat(32)}`)).toBeUndefined();
  });
});
