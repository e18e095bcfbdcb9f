import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { DEFECT_NAMES, type DefectName } from '../../src/mock/defects/catalogue.js';
import { startMock, type MockClient } from '../helpers/mock-client.js';
import { fixtureWithLimits, startReceiver } from '../helpers/mock-fixture.js';

let mock: RunningMock;
let alpha: MockClient;
let beta: MockClient;
let gamma: MockClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const LIMITS = { read: 5, write: 3 };
beforeAll(async () => {
  ({ mock, alpha, beta, gamma } = await startMock({ fixture: fixtureWithLimits(LIMITS), supplierLatencyMs: 40 }));
  receiver = await startReceiver();
});
afterAll(async () => {
  await mock.close();
  await receiver.close();
});

let n = 0;
const key = (): string => `dk-${++n}`;
const put = (c: MockClient): Promise<unknown> => c.send('PUT', '/v1/webhook-endpoint', { body: { url: null } });

async function countAdmitted(c: MockClient, tries: number, path = '/v1/account'): Promise<number> {
  let ok = 0;
  for (let i = 0; i < tries; i++) if ((await c.get(path)).status === 200) ok += 1;
  return ok;
}

async function retryAfterOfFullBucket(): Promise<string | undefined> {
  await countAdmitted(alpha, LIMITS.read);
  return (await alpha.get('/v1/account')).headers['retry-after'];
}

