import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { adminRequest, rawRequest, startMock, type MockClient } from '../helpers/mock-client.js';

let mock: RunningMock;
let alpha: MockClient;
let beta: MockClient;
beforeAll(async () => {
  ({ mock, alpha, beta } = await startMock());
});
afterAll(async () => {
  await mock.close();
});

/** One raw HTTP exchange on a fresh connection: what a browser or a hand-written client could send. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

const adminPort = (): number => Number(new URL(mock.adminUrl!).port);

function expectAdminRefusal(
  res: { status: number; headers: Record<string, string>; json: { error?: { code: string; request_id: string } } },
  status = 403,
): void {
  expect(res.status).toBe(status);
  expect(res.json.error?.code).toBe(status === 403 ? 'ADMIN_HEADER_REQUIRED' : 'METHOD_NOT_ALLOWED');
  expect(res.headers['x-request-id']).toBe(res.json.error?.request_id);
  expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
}

describe('admin API: X-SVC-Admin: 1 on every request (REFERENCE-API.md section 11)', () => {
  test('a request without the header, or with another value, is refused 403 ADMIN_HEADER_REQUIRED in the envelope', async () => {
    expectAdminRefusal(await rawRequest(`${mock.adminUrl}/health`));
    expectAdminRefusal(await rawRequest(`${mock.adminUrl}/clock`, { headers: { 'x-svc-admin': 'true' } }));
    expectAdminRefusal(await rawRequest(`${mock.adminUrl}/nope`));
    const ok = await adminRequest(`${mock.adminUrl}/health`);
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  test('a page in a browser cannot reset: a text/plain POST with a foreign Host is refused and the state stays', async () => {
    const q = await alpha.quote();
    expect((await alpha.book('flights', q.quote_token, 'guard-page')).status).toBe(201);
    const balance = await alpha.balance();
    const answer = await rawExchange(
      adminPort(),
      'POST /__admin/reset HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('"code":"ADMIN_HEADER_REQUIRED"');
    expect(answer.toLowerCase()).not.toContain('access-control-allow');
    expect(await alpha.balance()).toBe(balance);
  });

  test('no CORS preflight is answered: an OPTIONS gets a refusal without any Access-Control-Allow-* header', async () => {
    const preflight = await rawRequest(`${mock.adminUrl}/reset`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-svc-admin' },
    });
    expectAdminRefusal(preflight);
    expectAdminRefusal(await adminRequest(`${mock.adminUrl}/reset`, { method: 'OPTIONS' }), 405);
  });

  test('POST /clock/reset puts the offset back to 0 and answers {now_ms, offset_ms}', async () => {
    await adminRequest(`${mock.adminUrl}/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":3600000}' });
    expect(mock.clock.offset).toBeGreaterThanOrEqual(3_600_000);
    const res = await adminRequest(`${mock.adminUrl}/clock/reset`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ now_ms: expect.any(Number), offset_ms: 0 });
    expect(Math.abs(res.json.now_ms - Date.now())).toBeLessThan(1000);
    // Clients signing with the real time are accepted again.
    expect((await alpha.get('/v1/account', { timestamp: Math.floor(Date.now() / 1000) })).status).toBe(200);
    expect((await rawRequest(`${mock.adminUrl}/clock/reset`, { method: 'POST' })).status).toBe(403);
  });
});

describe("a tenant's webhook pointed at the admin API cannot reset the mock (issue 11 item 3)", () => {
  test('service webhook: agency-beta registers /__admin/reset and books; agency-alpha keeps its wallet and bookings', async () => {
    const q = await alpha.quote();
    const booked = await alpha.book('flights', q.quote_token, 'guard-alpha');
    expect(booked.status).toBe(201);
    const balance = await alpha.balance();
    const target = `${mock.adminUrl}/reset`;
    expect((await beta.send('PUT', '/v1/webhook-endpoint', { body: { url: target } })).status).toBe(200);
    const bq = await beta.quote();
    expect((await beta.book('flights', bq.quote_token, 'guard-beta')).status).toBe(201);
    await mock.advance(0);
    const deliveries = (await adminRequest(`${mock.adminUrl}/webhooks/deliveries`)).json.deliveries as Array<{ url: string; status: number | null }>;
    expect(deliveries.filter((d) => d.url === target).map((d) => d.status)).toContain(403);
    expect(await alpha.balance()).toBe(balance);
    expect((await alpha.get(`/v1/flights/bookings/${booked.json.booking_id}`)).status).toBe(200);
  });

  test('hotel webhook: agency-beta registers /__admin/reset and books a hotel; agency-alpha keeps its wallet and bookings', async () => {
    const q = await alpha.quote();
    const booked = await alpha.book('flights', q.quote_token, 'guard-alpha-2');
    expect(booked.status).toBe(201);
    const balance = await alpha.balance();
    const target = `${mock.adminUrl}/reset`;
    const key = beta.agency.hotel_api_key;
    const hotel = (method: string, path: string, body: unknown) =>
      rawRequest(`${mock.hotelBaseUrl}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await hotel('PUT', '/hotels/v1/webhook', { url: target })).status).toBe(200);
    const avail = await hotel('POST', '/hotels/v1/availability', {
      destination: 'Oslo',
      check_in: '2026-12-01',
      check_out: '2026-12-03',
      rooms: [{ adults: 2 }],
    });
    const rateKey = avail.json.hotels[0].rates[0].rate_key as string;
    expect((await hotel('POST', '/hotels/v1/bookings', { rate_key: rateKey, holder: { first_name: 'Ada', last_name: 'Lovelace' } })).status).toBe(201);
    await mock.advance(0);
    const deliveries = (await adminRequest(`${mock.adminUrl}/webhooks/deliveries`)).json.deliveries as Array<{
      url: string;
      status: number | null;
      type: string;
    }>;
    expect(deliveries.filter((d) => d.url === target && d.type.startsWith('hotel.')).map((d) => d.status)).toEqual([403]);
    expect(await alpha.balance()).toBe(balance);
    expect((await alpha.get(`/v1/flights/bookings/${booked.json.booking_id}`)).status).toBe(200);
  });
});
