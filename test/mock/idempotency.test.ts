import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { startMock, type MockClient } from '../helpers/mock-client.js';

let mock: RunningMock;
let alpha: MockClient;
let gamma: MockClient;
beforeAll(async () => {
  ({ mock, alpha, gamma } = await startMock({ supplierLatencyMs: 40 }));
});
beforeEach(async () => mock.reset());
afterAll(async () => mock.close());

const T = [{ first_name: 'Ada', last_name: 'Lovelace' }];

describe('idempotency (section 7)', () => {
  test('missing key is 400 IDEMPOTENCY_KEY_REQUIRED; invalid key has details.reason "invalid"', async () => {
    const q = await alpha.quote();
    const missing = await alpha.post('/v1/flights/bookings', { quote_token: q.quote_token, travellers: T });
    expect([missing.status, missing.json.error.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'é']) {
      const res = await alpha.post('/v1/flights/bookings', { quote_token: q.quote_token, travellers: T }, { headers: { 'idempotency-key': bad } });
      expect([res.status, res.json.error.code, res.json.error.details.reason]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED', 'invalid']);
    }
    expect(await alpha.balance()).toBe(1_000_000);
  });

  test('replay is byte-identical, marked, and uncharged; a quoted key is the same key', async () => {
    const q = await alpha.quote();
    const first = await alpha.book('flights', q.quote_token, 'abc-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await alpha.book('flights', q.quote_token, '"abc-1"');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.raw.equals(first.raw)).toBe(true);
    expect(await alpha.balance()).toBe(1_000_000 - q.price.amount);
    expect((await alpha.get('/v1/wallet/statement')).json.entries).toHaveLength(1);
  });

  test('a stored error is replayed too (anything that passed steps 1 to 5)', async () => {
    const first = await alpha.book('flights', 'qt_forged', 'err-1');
    expect(first.status).toBe(404);
    const replay = await alpha.book('flights', 'qt_forged', 'err-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.raw.equals(first.raw)).toBe(true);
    expect(replay.headers['x-request-id']).toBe(replay.json.error.request_id);
  });

  test('nothing stored for requests refused in steps 1 to 5', async () => {
    const q = await alpha.quote();
    expect((await alpha.post('/v1/flights/bookings', '{bad', { idempotencyKey: 'k5' })).status).toBe(400);
    expect((await alpha.book('flights', q.quote_token, 'k5')).status).toBe(201);
  });

  test('same key, other body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const q = await alpha.quote();
    expect((await alpha.book('flights', q.quote_token, 'reuse')).status).toBe(201);
    const res = await alpha.book('flights', q.quote_token, 'reuse', { client_reference: 'other' });
    expect([res.status, res.json.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  test('scope is (agency, method, path): the same key elsewhere is a new key', async () => {
    const qa = await alpha.quote();
    const qg = await gamma.quote('activities');
    expect((await alpha.book('flights', qa.quote_token, 'shared')).status).toBe(201);
    const g = await gamma.book('activities', qg.quote_token, 'shared');
    expect(g.headers['idempotent-replayed']).toBeUndefined();
    const b = (await alpha.book('flights', qa.quote_token, 'shared')).json.booking_id;
    const c = await alpha.post(`/v1/flights/bookings/${b}/cancellations`, {}, { idempotencyKey: 'shared' });
    expect(c.status).toBe(201);
  });

  test('concurrent same key and body: one booking, the other 409 IDEMPOTENCY_KEY_IN_USE; other body 422', async () => {
    const q = await alpha.quote();
    const [a, b, c] = await Promise.all([
      alpha.book('flights', q.quote_token, 'conc'),
      alpha.book('flights', q.quote_token, 'conc'),
      alpha.book('flights', q.quote_token, 'conc', { client_reference: 'x' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.json.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect([c.status, c.json.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await alpha.get('/v1/wallet/statement')).json.entries).toHaveLength(1);
  });

  test('retention 24 h: afterwards the key is new again', async () => {
    expect((await alpha.book('flights', 'qt_nope', 'ret')).status).toBe(404);
    await mock.advance(24 * 3600_000 - 5_000);
    expect((await alpha.book('flights', 'qt_nope', 'ret')).headers['idempotent-replayed']).toBe('true');
    await mock.advance(10_000);
    const q2 = await alpha.quote();
    const fresh = await alpha.book('flights', q2.quote_token, 'ret');
    expect(fresh.status).toBe(201);
  });
});