/** Each case observes one promise; the defect must change the observation from `off` to `on`. */
const CASES: Record<string, { observe: () => Promise<unknown>; off: unknown; on: unknown }> = {
  'signature-unchecked': { observe: async () => (await alpha.get('/v1/account', { secret: 'wrong' })).status, off: 401, on: 200 },
  'timestamp-unchecked': {
    observe: async () => (await alpha.get('/v1/account', { timestamp: Math.floor(mock.clock.now() / 1000) - 400 })).status,
    off: 401,
    on: 200,
  },
  'nonce-unchecked': {
    observe: async () => {
      const nonce = `nonce_${key()}_xxxxxxxxxx`;
      await alpha.get('/v1/account', { nonce });
      return (await alpha.get('/v1/account', { nonce })).status;
    },
    off: 401,
    on: 200,
  },
  'contract-skip': { observe: async () => (await beta.get('/v1/cars/bookings/bk_x')).status, off: 403, on: 404 },
  'error-outside-envelope': { observe: async () => (await alpha.get('/v1/nowhere')).headers['content-type']?.split(';')[0], off: 'application/json', on: 'text/plain' },
  'ratelimit-headers-missing': { observe: async () => (await alpha.get('/v1/account')).headers['x-ratelimit-limit'], off: '5', on: undefined },
  'ratelimit-remaining-wrong': { observe: async () => (await alpha.get('/v1/account')).headers['x-ratelimit-remaining'], off: '4', on: '5' },
  'retry-after-missing': { observe: async () => (await retryAfterOfFullBucket()) !== undefined, off: true, on: false },
  'retry-after-short': { observe: retryAfterOfFullBucket, off: '60', on: '58' },
  'retry-after-long': { observe: retryAfterOfFullBucket, off: '60', on: '63' },
  'limit-plus-one': { observe: () => countAdmitted(alpha, 8), off: 5, on: 6 },
  'early-throttle': { observe: () => countAdmitted(alpha, 8), off: 5, on: 4 },
  'fixed-window': {
    observe: async () => {
      if (mock.clock.now() % 60_000 > 55_000) await mock.advance(10_000);
      await countAdmitted(alpha, 5);
      await mock.advance(60_000 - (mock.clock.now() % 60_000) + 5);
      return (await alpha.get('/v1/account')).status;
    },
    off: 429,
    on: 200,
  },
  'single-bucket': {
    observe: async () => {
      for (let i = 0; i < 3; i++) await put(alpha);
      return countAdmitted(alpha, 5);
    },
    off: 5,
    on: 2,
  },
  'shared-buckets': {
    observe: async () => {
      await countAdmitted(alpha, 5);
      return (await gamma.get('/v1/account')).status;
    },
    off: 200,
    on: 429,
  },
  'ratelimit-charges': {
    observe: async () => {
      const q = await alpha.quote();
      for (let i = 0; i < 3; i++) await put(alpha);
      expect((await alpha.book('flights', q.quote_token, key())).status).toBe(429);
      return 1_000_000 - (await alpha.balance()) === q.price.amount;
    },
    off: false,
    on: true,
  },
  'failed-booking-charges': {
    observe: async () => {
      const q = await alpha.quote();
      expect((await alpha.book('flights', q.quote_token, key(), { client_reference: 'FAIL-SUPPLIER' })).status).toBe(502);
      return 1_000_000 - (await alpha.balance()) === q.price.amount;
    },
    off: false,
    on: true,
  },
  'cancel-no-refund': {
    observe: async () => {
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      expect((await alpha.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: key() })).status).toBe(201);
      return (await alpha.balance()) === 1_000_000 ? 'refunded' : 'not refunded';
    },
    off: 'refunded',
    on: 'not refunded',
  },
  'statement-drops-refunds': {
    observe: async () => {
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      await alpha.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: key() });
      return (await alpha.get('/v1/wallet/statement')).json.entries.length;
    },
    off: 2,
    on: 1,
  },
  'expired-quote-accepted': {
    observe: async () => {
      const q = await alpha.quote();
      await mock.advance(901_000);
      return (await alpha.book('flights', q.quote_token, key())).status;
    },
    off: 410,
    on: 201,
  },
  'live-price-charged': {
    observe: async () => {
      const q = await alpha.quote();
      await mock.advance(60_000);
      return (await alpha.book('flights', q.quote_token, key())).json.price.amount === q.price.amount;
    },
    off: true,
    on: false,
  },
  'replay-books-again': {
    observe: async () => {
      const q = await alpha.quote();
      const k = key();
      await alpha.book('flights', q.quote_token, k);
      await alpha.book('flights', q.quote_token, k);
      return (await alpha.get('/v1/wallet/statement')).json.entries.length;
    },
    off: 1,
    on: 2,
  },
  'replay-differs': {
    observe: async () => {
      const q = await alpha.quote();
      const k = key();
      const a = await alpha.book('flights', q.quote_token, k);
      return a.raw.equals((await alpha.book('flights', q.quote_token, k)).raw);
    },
    off: true,
    on: false,
  },
  'replay-ignores-body': {
    observe: async () => {
      const q = await alpha.quote();
      const k = key();
      await alpha.book('flights', q.quote_token, k);
      return (await alpha.book('flights', q.quote_token, k, { client_reference: 'changed' })).status;
    },
    off: 422,
    on: 201,
  },
  'concurrent-double': {
    observe: async () => {
      const q = await alpha.quote();
      const k = key();
      const rs = await Promise.all([alpha.book('flights', q.quote_token, k), alpha.book('flights', q.quote_token, k)]);
      return rs.find((r) => r.status !== 201)?.json.error.code;
    },
    off: 'IDEMPOTENCY_KEY_IN_USE',
    on: 'QUOTE_ALREADY_REDEEMED',
  },
  'replay-emits-webhook': {
    observe: async () => {
      await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: receiver.url } });
      const q = await alpha.quote();
      const k = key();
      await alpha.book('flights', q.quote_token, k);
      await alpha.book('flights', q.quote_token, k);
      await mock.advance(0);
      return (await deliveries()).length;
    },
    off: 1,
    on: 2,
  },
};

async function deliveries(): Promise<unknown[]> {
  const res = await fetch(`${mock.adminUrl}/webhooks/deliveries`);
  return ((await res.json()) as { deliveries: unknown[] }).deliveries;
}

const MINE = DEFECT_NAMES.filter((d) => !d.startsWith('webhook-') && !d.startsWith('hotel-'));

describe('defects in the service core', () => {
  test('every defect of this area has a case', () => {
    expect(Object.keys(CASES).sort()).toEqual([...MINE].sort());
  });

  test.each(MINE)('%s changes exactly its promise', async (name) => {
    const c = CASES[name]!;
    mock.defects.disable(DEFECT_NAMES);
    await mock.reset();
    expect(await c.observe()).toEqual(c.off);
    mock.defects.enable([name as DefectName]);
    await mock.reset();
    const on = await c.observe();
    expect(on).toEqual(c.on);
    expect(on).not.toEqual(c.off);
    mock.defects.disable([name]);
  });
});
