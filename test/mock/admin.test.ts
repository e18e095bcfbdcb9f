import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMock, type RunningMock } from '../../src/mock/create-mock.js';
import { DEFECT_NAMES } from '../../src/mock/defects/catalogue.js';
import { adminRequest, rawRequest, startMock, type MockClient } from '../helpers/mock-client.js';
import { startReceiver } from '../helpers/mock-fixture.js';

let mock: RunningMock;
let alpha: MockClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  ({ mock, alpha } = await startMock());
  receiver = await startReceiver();
});
afterAll(async () => {
  await mock.close();
  await receiver.close();
});

const admin = (path: string, method = 'GET', body?: unknown): ReturnType<typeof rawRequest> =>
  adminRequest(`${mock.adminUrl}${path}`, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });

describe('admin API (section 11)', () => {
  test('health, and the admin API is not on the service port', async () => {
    expect(mock.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__admin$/);
    expect((await admin('/health')).json).toEqual({ ok: true });
    const onService = await rawRequest(`${alpha.origin}/__admin/health`);
    expect(onService.status).toBe(401);
  });

  test('off unless asked', async () => {
    const m = await createMock();
    expect(m.adminUrl).toBeUndefined();
    await m.close();
  });

  test('clock GET and advance move quote expiry', async () => {
    const before = (await admin('/clock')).json;
    expect(before).toEqual({ now_ms: expect.any(Number), offset_ms: expect.any(Number), next_due_ms: null });
    const q = await alpha.quote();
    const adv = await admin('/clock/advance', 'POST', { ms: 900_000 });
    expect(adv.json.offset_ms - before.offset_ms).toBe(900_000);
    expect((await alpha.book('flights', q.quote_token, 'adm-exp')).status).toBe(410);
    expect((await admin('/clock/advance', 'POST', { ms: -1 })).status).toBe(422);
  });

  test('advance with until_ms moves the clock to that instant, read when the request is handled, and never back', async () => {
    const { now_ms } = (await admin('/clock')).json;
    const target = now_ms + 3_600_000;
    const adv = await admin('/clock/advance', 'POST', { ms: 0, until_ms: target });
    expect(adv.status).toBe(200);
    // The clock runs on after the move: it reads the target or a few ms past it, never short of it.
    expect(adv.json.now_ms).toBeGreaterThanOrEqual(target);
    expect(adv.json.now_ms - target).toBeLessThan(1_000);
    expect(adv.json.moved_ms).toBeGreaterThan(3_599_000);
    const again = await admin('/clock/advance', 'POST', { ms: 5, until_ms: target - 60_000 });
    expect(again.json.moved_ms).toBe(0);
    expect(again.json.offset_ms).toBe(adv.json.offset_ms);
    expect((await admin('/clock/advance', 'POST', { ms: 0, until_ms: 'soon' })).status).toBe(422);
  });

  test('reset returns state to the fixture but keeps clock offset and defects', async () => {
    await admin('/defects', 'PUT', { enable: ['replay-differs'] });
    const q = await alpha.quote();
    expect((await alpha.book('flights', q.quote_token, 'adm-reset')).status).toBe(201);
    const offset = (await admin('/clock')).json.offset_ms;
    expect((await admin('/reset', 'POST')).status).toBe(200);
    expect(await alpha.balance()).toBe(1_000_000);
    expect((await admin('/clock')).json.offset_ms).toBe(offset);
    expect((await admin('/defects')).json.enabled).toEqual(['replay-differs']);
    // The quote of before the reset is unknown now.
    expect((await alpha.book('flights', q.quote_token, 'adm-reset-2')).status).toBe(404);
    await admin('/defects', 'PUT', { disable: ['replay-differs'] });
  });

  test('defects GET and PUT; unknown names are refused', async () => {
    expect((await admin('/defects')).json).toEqual({ enabled: [], available: DEFECT_NAMES });
    const put = await admin('/defects', 'PUT', { enable: ['fixed-window', 'nonce-unchecked'] });
    expect(put.json.enabled).toEqual(['nonce-unchecked', 'fixed-window']);
    expect(mock.defects.has('fixed-window')).toBe(true);
    expect((await admin('/defects', 'PUT', { disable: ['fixed-window', 'nonce-unchecked'] })).json.enabled).toEqual([]);
    const bad = await admin('/defects', 'PUT', { enable: ['no-such-defect'] });
    expect(bad.status).toBe(422);
    expect(bad.json.error.message).toContain('no-such-defect');
  });

  test('requests log: method, path, headers, body, at_ms, key id, status', async () => {
    await admin('/reset', 'POST');
    await alpha.post('/v1/flights/search', { criteria: { origin: 'X' } });
    const log = (await admin('/requests')).json.requests;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: '/v1/flights/search',
      key_id: 'ak_alpha',
      agency_id: 'agency-alpha',
      status: 422,
      body: '{"criteria":{"origin":"X"}}',
    });
    expect(log[0].headers['x-svc-nonce']).toBeTypeOf('string');
    expect(log[0].at_ms).toBeTypeOf('number');
  });

  test('webhooks: booking.confirmed and booking.cancelled delivered, listed in deliveries', async () => {
    await admin('/reset', 'POST');
    receiver.bodies.length = 0;
    await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: receiver.url } });
    const q = await alpha.quote();
    const b = await alpha.book('flights', q.quote_token, 'wh-1');
    await alpha.post(`/v1/flights/bookings/${b.json.booking_id}/cancellations`, {}, { idempotencyKey: 'wh-2' });
    await admin('/clock/advance', 'POST', { ms: 0 });
    const deliveries = (await admin('/webhooks/deliveries')).json.deliveries;
    expect(deliveries.map((d: { type: string; status: number; attempt: number }) => [d.type, d.status, d.attempt])).toEqual([
      ['booking.confirmed', 200, 1],
      ['booking.cancelled', 200, 1],
    ]);
    const bodies = receiver.bodies.map((t) => JSON.parse(t));
    expect(bodies[0]).toMatchObject({ type: 'booking.confirmed', agency_id: 'agency-alpha', data: { booking: b.json } });
    expect(bodies[1]).toMatchObject({ type: 'booking.cancelled', data: { cancellation: { booking_id: b.json.booking_id } } });
    // A replay emits nothing.
    await alpha.book('flights', q.quote_token, 'wh-1');
    await admin('/clock/advance', 'POST', { ms: 0 });
    expect((await admin('/webhooks/deliveries')).json.deliveries).toHaveLength(2);
  });

  test('unknown admin route is a 404 envelope', async () => {
    const res = await admin('/nope');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });
});
