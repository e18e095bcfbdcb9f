import { describe, expect, test } from 'vitest';
import { signRequest } from '../../src/protocol/index.js';
import { DefectSet } from '../../src/mock/defects/defect-set.js';
import { agencyFromFixture } from '../../src/mock/domain/agency.js';
import { ApiError } from '../../src/mock/domain/api-error.js';
import { authenticate } from '../../src/mock/domain/auth.js';
import { NonceCache } from '../../src/mock/domain/nonce-cache.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';

const agency = agencyFromFixture(generateAgencies(1)[0]!);
const byKey = new Map([[agency.keyId, agency]]);
const NOW = 1_800_000_000_000;
let n = 0;

/** A signed search's authentication input, with its `Authorization` value passed through `edit`. */
function request(edit: (authorization: string) => string = (a) => a): Parameters<typeof authenticate>[0] {
  const nonce = `nonce_${String(n++).padStart(12, '0')}`;
  const timestamp = NOW / 1000;
  const body = '{"criteria":{}}';
  const signed = signRequest({ method: 'POST', path: '/v1/flights/search', body, keyId: agency.keyId, secret: agency.secret, timestamp, nonce });
  return {
    method: 'POST',
    path: '/v1/flights/search',
    query: '',
    body: Buffer.from(body),
    authorization: edit(signed.headers.authorization!),
    timestamp: String(timestamp),
    nonce,
  };
}

/** The error code `authenticate` answers, or 'ok'. */
function verdict(input: Parameters<typeof authenticate>[0], nonces = new NonceCache()): string {
  try {
    authenticate(input, byKey, nonces, NOW, new DefectSet());
    return 'ok';
  } catch (err) {
    return (err as ApiError).code;
  }
}

describe('authentication by the head of Authorization (values that differ only in their signature)', () => {
  test('every request of one client passes, each judged on its own signature', () => {
    const nonces = new NonceCache();
    for (let i = 0; i < 20; i++) expect(verdict(request(), nonces)).toBe('ok');
    // The same head with another well-formed signature: refused on the signature, not the layout.
    for (let i = 0; i < 5; i++)
      expect(
        verdict(
          request((a) => a.slice(0, -1) + (a.endsWith('0') ? '1' : '0')),
          nonces,
        ),
      ).toBe('SIGNATURE_INVALID');
  });

  test.each([
    ['white space around the value', (a: string) => ` ${a}  `, 'ok'],
    ['a tab after the value', (a: string) => `${a}\t`, 'ok'],
    ['an upper-case signature', (a: string) => a.slice(0, -64) + a.slice(-64).toUpperCase(), 'UNAUTHENTICATED'],
    ['a signature one character short', (a: string) => a.slice(0, -65) + a.slice(-63), 'UNAUTHENTICATED'],
    ['a signature one character long', (a: string) => `${a}0`, 'UNAUTHENTICATED'],
    ['no space after a comma', (a: string) => a.replace(', SignedHeaders', ',SignedHeaders'), 'ok'],
    ['the timestamp not signed', (a: string) => a.replace('SignedHeaders=x-svc-nonce;x-svc-timestamp', 'SignedHeaders=x-svc-nonce'), 'UNAUTHENTICATED'],
    ['signed headers in upper case', (a: string) => a.replace('x-svc-nonce;x-svc-timestamp', 'X-SVC-Nonce;X-SVC-TIMESTAMP'), 'ok'],
    ['another key id', (a: string) => a.replace(`Credential=${agency.keyId}`, 'Credential=key_nobody'), 'UNAUTHENTICATED'],
    [
      'another key id of the same length',
      (a: string) => a.replace(`Credential=${agency.keyId}`, `Credential=${'k'.repeat(agency.keyId.length)}`),
      'UNAUTHENTICATED',
    ],
    ['another scheme', (a: string) => a.replace('SVC-HMAC-SHA256', 'SVC-HMAC-SHA1'), 'UNAUTHENTICATED'],
    ['only a signature', (a: string) => a.slice(-64), 'UNAUTHENTICATED'],
  ])('%s: judged as the whole value is, seen first and seen again', (_name, edit, expected) => {
    // Twice: the first time the head is new, the second time it is known (when well-formed).
    expect(verdict(request(edit))).toBe(expected);
    expect(verdict(request(edit))).toBe(expected);
  });
});

describe('the string to sign, with body hashes looked up', () => {
  /** A request signed by the protocol's signer, as the mock sees it; `bodyText` as the pipeline makes it. */
  function signed(o: { method?: string; path?: string; query?: string; body?: string; timestampText?: (t: string) => string; keyed?: boolean }) {
    const nonce = `nonce_${String(n++).padStart(12, '0')}`;
    const timestamp = NOW / 1000;
    const body = Buffer.from(o.body ?? '');
    const method = o.method ?? 'POST';
    const path = o.path ?? '/v1/flights/search';
    const s = signRequest({ method, path, query: o.query ?? '', body, keyId: agency.keyId, secret: agency.secret, timestamp, nonce });
    return {
      method,
      path,
      query: o.query ?? '',
      body,
      bodyText: o.keyed === false || body.length === 0 ? undefined : body.toString('latin1'),
      authorization: s.headers.authorization!,
      timestamp: (o.timestampText ?? ((t) => t))(String(timestamp)),
      nonce,
    };
  }

  test.each([
    ['a search body', { body: '{"criteria":{"origin":"LHR"}}' }],
    ['the same body again', { body: '{"criteria":{"origin":"LHR"}}' }],
    ['the same body, not keyed', { body: '{"criteria":{"origin":"LHR"}}', keyed: false }],
    ['a non-ASCII body', { body: '{"ville":"Zürich → Genève"}' }],
    ['no body', { method: 'GET', path: '/v1/account' }],
    ['a query', { method: 'GET', path: '/v1/wallet/statement', query: 'to=2026-01-02&from=2026-01-01&x=a%20b' }],
    ['a lower-case method', { method: 'post', body: '{}' }],
    ['an empty path', { method: 'GET', path: '' }],
    ['a timestamp with leading zeros', { body: '{}', timestampText: (t: string) => `000${t}` }],
  ])('%s passes', (_name, o) => {
    expect(verdict(signed(o))).toBe('ok');
  });

  test('a body changed after signing is refused, whether or not its hash is known', () => {
    const first = signed({ body: '{"a":1}' });
    expect(verdict(first)).toBe('ok');
    const other = signed({ body: '{"a":1}' });
    const changed = Buffer.from('{"a":2}');
    expect(verdict({ ...other, body: changed, bodyText: changed.toString('latin1') })).toBe('SIGNATURE_INVALID');
    const again = signed({ body: '{"a":2}' });
    expect(verdict({ ...again, body: Buffer.from('{"a":1}'), bodyText: '{"a":1}' })).toBe('SIGNATURE_INVALID');
  });
});
