import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { DEFECT_NAMES, type DefectName } from '../../src/mock/defects/catalogue.js';
import { CRITERIA, rawRequest, startMock, type MockClient } from '../helpers/mock-client.js';
import { fixtureWithLimits, startReceiver } from '../helpers/mock-fixture.js';
import { startReceiver as startScriptedReceiver } from '../../src/receiver/index.js';

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
  'error-outside-envelope': {
    observe: async () => (await alpha.get('/v1/nowhere')).headers['content-type']?.split(';')[0],
    off: 'application/json',
    on: 'text/plain',
  },
  'ratelimit-headers-missing': { observe: async () => (await alpha.get('/v1/account')).headers['x-ratelimit-limit'], off: '5', on: undefined },
  'ratelimit-remaining-wrong': { observe: async () => (await alpha.get('/v1/account')).headers['x-ratelimit-remaining'], off: '4', on: '5' },
  'retry-after-missing': { observe: async () => (await retryAfterOfFullBucket()) !== undefined, off: true, on: false },
  'retry-after-short': { observe: retryAfterOfFullBucket, off: '60', on: '58' },
  'retry-after-long': { observe: retryAfterOfFullBucket, off: '60', on: '63' },
  'limit-plus-one': { observe: () => countAdmitted(alpha, 8), off: 5, on: 6 },
  'early-throttle': { observe: () => countAdmitted(alpha, 8), off: 5, on: 4 },
  'throttle-at-95': { observe: () => countAdmitted(alpha, 8), off: 5, on: 4 },
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
  'booking-body-unchecked': {
    observe: async () =>
      (
        await alpha.send('POST', '/v1/flights/bookings', {
          body: { quote_token: 7, travellers: [{ first_name: 'Ada', last_name: 'L' }] },
          headers: { 'idempotency-key': key() },
        })
      ).status,
    off: 422,
    on: 500,
  },
  'validation-fields-unnamed': {
    observe: async () => {
      const res = await alpha.send('POST', '/v1/flights/bookings', { body: { quote_token: 'qt_x', travellers: [] }, headers: { 'idempotency-key': key() } });
      return (res.json as { error: { details: { fields: Array<{ field: string }> } } }).error.details.fields.map((f) => f.field);
    },
    off: ['travellers'],
    on: ['body'],
  },
  'invalid-booking-charges': {
    observe: async () => {
      const res = await alpha.send('POST', '/v1/flights/bookings', { body: { quote_token: '', travellers: [] }, headers: { 'idempotency-key': key() } });
      expect(res.status).toBe(422);
      return 1_000_000 - (await alpha.balance());
    },
    off: 0,
    on: 100,
  },
  'invalid-booking-emits-event': {
    observe: async () => {
      await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: receiver.url } });
      const res = await alpha.send('POST', '/v1/flights/bookings', { body: { quote_token: 'qt_x', travellers: [] }, headers: { 'idempotency-key': key() } });
      expect(res.status).toBe(422);
      await mock.advance(0);
      return ((await deliveries()) as Array<{ type: string; attempt: number }>).map((d) => `${d.type} #${d.attempt}`);
    },
    off: [],
    on: ['booking.confirmed #1'],
  },
  'statement-limit-unchecked': { observe: async () => (await alpha.get('/v1/wallet/statement?limit=0')).status, off: 422, on: 200 },
  'statement-cursor-not-found': { observe: async () => (await alpha.get('/v1/wallet/statement?cursor=zz')).status, off: 422, on: 404 },
  'product-method-not-found': { observe: async () => (await alpha.send('DELETE', '/v1/flights/bookings')).status, off: 405, on: 404 },
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
  // Cases of the defects added for the self-test.
  'unknown-key-signature-invalid': {
    observe: async () => {
      const now = String(Math.floor(mock.clock.now() / 1000));
      const headers = {
        authorization: `SVC-HMAC-SHA256 Credential=ak_nobody, SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=${'0'.repeat(64)}`,
        'x-svc-timestamp': now,
        'x-svc-nonce': `nonce_${key()}_xxxxxxxxxx`,
      };
      return (await alpha.get('/v1/account', { unsigned: true, headers })).json.error.code;
    },
    off: 'UNAUTHENTICATED',
    on: 'SIGNATURE_INVALID',
  },
  'nonce-recorded-early': {
    observe: async () => {
      const nonce = `nonce_${key()}_xxxxxxxxxx`;
      expect((await alpha.get('/v1/account', { nonce, secret: 'forged' })).status).toBe(401);
      return (await alpha.get('/v1/account', { nonce })).status;
    },
    off: 200,
    on: 401,
  },
  'account-lists-closed-products': {
    observe: async () => (await beta.get('/v1/account')).json.products.filter((p: { enabled: boolean }) => p.enabled).length,
    off: 1,
    on: 4,
  },
  'account-lists-unknown-product': { observe: async () => (await alpha.get('/v1/account')).json.products.length, off: 4, on: 5 },
  'transfers-search-empty': {
    observe: async () => (await alpha.post('/v1/transfers/search', { criteria: CRITERIA.transfers })).json.results.length > 0,
    off: true,
    on: false,
  },
  'price-amount-as-string': {
    observe: async () =>
      ((await alpha.post('/v1/flights/search', { criteria: CRITERIA.flights })).json.results as Array<{ price: { amount: unknown } }>).map(
        (r) => typeof r.price.amount,
      ),
    off: ['number'],
    on: ['string'],
  },
  'error-request-id-mismatch': {
    observe: async () => {
      const q = await alpha.quote();
      await alpha.book('flights', q.quote_token, key());
      const again = await alpha.book('flights', q.quote_token, key());
      expect(again.status).toBe(409);
      return again.json.error.request_id === again.headers['x-request-id'];
    },
    off: true,
    on: false,
  },
  'method-not-allowed-as-404': { observe: async () => (await alpha.send('DELETE', '/v1/account')).status, off: 405, on: 404 },
  'refusals-counted': {
    observe: async () => {
      await countAdmitted(alpha, LIMITS.read);
      await mock.advance(30_000);
      expect(await countAdmitted(alpha, 3)).toBe(0);
      await mock.advance(31_000);
      return countAdmitted(alpha, LIMITS.read);
    },
    off: 5,
    on: 2,
  },
  'wallet-overdraft': {
    observe: async () => {
      const balance = await gamma.balance();
      const res = await gamma.post('/v1/flights/search', { criteria: CRITERIA.flights });
      const offer = (res.json.results as Array<{ quote_token: string; price: { amount: number } }>).find((r) => r.price.amount > balance);
      expect(offer).toBeDefined();
      return (await gamma.book('flights', offer!.quote_token, key())).status;
    },
    off: 402,
    on: 201,
  },
  'rates-missing': { observe: async () => (await alpha.get('/v1/wallet/rates')).status, off: 200, on: 404 },
  'rates-malformed': {
    observe: async () =>
      Object.keys((await alpha.get('/v1/wallet/rates')).json as object)
        .sort()
        .join(','),
    off: 'as_of,base,rates',
    on: 'pad',
  },
  'quote-lifetime-long': {
    observe: async () => Date.parse((await alpha.quote()).quote_expires_at) - mock.clock.now() <= 900_000,
    off: true,
    on: false,
  },
  'quote-tag-unchecked': {
    observe: async () => {
      const q = await alpha.quote();
      const tampered = q.quote_token.slice(0, -1) + (q.quote_token.endsWith('A') ? 'B' : 'A');
      return (await alpha.book('flights', tampered, key())).status;
    },
    off: 404,
    on: 201,
  },
  'quote-redeemable-twice': {
    observe: async () => {
      const q = await alpha.quote();
      expect((await alpha.book('flights', q.quote_token, key())).status).toBe(201);
      return (await alpha.book('flights', q.quote_token, key())).status;
    },
    off: 409,
    on: 201,
  },
  'booking-replay-unflagged': {
    observe: async () => {
      const q = await alpha.quote();
      const k = key();
      await alpha.book('flights', q.quote_token, k);
      return (await alpha.book('flights', q.quote_token, k)).headers['idempotent-replayed'];
    },
    off: 'true',
    on: undefined,
  },
  'cancel-replay-refunds-again': {
    observe: async () => {
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      const k = key();
      await alpha.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: k });
      await alpha.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: k });
      const delta = (await alpha.balance()) - 1_000_000;
      return delta === 0 ? 'refunded once' : delta === q.price.amount ? 'refunded twice' : delta;
    },
    off: 'refunded once',
    on: 'refunded twice',
  },
  'idempotency-key-optional': {
    observe: async () => {
      const q = await alpha.quote();
      return (await alpha.post('/v1/flights/bookings', { quote_token: q.quote_token, travellers: [{ first_name: 'Ada', last_name: 'Lovelace' }] })).status;
    },
    off: 400,
    on: 201,
  },
  'cancel-event-missing': {
    observe: async () => {
      await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: receiver.url } });
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      await alpha.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: key() });
      await mock.advance(0);
      return ((await deliveries()) as Array<{ type: string }>).map((d) => d.type).sort();
    },
    off: ['booking.cancelled', 'booking.confirmed'],
    on: ['booking.confirmed'],
  },
  'booking-readable-by-others': {
    observe: async () => {
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      return (await beta.get(`/v1/flights/bookings/${b.json.booking_id}`)).status;
    },
    off: 404,
    on: 200,
  },
  'cancel-by-others': {
    observe: async () => {
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      const before = await beta.balance();
      const res = await beta.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: key() });
      return [res.status, (await beta.balance()) - before === q.price.amount];
    },
    off: [404, false],
    on: [201, true],
  },
  'quote-shared-across-agencies': {
    observe: async () => (await beta.book('flights', (await alpha.quote()).quote_token, key())).status,
    off: 404,
    on: 201,
  },
  'idempotency-scope-without-agency': {
    observe: async () => {
      const k = key();
      const q = await alpha.quote();
      await alpha.book('flights', q.quote_token, k);
      const res = await beta.book('flights', q.quote_token, k);
      return [res.status, res.headers['idempotent-replayed']];
    },
    off: [404, undefined],
    on: [201, 'true'],
  },
  'statement-lists-others': {
    observe: async () => {
      const q = await alpha.quote();
      const b = await alpha.book('flights', q.quote_token, key());
      const entries = (await beta.get('/v1/wallet/statement')).json.entries as Array<{ booking_id: string | null }>;
      return entries.some((e) => e.booking_id === b.json.booking_id);
    },
    off: false,
    on: true,
  },
};

