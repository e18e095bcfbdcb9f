import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockClient, startMock, rawRequest } from '../helpers/mock-client.js';
import type { RunningMock } from '../../src/mock/create-mock.js';

let mock: RunningMock;
let alpha: MockClient;
beforeAll(async () => {
  ({ mock, alpha } = await startMock());
});
afterAll(async () => mock.close());

function expectError(
  res: { status: number; json: { error: { code: string; request_id: string; details: object } }; headers: Record<string, string> },
  status: number,
  code: string,
): void {
  expect(res.status).toBe(status);
  expect(res.json.error.code).toBe(code);
  expect(res.json.error.details).toBeTypeOf('object');
  expect(res.headers['x-request-id']).toBe(res.json.error.request_id);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

describe('authentication (section 3)', () => {
  test('a correctly signed request passes', async () => {
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });

  test('missing headers are 401 UNAUTHENTICATED', async () => {
    expectError(await alpha.get('/v1/account', { unsigned: true }), 401, 'UNAUTHENTICATED');
  });

  test.each([
    ['malformed Authorization', { authorization: 'Bearer abc' }],
    ['non-integer timestamp', { 'x-svc-timestamp': '12.5' }],
    ['short nonce', { 'x-svc-nonce': 'short' }],
    ['nonce with bad characters', { 'x-svc-nonce': 'abcdefghijklmnop!' }],
  ])('%s is 401 UNAUTHENTICATED', async (_name, headers) => {
    expectError(await alpha.get('/v1/account', { headers }), 401, 'UNAUTHENTICATED');
  });

  test('unknown key id is 401 UNAUTHENTICATED', async () => {
    const other = new MockClient(mock, { ...alpha.agency, key_id: 'ak_nobody' });
    expectError(await other.get('/v1/account'), 401, 'UNAUTHENTICATED');
  });

  test('wrong secret is 401 SIGNATURE_INVALID', async () => {
    expectError(await alpha.get('/v1/account', { secret: 'not-the-secret' }), 401, 'SIGNATURE_INVALID');
  });

  test('signature covers the query and the raw body', async () => {
    const ok = await alpha.get('/v1/wallet/statement?limit=2');
    expect(ok.status).toBe(200);
    // Signed for one query, sent with another.
    const { signRequest } = await import('../../src/protocol/request-signature.js');
    const sig = signRequest({
      method: 'GET',
      path: '/v1/wallet/statement',
      query: 'limit=2',
      keyId: 'ak_alpha',
      secret: alpha.agency.secret,
      timestamp: Math.floor(mock.clock.now() / 1000),
      nonce: 'nonce_query_tamper_1',
    });
    expectError(await rawRequest(`${alpha.origin}/v1/wallet/statement?limit=3`, { headers: sig.headers }), 401, 'SIGNATURE_INVALID');
  });

  test('timestamp outside ±300 s is 401 TIMESTAMP_SKEW, inside is fine', async () => {
    const now = Math.floor(mock.clock.now() / 1000);
    expectError(await alpha.get('/v1/account', { timestamp: now - 302 }), 401, 'TIMESTAMP_SKEW');
    expectError(await alpha.get('/v1/account', { timestamp: now + 302 }), 401, 'TIMESTAMP_SKEW');
    expect((await alpha.get('/v1/account', { timestamp: now - 290 })).status).toBe(200);
  });

  test('a reused nonce is 401 NONCE_REPLAYED; after 600 s it is accepted again', async () => {
    const nonce = `n_${Date.now()}_replay_test`;
    expect((await alpha.get('/v1/account', { nonce })).status).toBe(200);
    expectError(await alpha.get('/v1/account', { nonce }), 401, 'NONCE_REPLAYED');
    await mock.advance(600_000);
    expect((await alpha.get('/v1/account', { nonce })).status).toBe(200);
  });

  test('order: bad signature wins over skew; a forged request does not use up the nonce', async () => {
    const now = Math.floor(mock.clock.now() / 1000);
    const nonce = `n_${Date.now()}_forged_first`;
    expectError(await alpha.get('/v1/account', { nonce, secret: 'forged', timestamp: now - 1000 }), 401, 'SIGNATURE_INVALID');
    expectError(await alpha.get('/v1/account', { nonce, timestamp: now - 1000 }), 401, 'TIMESTAMP_SKEW');
    expect((await alpha.get('/v1/account', { nonce })).status).toBe(200);
  });

  test('401 responses carry no rate-limit headers and are not counted', async () => {
    const res = await alpha.get('/v1/account', { secret: 'x' });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
