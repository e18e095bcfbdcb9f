import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { CRITERIA, startMock, type MockClient } from '../helpers/mock-client.js';

let mock: RunningMock;
let alpha: MockClient;
let beta: MockClient;
let gamma: MockClient;
beforeAll(async () => {
  ({ mock, alpha, beta, gamma } = await startMock());
});
beforeEach(async () => mock.reset());
afterAll(async () => mock.close());

let n = 0;
const key = (): string => `key-${Date.now()}-${++n}`;

describe('account, wallet, webhook endpoint', () => {
  test('account lists all four products', async () => {
    const res = await beta.get('/v1/account');
    expect(res.json).toEqual({
      agency_id: 'agency-beta',
      name: 'Agency Beta',
      currency: 'GBP',
      products: [
        { product: 'flights', enabled: true },
        { product: 'transfers', enabled: false },
        { product: 'activities', enabled: false },
        { product: 'cars', enabled: false },
      ],
      rate_limits: { read: 120, write: 20, window_s: 60 },
    });
  });

  test('balance, rates', async () => {
    const bal = await gamma.get('/v1/wallet/balance');
    expect(bal.json).toMatchObject({ currency: 'USD', balance: 5000 });
    expect(bal.json.as_of).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const rates = await beta.get('/v1/wallet/rates');
    expect(rates.json.base).toBe('GBP');
    expect(rates.json.rates.GBP).toBe(1);
    expect(rates.json.rates.EUR).toBeGreaterThan(1);
  });

  test('webhook endpoint GET and PUT keep the secret', async () => {
    const get = await alpha.get('/v1/webhook-endpoint');
    expect(get.json).toEqual({ url: null, secret: alpha.agency.webhook_secret });
    const put = await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: 'http://127.0.0.1:9/hook' } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ url: 'http://127.0.0.1:9/hook', secret: alpha.agency.webhook_secret });
    expect((await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: 'ftp://x' } })).status).toBe(422);
    expect((await alpha.get('/v1/webhook-endpoint')).json.url).toBe('http://127.0.0.1:9/hook');
  });
});

