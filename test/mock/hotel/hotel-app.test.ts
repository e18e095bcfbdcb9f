import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../../src/clock/mock-clock.js';
import { DefectSet } from '../../../src/mock/defects/defect-set.js';
import { createHotelApp, type HotelApp } from '../../../src/mock/hotel/hotel-app.js';
import type { HotelAgency } from '../../../src/mock/hotel/hotel-agency.js';

const AGENCIES: HotelAgency[] = [
  { agencyId: 'agency-alpha', currency: 'EUR', hotelApiKey: 'hk_alpha_test', hotelWebhookSecret: 'hwsec_alpha', hotelWebhookUrl: null },
  { agencyId: 'agency-beta', currency: 'GBP', hotelApiKey: 'hk_beta_test', hotelWebhookSecret: 'hwsec_beta' },
];
const ALPHA = { 'x-api-key': 'hk_alpha_test' };
const BETA = { 'x-api-key': 'hk_beta_test' };
const CRITERIA = { destination: 'Lisbon', check_in: '2026-11-20', check_out: '2026-11-23', rooms: [{ adults: 2 }] };

let clock: MockClock;
let hotel: HotelApp;

function make(defects: string[] = []): HotelApp {
  return createHotelApp({ clock, defects: new DefectSet(defects), agencies: AGENCIES });
}

beforeEach(() => {
  clock = new MockClock();
  hotel = make();
});
afterEach(async () => {
  clock.close();
  await hotel.app.close();
});

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  json: any;
}

