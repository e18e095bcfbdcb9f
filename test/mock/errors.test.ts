import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { PRODUCTS } from '../../src/mock/fixture/fixture-types.js';
import { CRITERIA, startMock, type MockClient, type TestResponse } from '../helpers/mock-client.js';

let mock: RunningMock;
let alpha: MockClient;
let beta: MockClient;
beforeAll(async () => {
  ({ mock, alpha, beta } = await startMock());
});
afterAll(async () => mock.close());

function expectEnvelope(res: TestResponse, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(res.json.error).toMatchObject({ code, message: expect.any(String), details: expect.any(Object) });
  expect(res.headers['x-request-id']).toBe(res.json.error.request_id);
}

describe('contract (403 MODULE_NOT_ENABLED)', () => {
  const closed = PRODUCTS.filter((p) => p !== 'flights');
  const paths = (p: string): Array<[string, string]> => [
    ['POST', `/v1/${p}/search`],
    ['POST', `/v1/${p}/bookings`],
    ['GET', `/v1/${p}/bookings/bk_1`],
    ['POST', `/v1/${p}/bookings/bk_1/cancellations`],
    ['GET', `/v1/${p}/anything/at/all`],
    ['DELETE', `/v1/${p}/search`],
    ['HEAD', `/v1/${p}/search`],
    ['GET', `/v1/${p}/`],
  ];
  test.each(closed.flatMap((p) => paths(p)))('beta %s %s → 403 with details.product', async (method, path) => {
    const res = await beta.send(method, path, method === 'POST' ? { body: { criteria: {} } } : {});
    expect(res.status).toBe(403);
    if (method !== 'HEAD') {
      expectEnvelope(res, 403, 'MODULE_NOT_ENABLED');
      expect(res.json.error.details.product).toBe(path.split('/')[2]);
    }
    expect(res.headers['x-ratelimit-resource']).toBe(method === 'GET' || (path.endsWith('/search') && method === 'POST') ? 'read' : 'write');
  });
});

describe('route and method', () => {
  test('unknown path and unknown product word are 404 NOT_FOUND', async () => {
    expectEnvelope(await alpha.get('/v1/nothing-here'), 404, 'NOT_FOUND');
    expectEnvelope(await alpha.post('/v1/hotels/search', { criteria: {} }), 404, 'NOT_FOUND');
    expectEnvelope(await alpha.get('/v1/flights/bookings/bk_unknown'), 404, 'NOT_FOUND');
  });

  test('a method no route has is 405 (HEAD included), counted as a write', async () => {
    const del = await alpha.send('DELETE', '/v1/account');
    expectEnvelope(del, 405, 'METHOD_NOT_ALLOWED');
    expect(del.headers.allow).toBe('GET');
    expect(del.headers['x-ratelimit-resource']).toBe('write');
    const head = await alpha.send('HEAD', '/v1/account');
    expect(head.status).toBe(405);
    expect(head.headers['x-request-id']).toMatch(/^req_/);
  });

  test('another agency booking id is 404', async () => {
    const q = await alpha.quote('flights');
    const b = await alpha.book('flights', q.quote_token, `k-${Date.now()}`);
    expect(b.status).toBe(201);
    expectEnvelope(await beta.get(`/v1/flights/bookings/${b.json.booking_id}`), 404, 'NOT_FOUND');
  });
});