describe('search and quotes (sections 5, 6)', () => {
  test.each(Object.keys(CRITERIA))('%s search: 1 to 5 results, deterministic within a minute, fresh tokens', async (product) => {
    const a = await gamma.post(`/v1/${product}/search`, { criteria: CRITERIA[product] });
    const b = await gamma.post(`/v1/${product}/search`, { criteria: CRITERIA[product] });
    expect(a.status).toBe(200);
    const ra = a.json.results;
    expect(ra.length).toBeGreaterThanOrEqual(1);
    expect(ra.length).toBeLessThanOrEqual(5);
    for (const r of ra) {
      expect(r.product).toBe(product);
      expect(r.quote_token).toMatch(/^qt_[A-Za-z0-9_.-]+$/);
      expect(r.quote_expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(r.price).toEqual({ amount: expect.any(Number), currency: 'USD' });
      expect(Number.isInteger(r.price.amount)).toBe(true);
    }
    const strip = (rs: Array<Record<string, unknown>>): unknown => rs.map(({ result_id, summary, price }) => ({ result_id, summary, price }));
    if (Math.floor(mock.clock.now() / 60_000) === Math.floor((mock.clock.now() - 50) / 60_000)) expect(strip(b.json.results)).toEqual(strip(ra));
    expect(b.json.results[0].quote_token).not.toBe(ra[0].quote_token);
  });

  test('prices change from one clock minute to the next', async () => {
    const a = (await alpha.quote('flights')).price.amount;
    await mock.advance(60_000);
    const b = (await alpha.quote('flights')).price.amount;
    expect(b).not.toBe(a);
  });

  test('quote lifetime is 900 s: expired at expiry, 410 QUOTE_EXPIRED, nothing charged', async () => {
    const q = await alpha.quote('flights');
    expect(Date.parse(q.quote_expires_at) - mock.clock.now()).toBeGreaterThan(899_000);
    await mock.advance(Date.parse(q.quote_expires_at) - mock.clock.now());
    const res = await alpha.book('flights', q.quote_token, key());
    expect(res.status).toBe(410);
    expect(res.json.error.code).toBe('QUOTE_EXPIRED');
    expect(await alpha.balance()).toBe(1_000_000);
  });

  test('a booking charges the locked price after the price moved', async () => {
    const q = await alpha.quote('flights');
    await mock.advance(120_000);
    const now = await alpha.quote('flights');
    expect(now.price.amount).not.toBe(q.price.amount);
    const res = await alpha.book('flights', q.quote_token, key());
    expect(res.status).toBe(201);
    expect(res.json.price).toEqual(q.price);
    expect(await alpha.balance()).toBe(1_000_000 - q.price.amount);
  });
});

describe('bookings (section 5)', () => {
  test('booking 201, GET, statement debit', async () => {
    const q = await alpha.quote('transfers');
    const res = await alpha.book('transfers', q.quote_token, key(), { client_reference: 'REF-1' });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      booking_id: expect.stringMatching(/^bk_/),
      product: 'transfers',
      status: 'confirmed',
      price: q.price,
      client_reference: 'REF-1',
      created_at: expect.stringMatching(/Z$/),
    });
    const get = await alpha.get(`/v1/transfers/bookings/${res.json.booking_id}`);
    expect(get.json).toEqual(res.json);
    expect((await alpha.get(`/v1/flights/bookings/${res.json.booking_id}`)).status).toBe(404);
    const st = await alpha.get('/v1/wallet/statement');
    expect(st.json.entries).toEqual([
      {
        entry_id: expect.any(String),
        type: 'debit',
        amount: q.price.amount,
        balance_after: 1_000_000 - q.price.amount,
        booking_id: res.json.booking_id,
        created_at: expect.any(String),
      },
    ]);
    expect(st.json.next_cursor).toBeNull();
  });

  test('booking failures charge nothing and redeem nothing', async () => {
    const tamper = (t: string): string => `${t.slice(0, -3)}${t.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const q = await alpha.quote('flights');
    const cases: Array<[string, () => Promise<{ status: number; json: { error: { code: string } } }>, number, string]> = [
      ['unknown token', () => alpha.book('flights', 'qt_unknown', key()), 404, 'QUOTE_NOT_FOUND'],
      ['tampered token', () => alpha.book('flights', tamper(q.quote_token), key()), 404, 'QUOTE_NOT_FOUND'],
      ['another agency token', () => gamma.book('flights', q.quote_token, key()), 404, 'QUOTE_NOT_FOUND'],
      ['quote of another product', () => alpha.book('transfers', q.quote_token, key()), 422, 'VALIDATION_FAILED'],
      ['supplier refuses', () => alpha.book('flights', q.quote_token, key(), { client_reference: 'FAIL-SUPPLIER-1' }), 502, 'SUPPLIER_UNAVAILABLE'],
    ];
    for (const [name, run, status, code] of cases) {
      const res = await run();
      expect([name, res.status, res.json.error.code]).toEqual([name, status, code]);
    }
    expect(await alpha.balance()).toBe(1_000_000);
    expect((await alpha.get('/v1/wallet/statement')).json.entries).toEqual([]);
    // The quote is still redeemable after all of that; once.
    expect((await alpha.book('flights', q.quote_token, key())).status).toBe(201);
    const again = await alpha.book('flights', q.quote_token, key());
    expect([again.status, again.json.error.code]).toEqual([409, 'QUOTE_ALREADY_REDEEMED']);
  });

  test('402 INSUFFICIENT_FUNDS', async () => {
    const q = await gamma.quote('flights');
    expect(q.price.amount).toBeGreaterThan(5000);
    const res = await gamma.book('flights', q.quote_token, key());
    expect([res.status, res.json.error.code]).toEqual([402, 'INSUFFICIENT_FUNDS']);
    expect(await gamma.balance()).toBe(5000);
  });

  test('cancellation refunds the full price; a second one is 409', async () => {
    const q = await alpha.quote('activities');
    const b = await alpha.book('activities', q.quote_token, key());
    const c = await alpha.post(`/v1/activities/bookings/${b.json.booking_id}/cancellations`, undefined, { idempotencyKey: key() });
    expect(c.status).toBe(201);
    expect(c.json).toEqual({
      cancellation_id: expect.any(String),
      booking_id: b.json.booking_id,
      status: 'cancelled',
      refund: q.price,
      created_at: expect.any(String),
    });
    expect(await alpha.balance()).toBe(1_000_000);
    expect((await alpha.get(`/v1/activities/bookings/${b.json.booking_id}`)).json.status).toBe('cancelled');
    const again = await alpha.post(`/v1/activities/bookings/${b.json.booking_id}/cancellations`, { reason: 'x' }, { idempotencyKey: key() });
    expect([again.status, again.json.error.code]).toEqual([409, 'BOOKING_ALREADY_CANCELLED']);
    expect((await alpha.post('/v1/activities/bookings/bk_nope/cancellations', {}, { idempotencyKey: key() })).status).toBe(404);
    const st = (await alpha.get('/v1/wallet/statement')).json.entries;
    expect(st.map((e: { type: string }) => e.type)).toEqual(['refund', 'debit']);
  });

  test('statement: newest first, limit bounds, cursor pagination', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const q = await alpha.quote('transfers', { ...CRITERIA.transfers, passengers: i + 1 });
      ids.push((await alpha.book('transfers', q.quote_token, key())).json.booking_id);
    }
    const p1 = await alpha.get('/v1/wallet/statement?limit=2');
    expect(p1.json.entries.map((e: { booking_id: string }) => e.booking_id)).toEqual([ids[4], ids[3]]);
    const p2 = await alpha.get(`/v1/wallet/statement?limit=2&cursor=${p1.json.next_cursor}`);
    expect(p2.json.entries.map((e: { booking_id: string }) => e.booking_id)).toEqual([ids[2], ids[1]]);
    const p3 = await alpha.get(`/v1/wallet/statement?limit=2&cursor=${p2.json.next_cursor}`);
    expect(p3.json.entries.map((e: { booking_id: string }) => e.booking_id)).toEqual([ids[0]]);
    expect(p3.json.next_cursor).toBeNull();
    for (const bad of ['limit=0', 'limit=201', 'limit=abc', 'cursor=zzz']) {
      const r = await alpha.get(`/v1/wallet/statement?${bad}`);
      expect([bad, r.status, r.json.error.code]).toEqual([bad, 422, 'VALIDATION_FAILED']);
    }
    expect((await alpha.get('/v1/wallet/statement?limit=200')).status).toBe(200);
  });
});