async function deliveries(): Promise<unknown[]> {
  const res = await fetch(`${mock.adminUrl}/webhooks/deliveries`, { headers: { 'x-svc-admin': '1' } });
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

/** Cases of the webhook and hotel defects added for the self-test (the other webhook and hotel defects have theirs beside the dispatcher and hotel tests). */
const EDGE_CASES: Record<string, { observe: () => Promise<unknown>; off: unknown; on: unknown }> = {
  'webhook-resent-after-success': {
    observe: async () => {
      await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: receiver.url } });
      const q = await alpha.quote();
      await alpha.book('flights', q.quote_token, key());
      await mock.advance(0);
      await mock.advance(60_000);
      return (await deliveries()).length;
    },
    off: 1,
    on: 2,
  },
  'webhook-retries-continue': {
    observe: async () => {
      const scripted = await startScriptedReceiver({ now: () => mock.clock.now() });
      try {
        scripted.script('/wh', { kind: 'sequence', statuses: [500, 200, 200, 200] });
        await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: `${scripted.url}/wh` } });
        const q = await alpha.quote();
        await alpha.book('flights', q.quote_token, key());
        await mock.advance(0);
        await mock.advance(60_000);
        return ((await deliveries()) as Array<{ attempt: number }>).map((d) => d.attempt);
      } finally {
        await scripted.close();
      }
    },
    off: [1, 2],
    on: [1, 2, 3],
  },
  'hotel-double-cancel': {
    observe: async () => {
      const headers = { 'x-api-key': alpha.agency.hotel_api_key, 'content-type': 'application/json' };
      const avail = await rawRequest(`${mock.hotelBaseUrl}/hotels/v1/availability`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ destination: 'Lisbon', check_in: '2026-12-01', check_out: '2026-12-03', rooms: [{ adults: 2 }] }),
      });
      const rateKey = avail.json.hotels[0].rates[0].rate_key as string;
      const booked = await rawRequest(`${mock.hotelBaseUrl}/hotels/v1/bookings`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ rate_key: rateKey, holder: { first_name: 'Ada', last_name: 'Lovelace' } }),
      });
      const url = `${mock.hotelBaseUrl}/hotels/v1/bookings/${booked.json.reference}`;
      expect((await rawRequest(url, { method: 'DELETE', headers: { 'x-api-key': alpha.agency.hotel_api_key } })).status).toBe(200);
      return (await rawRequest(url, { method: 'DELETE', headers: { 'x-api-key': alpha.agency.hotel_api_key } })).status;
    },
    off: 409,
    on: 200,
  },
  'webhook-to-every-agency': {
    observe: async () => {
      await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: `${receiver.url}/alpha` } });
      await beta.send('PUT', '/v1/webhook-endpoint', { body: { url: `${receiver.url}/beta` } });
      const q = await alpha.quote();
      await alpha.book('flights', q.quote_token, key());
      await mock.advance(0);
      return ((await deliveries()) as Array<{ url: string }>).map((d) => d.url.slice(receiver.url.length)).sort();
    },
    off: ['/alpha'],
    on: ['/alpha', '/beta'],
  },
  'hotel-cancel-by-others': {
    observe: async () => {
      const booked = await hotelBooking(alpha, await hotelRateKey(alpha));
      const url = `${mock.hotelBaseUrl}/hotels/v1/bookings/${booked.json.reference}`;
      return (await rawRequest(url, { method: 'DELETE', headers: { 'x-api-key': beta.agency.hotel_api_key } })).status;
    },
    off: 404,
    on: 200,
  },
  'hotel-rate-key-books-owner': {
    observe: async () => {
      const booked = await hotelBooking(beta, await hotelRateKey(alpha));
      if (booked.status !== 201) return [booked.status];
      const url = `${mock.hotelBaseUrl}/hotels/v1/bookings/${booked.json.reference}`;
      return [booked.status, (await rawRequest(url, { method: 'DELETE', headers: { 'x-api-key': alpha.agency.hotel_api_key } })).status];
    },
    off: [404],
    on: [201, 200],
  },
  'hotel-unknown-rate-422': {
    observe: async () =>
      (
        await rawRequest(`${mock.hotelBaseUrl}/hotels/v1/bookings`, {
          method: 'POST',
          headers: { 'x-api-key': alpha.agency.hotel_api_key, 'content-type': 'application/json' },
          body: JSON.stringify({ rate_key: 'no-such-rate', holder: { first_name: 'Ada', last_name: 'Lovelace' } }),
        })
      ).status,
    off: 404,
    on: 422,
  },
};

