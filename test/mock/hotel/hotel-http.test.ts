import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../../../src/clock/mock-clock.js';
import { DefectSet } from '../../../src/mock/defects/defect-set.js';
import { createHotelApp, type HotelApp } from '../../../src/mock/hotel/hotel-app.js';

let clock: MockClock;
let hotel: HotelApp;
let base: string;

beforeAll(async () => {
  clock = new MockClock();
  hotel = createHotelApp({ clock, defects: new DefectSet(), agencies: [{ agencyId: 'a', currency: 'USD', hotelApiKey: 'k', hotelWebhookSecret: 's' }] });
  await hotel.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(hotel.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  clock.close();
  await hotel.app.close();
});

async function send(method: 'POST' | 'PUT', path: string, body: string | Buffer, headers: Record<string, string>) {
  const res = await request(`${base}${path}`, { method, body, headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

describe('hotel API over real HTTP', () => {
  it('parses JSON whatever the content type says, and answers X-Request-Id', async () => {
    const body = JSON.stringify({ destination: 'Oslo', check_in: '2026-01-01', check_out: '2026-01-02', rooms: [{ adults: 1 }] });
    const plain = await send('POST', '/hotels/v1/availability', body, { 'x-api-key': 'k' });
    expect(plain.status).toBe(200);
    expect(plain.json.hotels[0].rates[0].net.currency).toBe('USD');
    expect(plain.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers 413 PAYLOAD_TOO_LARGE in the envelope over a real socket', async () => {
    const r = await send('PUT', '/hotels/v1/webhook', Buffer.alloc(64 * 1024 + 1, 0x20), { 'x-api-key': 'k', 'content-type': 'application/json' });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.headers['x-request-id']).toBe(r.json.error.request_id);
  });

  it('answers 401 before reading anything else', async () => {
    const r = await send('PUT', '/hotels/v1/webhook', '{', { 'x-api-key': 'nope', 'content-type': 'application/json' });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('UNAUTHENTICATED');
  });
});
