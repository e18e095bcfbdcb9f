import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../../src/clock/mock-clock.js';
import { DefectSet } from '../../../src/mock/defects/defect-set.js';
import { createHotelApp, type HotelApp } from '../../../src/mock/hotel/hotel-app.js';
import { HOTEL_DEFECT_RETRY_DELAY_MS } from '../../../src/mock/hotel/hotel-webhook-sender.js';
import { startReceiver, type Receiver } from '../../../src/receiver/index.js';
import { verifyHotelWebhookRequest } from '../../../src/protocol/index.js';

const HOUR = 3_600_000;
const KEY = { 'x-api-key': 'hk_alpha_test', 'content-type': 'application/json' };
const SECRET = 'hwsec_alpha';
const CRITERIA = { destination: 'Porto', check_in: '2026-11-20', check_out: '2026-11-22', rooms: [{ adults: 1 }, { adults: 2 }] };

let clock: MockClock;
let receiver: Receiver;
const apps: HotelApp[] = [];

beforeEach(async () => {
  clock = new MockClock();
  receiver = await startReceiver({ now: () => clock.now() });
});
afterEach(async () => {
  clock.close();
  for (const a of apps.splice(0)) await a.app.close();
  await receiver.close();
});

function make(defects: string[] = [], fixtureUrl: string | null = null): HotelApp {
  const app = createHotelApp({
    clock,
    defects: new DefectSet(defects),
    agencies: [{ agencyId: 'agency-alpha', currency: 'EUR', hotelApiKey: 'hk_alpha_test', hotelWebhookSecret: SECRET, hotelWebhookUrl: fixtureUrl }],
  });
  apps.push(app);
  return app;
}

async function book(h: HotelApp): Promise<string> {
  const avail = await h.app.inject({ method: 'POST', url: '/hotels/v1/availability', headers: KEY, payload: CRITERIA });
  const rate_key = avail.json().hotels[0].rates[0].rate_key as string;
  const res = await h.app.inject({
    method: 'POST',
    url: '/hotels/v1/bookings',
    headers: KEY,
    payload: { rate_key, holder: { first_name: 'A', last_name: 'B' }, client_reference: 'CR-9' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().reference as string;
}

async function setUrl(h: HotelApp, path: string): Promise<void> {
  const res = await h.app.inject({ method: 'PUT', url: '/hotels/v1/webhook', headers: KEY, payload: { url: `${receiver.url}${path}` } });
  expect(res.statusCode).toBe(200);
}

async function settle(h: HotelApp): Promise<void> {
  await h.idle();
  await clock.advance(HOUR);
  await h.idle();
}

describe('hotel events', () => {
  it('sends hotel.booking.confirmed and hotel.booking.cancelled, signed t=…,v1=…, once each', async () => {
    const h = make();
    await setUrl(h, '/hotel');
    const start = clock.now();
    const ref = await book(h);
    await settle(h);
    const del = await h.app.inject({ method: 'DELETE', url: `/hotels/v1/bookings/${ref}`, headers: { 'x-api-key': 'hk_alpha_test' } });
    expect(del.statusCode).toBe(200);
    await settle(h);
    const got = receiver.deliveries();
    expect(got.map((d) => JSON.parse(d.text).type)).toEqual(['hotel.booking.confirmed', 'hotel.booking.cancelled']);
    const first = JSON.parse(got[0]!.text);
    expect(first.id).toMatch(/^hevt_/);
    expect(first.data).toMatchObject({ reference: ref, status: 'CONFIRMED', hotel_code: expect.stringMatching(/^HTL/), client_reference: 'CR-9' });
    expect(first.data.net.currency).toBe('EUR');
    expect(JSON.parse(got[1]!.text).data).toMatchObject({ reference: ref, status: 'CANCELLED' });
    for (const d of got) {
      expect(d.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyHotelWebhookRequest({ headers: d.headers, body: d.body, secret: SECRET, nowS: Math.floor(d.receivedAt / 1000) })).toEqual({ ok: true });
    }
    const log = h.deliveries();
    expect(log.map((x) => [x.type, x.attempt, x.status])).toEqual([
      ['hotel.booking.confirmed', 1, 200],
      ['hotel.booking.cancelled', 1, 200],
    ]);
    expect(log[0]!.at_ms).toBeGreaterThanOrEqual(start);
    expect(got[0]!.headers['x-webhook-signature']).toMatch(new RegExp(`^t=${Math.floor(log[0]!.at_ms / 1000)},`));
    expect(log[0]?.event_id).toBe(first.id);
  });

  it('makes exactly one attempt to a failing receiver, even an hour of clock later', async () => {
    receiver.script('/down', { kind: 'always', status: 500 });
    const h = make();
    await setUrl(h, '/down');
    await book(h);
    await settle(h);
    await clock.advance(HOUR);
    await h.idle();
    expect(receiver.deliveries()).toHaveLength(1);
    expect(h.deliveries().map((x) => [x.attempt, x.status])).toEqual([[1, 500]]);
  });

  it('sends nothing without an endpoint, uses the fixture endpoint, and reset restores it', async () => {
    const none = make();
    await book(none);
    await settle(none);
    expect(none.deliveries()).toEqual([]);

    const h = make([], `${receiver.url}/fixture`);
    await book(h);
    await h.idle();
    await setUrl(h, '/changed');
    h.reset();
    expect(h.deliveries()).toEqual([]);
    await book(h);
    await h.idle();
    expect(receiver.deliveries().map((d) => d.path)).toEqual(['/fixture', '/fixture']);
  });

  it('hotel-webhook-retried: a failed event is retried once, later on the clock', async () => {
    receiver.script('/down', { kind: 'always', status: 500 });
    const h = make(['hotel-webhook-retried']);
    await setUrl(h, '/down');
    await book(h);
    await settle(h);
    const log = h.deliveries();
    expect(log.map((x) => x.attempt)).toEqual([1, 2]);
    expect(log[1]!.at_ms - log[0]!.at_ms).toBe(HOTEL_DEFECT_RETRY_DELAY_MS);
    expect(new Set(receiver.deliveries().map((d) => d.text)).size).toBe(1);
  });

  it('hotel-bad-signature: the signature leaves out the timestamp and fails verification', async () => {
    const h = make(['hotel-bad-signature']);
    await setUrl(h, '/bad');
    await book(h);
    await settle(h);
    const [d] = receiver.deliveries();
    expect(d?.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyHotelWebhookRequest({ headers: d!.headers, body: d!.body, secret: SECRET, toleranceS: Infinity })).toEqual({
      ok: false,
      reason: 'signature-mismatch',
    });
  });
});