describe('bad input answered in the envelope, the mock keeps serving', () => {
  test('malformed JSON is 400 INVALID_JSON', async () => {
    expectEnvelope(await alpha.post('/v1/flights/search', '{"criteria": {'), 400, 'INVALID_JSON');
  });

  test('invalid UTF-8 is 400 INVALID_JSON', async () => {
    expectEnvelope(await alpha.post('/v1/flights/search', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, 'INVALID_JSON');
  });

  test('a 70 KiB body is 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify({ criteria: CRITERIA.flights, pad: 'x'.repeat(70 * 1024) });
    expectEnvelope(await alpha.post('/v1/flights/search', body), 413, 'PAYLOAD_TOO_LARGE');
  });

  test('over fastify’s own limit still answers in the envelope', async () => {
    const res = await alpha.post('/v1/flights/search', 'x'.repeat(2 * 1024 * 1024));
    expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('wrong types are 422 VALIDATION_FAILED with details.fields', async () => {
    const res = await alpha.post('/v1/flights/search', { criteria: { origin: 'london', destination: 7, departure_date: '2026-02-30', adults: 10 } });
    expectEnvelope(res, 422, 'VALIDATION_FAILED');
    expect(res.json.error.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'criteria.origin',
      'criteria.destination',
      'criteria.departure_date',
      'criteria.adults',
    ]);
    for (const f of res.json.error.details.fields) expect(f.message).toBeTypeOf('string');
  });

  test.each(Object.keys(CRITERIA))('missing criteria field of %s is 422', async (product) => {
    const client = product === 'cars' ? (await startMockOnce()).gamma : alpha;
    const criteria = { ...CRITERIA[product] };
    const first = Object.keys(criteria)[0]!;
    delete criteria[first];
    const res = await client.post(`/v1/${product}/search`, { criteria, unknown_field: 1 });
    expectEnvelope(res, 422, 'VALIDATION_FAILED');
    expect(res.json.error.details.fields[0].field).toBe(`criteria.${first}`);
  });

  test('a 16 KiB header is judged like any request', async () => {
    const res = await alpha.get('/v1/account', { headers: { 'x-padding': 'p'.repeat(16 * 1024) } });
    expect(res.status).toBe(200);
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });

  test('headers over node’s limit and a garbage request line answer in the envelope', async () => {
    for (const raw of [`GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`, 'NONSENSE\r\n\r\n']) {
      const text = await new Promise<string>((resolve, reject) => {
        const addr = new URL(mock.baseUrl);
        const sock = connect(Number(addr.port), '127.0.0.1', () => sock.write(raw));
        let out = '';
        sock.on('data', (d) => (out += d.toString()));
        sock.on('end', () => resolve(out));
        sock.on('error', reject);
      });
      expect(text).toMatch(/^HTTP\/1.1 4(31|00)/);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      expect(body.error.code).toMatch(/HEADERS_TOO_LARGE|BAD_REQUEST/);
      expect(text.toLowerCase()).toContain(`x-request-id: ${body.error.request_id.toLowerCase()}`);
    }
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });
});

describe('judging order', () => {
  test('401 before 403 before 404 before 413', async () => {
    expectEnvelope(await beta.post('/v1/cars/nowhere', 'x'.repeat(70 * 1024), { secret: 'bad' }), 401, 'SIGNATURE_INVALID');
    expectEnvelope(await beta.post('/v1/cars/nowhere', 'x'.repeat(70 * 1024)), 403, 'MODULE_NOT_ENABLED');
    expectEnvelope(await beta.post('/v1/flights/nowhere', 'x'.repeat(70 * 1024)), 404, 'NOT_FOUND');
    expectEnvelope(await beta.post('/v1/flights/search', 'x'.repeat(70 * 1024)), 413, 'PAYLOAD_TOO_LARGE');
  });

  test('body validation (422) comes before the idempotency key (400)', async () => {
    expectEnvelope(await alpha.post('/v1/flights/bookings', { travellers: [] }), 422, 'VALIDATION_FAILED');
    expectEnvelope(
      await alpha.post('/v1/flights/bookings', { quote_token: 'qt_x', travellers: [{ first_name: 'A', last_name: 'B' }] }),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
    );
  });
});

let extra: Awaited<ReturnType<typeof startMock>> | undefined;
async function startMockOnce(): Promise<Awaited<ReturnType<typeof startMock>>> {
  extra ??= await startMock();
  return extra;
}
afterAll(async () => extra?.mock.close());