/** A rate key of `c`'s hotel availability. */
async function hotelRateKey(c: MockClient): Promise<string> {
  const avail = await rawRequest(`${mock.hotelBaseUrl}/hotels/v1/availability`, {
    method: 'POST',
    headers: { 'x-api-key': c.agency.hotel_api_key, 'content-type': 'application/json' },
    body: JSON.stringify({ destination: 'Lisbon', check_in: '2026-12-01', check_out: '2026-12-03', rooms: [{ adults: 2 }] }),
  });
  return avail.json.hotels[0].rates[0].rate_key as string;
}

/** `c` books `rateKey` on the hotel API. */
function hotelBooking(c: MockClient, rateKey: string) {
  return rawRequest(`${mock.hotelBaseUrl}/hotels/v1/bookings`, {
    method: 'POST',
    headers: { 'x-api-key': c.agency.hotel_api_key, 'content-type': 'application/json' },
    body: JSON.stringify({ rate_key: rateKey, holder: { first_name: 'Ada', last_name: 'Lovelace' } }),
  });
}

describe('webhook and hotel defects added for the self-test', () => {
  test.each(Object.keys(EDGE_CASES))('%s changes exactly its promise', async (name) => {
    const c = EDGE_CASES[name]!;
    mock.defects.disable(DEFECT_NAMES);
    await mock.reset();
    expect(await c.observe()).toEqual(c.off);
    mock.defects.enable([name as DefectName]);
    await mock.reset();
    const on = await c.observe();
    expect(on).toEqual(c.on);
    mock.defects.disable([name]);
  });
});