async function call(app: HotelApp, method: string, url: string, headers: Record<string, string>, payload?: unknown): Promise<Reply> {
  const res = await app.app.inject({
    method: method as 'POST',
    url,
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  let json: unknown;
  try {
    json = res.json();
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json };
}

function expectError(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(String(r.headers['content-type'])).toMatch(/^application\/json/);
  expect(r.json.error).toMatchObject({ code });
  expect(typeof r.json.error.message).toBe('string');
  expect(typeof r.json.error.details).toBe('object');
  expect(r.json.error.request_id).toMatch(/^req_/);
  expect(r.headers['x-request-id']).toBe(r.json.error.request_id);
}

async function firstRate(app: HotelApp, headers = ALPHA): Promise<{ rate_key: string; net: { amount: number; currency: string }; hotel_code: string }> {
  const r = await call(app, 'POST', '/hotels/v1/availability', headers, CRITERIA);
  const h = r.json.hotels[0];
  return { ...h.rates[0], hotel_code: h.hotel_code };
}

describe('hotel API: authentication', () => {
  it('refuses a missing or wrong X-API-Key with 401 UNAUTHENTICATED, before routing', async () => {
    expectError(await call(hotel, 'POST', '/hotels/v1/availability', {}, CRITERIA), 401, 'UNAUTHENTICATED');
    expectError(await call(hotel, 'POST', '/hotels/v1/availability', { 'x-api-key': 'hk_alpha_tesT' }, CRITERIA), 401, 'UNAUTHENTICATED');
    expectError(await call(hotel, 'GET', '/nowhere', {}), 401, 'UNAUTHENTICATED');
  });

  it('hotel-key-unchecked accepts any key', async () => {
    const broken = make(['hotel-key-unchecked']);
    const r = await call(broken, 'POST', '/hotels/v1/availability', { 'x-api-key': 'wrong' }, CRITERIA);
    expect(r.status).toBe(200);
    await broken.app.close();
  });
});

describe('hotel API: availability', () => {
  it('answers deterministic hotels priced in the agency currency, with X-Request-Id', async () => {
    const a = await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, CRITERIA);
    const b = await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, { ...CRITERIA, ignored: true });
    expect(a.status).toBe(200);
    expect(a.headers['x-request-id']).toMatch(/^req_/);
    expect(a.json).toEqual(b.json);
    expect(a.json.hotels.length).toBeGreaterThanOrEqual(1);
    for (const h of a.json.hotels) {
      expect(h.hotel_code).toMatch(/^HTL\d{5}$/);
      expect(typeof h.name).toBe('string');
      for (const rate of h.rates) {
        expect(rate.rate_key).toMatch(/^rk_/);
        expect(Number.isInteger(rate.net.amount) && rate.net.amount > 0).toBe(true);
        expect(rate.net.currency).toBe('EUR');
      }
    }
    const beta = await call(hotel, 'POST', '/hotels/v1/availability', BETA, CRITERIA);
    expect(beta.json.hotels[0].rates[0].net.currency).toBe('GBP');
    const longer = await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, { ...CRITERIA, check_out: '2026-11-26' });
    expect(longer.json.hotels[0].rates[0].net.amount).toBeGreaterThan(a.json.hotels[0].rates[0].net.amount);
  });

  it('422 VALIDATION_FAILED lists each wrong field', async () => {
    const r = await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, { destination: '', check_in: '2026-02-30', check_out: 'x', rooms: [{ adults: 0 }] });
    expectError(r, 422, 'VALIDATION_FAILED');
    expect(r.json.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['destination', 'check_in', 'check_out', 'rooms[0].adults']);
    const backwards = await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, { ...CRITERIA, check_out: CRITERIA.check_in });
    expectError(backwards, 422, 'VALIDATION_FAILED');
    expectError(await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, [1]), 422, 'VALIDATION_FAILED');
  });

  it('400 INVALID_JSON, 413 over 64 KiB', async () => {
    expectError(await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, '{"destination":'), 400, 'INVALID_JSON');
    expectError(await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, ''), 400, 'INVALID_JSON');
    const big = JSON.stringify({ ...CRITERIA, pad: 'x'.repeat(64 * 1024) });
    expectError(await call(hotel, 'POST', '/hotels/v1/availability', ALPHA, big), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('hotel API: routes and methods', () => {
  it('404 NOT_FOUND for an unknown route, 405 METHOD_NOT_ALLOWED for a wrong method, in the envelope', async () => {
    expectError(await call(hotel, 'GET', '/hotels/v1/nothing', ALPHA), 404, 'NOT_FOUND');
    expectError(await call(hotel, 'GET', '/', ALPHA), 404, 'NOT_FOUND');
    const wrong = await call(hotel, 'GET', '/hotels/v1/availability', ALPHA);
    expectError(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.allow).toBe('POST');
    const head = await call(hotel, 'HEAD', '/hotels/v1/bookings', ALPHA);
    // A HEAD answer carries no body, only the status and headers.
    expect(head.status).toBe(405);
    expect(head.headers['x-request-id']).toMatch(/^req_/);
    expectError(await call(hotel, 'POST', '/hotels/v1/bookings/HB-1', ALPHA, {}), 405, 'METHOD_NOT_ALLOWED');
    expectError(await call(hotel, 'DELETE', '/hotels/v1/webhook', ALPHA), 405, 'METHOD_NOT_ALLOWED');
    expectError(await call(hotel, 'DELETE', `/hotels/v1/bookings/${'X'.repeat(300)}`, ALPHA), 404, 'NOT_FOUND');
  });
});

describe('hotel API: bookings', () => {
  it('books a rate (201 CONFIRMED at its net), cancels it (200 CANCELLED), then 409 on a second cancel', async () => {
    const rate = await firstRate(hotel);
    const booked = await call(hotel, 'POST', '/hotels/v1/bookings', ALPHA, {
      rate_key: rate.rate_key,
      holder: { first_name: 'Ana', last_name: 'Sousa' },
      client_reference: 'C-1',
    });
    expect(booked.status).toBe(201);
    expect(booked.json).toEqual({ reference: booked.json.reference, status: 'CONFIRMED', net: rate.net });
    expect(booked.headers['x-request-id']).toMatch(/^req_/);
    const ref = booked.json.reference as string;
    const cancelled = await call(hotel, 'DELETE', `/hotels/v1/bookings/${ref}`, ALPHA);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toEqual({ reference: ref, status: 'CANCELLED' });
    expectError(await call(hotel, 'DELETE', `/hotels/v1/bookings/${ref}`, ALPHA), 409, 'BOOKING_ALREADY_CANCELLED');
  });

  it('404 NOT_FOUND for an unknown, tampered or other agency rate_key or reference', async () => {
    const rate = await firstRate(hotel);
    const holder = { first_name: 'A', last_name: 'B' };
    expectError(await call(hotel, 'POST', '/hotels/v1/bookings', ALPHA, { rate_key: 'rk_nope', holder }), 404, 'NOT_FOUND');
    const tampered = rate.rate_key.slice(0, -2) + (rate.rate_key.endsWith('AA') ? 'BB' : 'AA');
    expectError(await call(hotel, 'POST', '/hotels/v1/bookings', ALPHA, { rate_key: tampered, holder }), 404, 'NOT_FOUND');
    expectError(await call(hotel, 'POST', '/hotels/v1/bookings', BETA, { rate_key: rate.rate_key, holder }), 404, 'NOT_FOUND');
    const booked = await call(hotel, 'POST', '/hotels/v1/bookings', ALPHA, { rate_key: rate.rate_key, holder });
    expectError(await call(hotel, 'DELETE', `/hotels/v1/bookings/${booked.json.reference}`, BETA), 404, 'NOT_FOUND');
    expectError(await call(hotel, 'DELETE', '/hotels/v1/bookings/HB-UNKNOWN', ALPHA), 404, 'NOT_FOUND');
  });

  it('422 for a booking body without holder names', async () => {
    const r = await call(hotel, 'POST', '/hotels/v1/bookings', ALPHA, { rate_key: 'rk_x', holder: { first_name: 'A' }, client_reference: 5 });
    expectError(r, 422, 'VALIDATION_FAILED');
    expect(r.json.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['holder.last_name', 'client_reference']);
  });

  it('reset clears bookings', async () => {
    const rate = await firstRate(hotel);
    const booked = await call(hotel, 'POST', '/hotels/v1/bookings', ALPHA, { rate_key: rate.rate_key, holder: { first_name: 'A', last_name: 'B' } });
    hotel.reset();
    expectError(await call(hotel, 'DELETE', `/hotels/v1/bookings/${booked.json.reference}`, ALPHA), 404, 'NOT_FOUND');
  });
});

describe('hotel API: webhook endpoint', () => {
  it('PUT sets the url and answers the secret; a bad url is 422', async () => {
    const r = await call(hotel, 'PUT', '/hotels/v1/webhook', ALPHA, { url: 'http://127.0.0.1:9/hook' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ url: 'http://127.0.0.1:9/hook', secret: 'hwsec_alpha' });
    expectError(await call(hotel, 'PUT', '/hotels/v1/webhook', ALPHA, { url: 'ftp://x' }), 422, 'VALIDATION_FAILED');
    expect((await call(hotel, 'PUT', '/hotels/v1/webhook', ALPHA, { url: null })).json).toEqual({ url: null, secret: 'hwsec_alpha' });
  });
});
